import type { Diagnostic, DiagnosticCode, JsonPointer, JsonSchema, JsonSchemaObject, SchemaNote, Severity } from '../types'

export interface Profile {
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
}

export interface FlattenContext {
  profile: Profile
  /** The document `$ref`s resolve against. */
  root: JsonSchema
  /** Notes by node identity; rewritten nodes inherit the notes of the node they came from. */
  notes: WeakMap<object, SchemaNote>
  diagnostics: Diagnostic[]
  /** Local `$ref`s being inlined, outermost first. */
  refStack: string[]
  /** Nodes left before inlining stops; keeps shared or recursive definitions from exploding. */
  budget: number
}

/** How many times one `$ref` may be inlined inside itself before it becomes a loose typed schema. */
export const RECURSION_BOUND = 2
/** Nesting beyond this is widened instead of walked. */
export const MAX_DEPTH = 64
/** Nodes a single flatten may produce by inlining. */
export const NODE_BUDGET = 200_000

export function report(ctx: FlattenContext, code: DiagnosticCode, severity: Severity, path: JsonPointer, message: string): void {
  ctx.diagnostics.push({ code, severity, path, message })
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
