import type { Diagnostic, DiagnosticCode, JsonPointer, JsonSchema, JsonSchemaObject, ParserSemantics, SchemaNote, Severity } from '../types'

/** What a flat key's hint says, kept so an outer union on the same discriminator can refine it. */
export interface KeyHint {
  /** The discriminator key the hint speaks of (a key of the same object). */
  tag: string
  /** The discriminator values whose variants declare the key, and those that require it. */
  declaredBy: string[]
  requiredBy: string[]
  /** The author's own description of the key, by discriminator value (where there is one). */
  own: Record<string, string>
}

/** One object of a union being joined, with the union branch's own description. */
export interface ObjectVariant {
  schema: JsonSchemaObject
  description?: string
}

/** A flattening strategy (`portable`, `minimal`): how far unions, references and `allOf` are rewritten. A target profile (`TargetProfile`) applies its rules after one; a server's profile choice picks among the built ones. */
export interface FlatteningProfile {
  name: string
  /** Replace local `$ref`s by their targets (recursion unrolled to a bound). */
  inlineRefs: boolean
  /** Join every union into one schema, not only unions of objects. */
  joinEveryUnion: boolean
  /** Fold `allOf` into one schema. */
  foldAllOf: boolean
  /** The schema this profile writes for "any value". */
  anyValue: () => JsonSchema
  /** Last rewrite of each node, after its children and unions are done. */
  finishNode?: (node: JsonSchemaObject, path: JsonPointer, ctx: FlattenContext) => JsonSchema
  /** Last rewrite of the whole document (what only the finished document shows). */
  finishDocument?: (schema: JsonSchema, path: JsonPointer, ctx: FlattenContext) => JsonSchema
}

/** Node-keyed tables are plain Maps: they live as long as one flatten, and Maps cost the GC far less. */
export interface FlattenContext {
  profile: FlatteningProfile
  /** The document `$ref`s resolve against. */
  root: JsonSchema
  /** How the original's parser reads keywords validators read otherwise. */
  semantics: ParserSemantics
  /** Notes by node identity; rewritten nodes inherit the notes of the node they came from. */
  notes: Map<object, SchemaNote>
  diagnostics: SiteDiagnostic[]
  /** `$ref`s being inlined, outermost first: the `$ref`, where it is used (its site), and the definition's own pointer. */
  frames: { ref: string, site: JsonPointer, target: JsonPointer }[]
  /** The original pointer of each rewritten node, for diagnostics raised after it was rewritten. */
  origins: Map<object, JsonPointer>
  /** The hints written on flat keys, by the key's schema, for outer unions on the same discriminator. */
  hints: Map<object, KeyHint>
  /** Discriminator names several unions declare: a hint names its own by path to be unambiguous. */
  repeatedTags: Set<string>
  /** Nodes left before inlining stops; keeps shared or recursive definitions from exploding. */
  budget: number
  /** `$ref` definitions a union joined as its branches, rewritten once each (`null` while under way). */
  joinedTargets: Map<string, JsonSchema | null>
}

/** How many times one `$ref` may be inlined inside itself before it becomes a loose typed schema. */
export const RECURSION_BOUND = 1
/** Nesting beyond this is widened instead of walked. */
export const MAX_DEPTH = 64
/** Nodes a single flatten may produce by inlining. */
export const NODE_BUDGET = 200_000

/** A diagnostic with the site it was raised at: the walk's pointer, through inlined `$ref`s. */
export interface SiteDiagnostic extends Diagnostic {
  site: JsonPointer
}

/**
 * The walk's pointers follow the document as it is used: through an inlined `$ref` they go on below
 * the `$ref` (the site). The original pointer goes on inside the definition instead.
 */
export function originalOf(ctx: FlattenContext, site: JsonPointer): JsonPointer {
  for (let i = ctx.frames.length - 1; i >= 0; i--) {
    const frame = ctx.frames[i]!
    if (site === frame.site || site.startsWith(`${frame.site}/`))
      return frame.target + site.slice(frame.site.length)
  }
  return site
}

/** Reports at a site; `original` is given where the site alone cannot tell it (keys merged by a union). */
export function report(ctx: FlattenContext, code: DiagnosticCode, severity: Severity, site: JsonPointer, message: string, original?: JsonPointer): void {
  ctx.diagnostics.push({ code, severity, path: original ?? originalOf(ctx, site), message, site })
}

export function noteOf(ctx: FlattenContext, node: unknown): SchemaNote | undefined {
  return typeof node === 'object' && node !== null ? ctx.notes.get(node) : undefined
}

/** Lets `to` carry the notes of `from` after a rewrite. */
export function carryNote<T extends JsonSchema>(ctx: FlattenContext, from: unknown, to: T): T {
  const note = noteOf(ctx, from)
  if (note && typeof to === 'object' && !ctx.notes.has(to))
    ctx.notes.set(to, note)
  return to
}

/** Where a site lands once unions are merged into one object and tuples into one `items`. */
export function flatSite(site: JsonPointer): JsonPointer {
  return site.replace(/\/(?:anyOf|oneOf|allOf)\/\d+/g, '').replace(/\/(?:prefixItems|items)\/\d+/g, '/items')
}

/**
 * How a hint names a discriminator: its key, or, when several unions share that name, its path in
 * the arguments (`query.source.kind`, `items[].kind`), so a hint never reads as another union's.
 */
export function tagLabel(ctx: FlattenContext, site: JsonPointer, key: string): string {
  if (!ctx.repeatedTags.has(key))
    return key
  const tokens = flatSite(site).split('/').slice(1).map(token => token.replace(/~1/g, '/').replace(/~0/g, '~'))
  let label = ''
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === 'properties' && i + 1 < tokens.length)
      label += `${label ? '.' : ''}${tokens[++i]}`
    else if (tokens[i] === 'items')
      label += '[]'
    else if (tokens[i] === 'additionalProperties')
      label += `${label ? '.' : ''}*`
  }
  return label ? `${label}.${key}` : key
}
