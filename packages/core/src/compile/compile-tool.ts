import type { ClientHints } from './client-hints'
import type { Diagnostic, JsonPointer, JsonSchema, JsonSchemaObject, PresetName, ProfileName } from '../types'
import type { OriginalSchema, SchemaConverters } from '../frontend/original-schema'
import type { JsonSchemaOriginal } from '../frontend/json-schema'
import { keepDecodedNulls } from '../plan/decoded-nulls'
import { isJsonSchemaDocument } from '../frontend/json-schema'
import type { CoercionPlan } from '../plan/plan-coercion'
import type { TargetProfile } from '../profiles/apply'
import type { TargetRule } from '../profiles/rules'
import { toOriginalSchema, UnrepresentableError } from '../frontend/original-schema'
import { presetReason } from '../frontend/presets'
import { carryExamples, EXAMPLE_BOUNDS, toolExamples } from './examples'
import { flattenSchema } from './flatten-schema'
import { cutDescription, MAX_DESCRIPTION } from '../keywords'
import { tagOf } from '../flatten/hints'
import { isSchemaObject, resolvePointer, setOwn } from '../json'
import { mergeObjectPlans, planCoercion } from '../plan/plan-coercion'
import { applyTarget } from '../profiles/apply'
import { omitAbsentNulls } from '../profiles/rules'
import type { ResolvedProfile } from '../profiles/registry'
import { resolveTarget } from '../profiles/registry'
import type { ArgumentsReading } from './arguments-root'
import { withoutRootConditions } from './arguments-root'
import { canonicalSchema } from './canonical'
import { withSharedDefinitions } from '../profiles/shared-definitions'
import { withLoosenedCopies } from '../profiles/loosened-copies'
import { hintsMeta } from './client-hints'
import { declaredHeaders, HEADER_KEYWORD, headerViolations, misplacedHeaders } from '../profiles/headers'

/** What the compiler reads of a tool. `@flatmcp/runtime`'s `defineTool` gives it its types. */
export interface ToolDefinition extends ClientHints {
  name: string
  title?: string
  description?: string
  annotations?: Record<string, unknown>
  /** Path-like arguments: an object schema merged beside `input`. */
  params?: unknown
  /** The tool's arguments: an object schema or a union of them. */
  input?: unknown
  /** The structured result, when the tool declares one. */
  output?: unknown
}

/** Which of a tool's schemas a diagnostic or an error points into. */
export type ToolSchemaPart = 'params' | 'input' | 'output' | 'extend'

export interface ToolDiagnostic extends Diagnostic {
  tool: string
  schema: ToolSchemaPart
}

export interface CompileOptions {
  /** A built-in profile by name, or a target profile of one's own (rules over `portable`). */
  profile?: ProfileName | TargetProfile
  /** Fields every tool shares (an object schema), merged into each tool's input like `params`. */
  extend?: { schema: unknown }
  /** Converters of schema libraries that keep them outside their schemas (the build loads them from the project). */
  converters?: SchemaConverters
  /**
   * For a tool whose schemas are JSON Schema: the parser they were generated for (pydantic, Go's
   * encoding/json, serde, .NET), or `auto` (the default) to tell it by the schema's fingerprints.
   */
  preset?: PresetName | 'auto'
  /**
   * Where the preset says the parser reads a `null` like a left-out key (pydantic's `X | None =
   * None`, Go's slices and pointers), advertise the key without `null`: the shape Gemini's routes
   * and Claude Code take. Calls with `null` are still read as before. The `gemini` profile always does.
   */
  omitAbsentNulls?: boolean
  /**
   * One example per variant of a root union, made from the original schema and kept where the
   * original parser (its Standard Schema `validate`, run synchronously) accepts it: the root's
   * `examples` in `portable`, a line of the input's description in the target profiles; `schema`:
   * made from the JSON Schema alone, no parser run (where the author's transforms and refines must
   * not run on made-up values: a server compiling at start-up). Default: true.
   */
  examples?: boolean | 'schema'
}

export interface CompiledTool {
  name: string
  title?: string
  description?: string
  inputSchema: JsonSchemaObject
  /** The output as clients take it: a root object with no root combinator (see `outputWrap`). */
  outputSchema?: JsonSchemaObject
  /**
   * Set when the output's root is not one object (an array, a scalar, a union that stays one): it is
   * advertised as `{ result: … }`, and the tool's `structuredContent` goes wrapped the same way.
   */
  outputWrap?: 'result'
  annotations?: Record<string, unknown>
  /** The hints clients read (`anthropic/alwaysLoad`, `anthropic/searchHint`), from the definition's `alwaysLoad` and `searchHint`. */
  _meta?: Record<string, unknown>
  /** The profile this tool was compiled for, unless `portable`. */
  profile?: string
  /** For a JSON Schema input: the parser preset it was read with. */
  preset?: PresetName
  /** For a strict profile: whether the tool meets its rules (when not, it is the `portable` tool). */
  strict?: boolean
  /**
   * Where the runtime may parse JSON strings back into objects and arrays (with a strict profile, also
   * which nulls mean a missing key). With `decode`, the inverse map of the profile.
   */
  coercion: CoercionPlan
  /** Places the profile advertised as JSON text: parsed back first, before `coercion`. */
  decode?: CoercionPlan
  /** The discriminator of the input when it is a union of objects: the runtime names variants by it. */
  discriminator?: string
  /** Which argument keys belong to `params` and to the shared `extend` fields; the rest is `input`. */
  slices?: { params?: string[], extend?: string[] }
  diagnostics: ToolDiagnostic[]
}

/** A tool cannot be compiled; says which tool, which of its schemas and where. */
export class CompileError extends Error {
  constructor(readonly tool: string, readonly schema: ToolSchemaPart | undefined, readonly path: JsonPointer, readonly reason: string) {
    super(`tool "${tool}"${schema ? ` ${schema}` : ''}${path ? ` at ${path}` : ''}: ${reason}`)
    this.name = 'CompileError'
  }
}

const EMPTY_OBJECT: JsonSchemaObject = { type: 'object', properties: {} }

/** A schema whose root is one object: `type: "object"` alone, with no combinator beside it. */
function isPlainObjectRoot(schema: JsonSchema): boolean {
  return isSchemaObject(schema) && schema.type === 'object' && !['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref'].some(keyword => keyword in schema)
}

/**
 * Compiles one tool: its original schemas to JSON Schema, flattened for the profile, `params` and
 * `input` merged into one object. The result is plain JSON in a fixed key order.
 */
/** The diagnostic each kind of reading of a front end is said as. */
const READING_CODES = { cut: 'generator-noise', read: 'generator-preset', default: 'default-left-out' } as const

export function compileTool(tool: ToolDefinition, options: CompileOptions = {}): CompiledTool {
  if (!tool || typeof tool.name !== 'string' || tool.name === '')
    throw new CompileError(String(tool?.name ?? '?'), undefined, '', 'a tool needs a non-empty string name')
  const diagnostics: ToolDiagnostic[] = []
  const originals: OriginalSchema[] = []
  let discriminator: string | undefined
  let presetName: PresetName | undefined
  let originalSize = 0
  // Whether an original says a shape once and uses it by `$ref` (the flattening writes it out at each use).
  let referenced = false
  const partOriginals = new Map<ToolSchemaPart, JsonSchema>()
  const target = resolveTarget(options.profile ?? 'portable')
  const flatPart = (part: ToolSchemaPart, schema: unknown): JsonSchemaObject => {
    let original
    try {
      original = toOriginalSchema(schema, part === 'output' ? 'output' : 'input', options.converters, { preset: options.preset })
    }
    catch (error) {
      if (error instanceof UnrepresentableError)
        throw new CompileError(tool.name, part, error.path, error.reason)
      throw new CompileError(tool.name, part, '', (error as Error).message)
    }
    // What the original costs, as its server or library writes it (before the generator reading).
    if (part !== 'output') {
      const text = JSON.stringify(isJsonSchemaDocument(schema) ? schema : original.schema)
      originalSize += text.length
      referenced ||= text.includes('"$ref"')
    }
    // MCP reads a tool schema without `$schema` as 2020-12; the tag only breaks draft-07 validators (VS Code's).
    delete original.schema.$schema
    const result = flattenSchema(original.schema, { profile: target.flatten, notes: original.notes, semantics: original.semantics })
    diagnostics.push(...result.diagnostics.map(d => ({ ...d, tool: tool.name, schema: part })))
    if (part !== 'output') {
      originals.push(original)
      // Kept as read (the flattening may rewrite it) only where examples are made from it.
      if (options.examples !== false)
        partOriginals.set(part, structuredClone(original.schema))
    }
    if (part === 'input')
      discriminator = rootDiscriminator(original)
    if (part === 'input' && 'preset' in original) {
      const { preset } = (original as JsonSchemaOriginal).preset
      presetName = preset.name
      diagnostics.push({ tool: tool.name, schema: part, code: 'generator-preset', severity: 'info', path: '', message: `read with the "${preset.name}" preset, for ${preset.generators}: ${presetReason((original as JsonSchemaOriginal).preset)}` })
    }
    for (const reading of (original as Partial<JsonSchemaOriginal>).readings ?? [])
      diagnostics.push({ tool: tool.name, schema: part, code: READING_CODES[reading.kind], severity: reading.kind === 'default' ? 'warning' : 'info', path: reading.path, message: reading.message })
    // An output of another root is advertised wrapped (`outputWrap`), not refused.
    return part === 'output' ? result.schema as JsonSchemaObject : objectRoot(tool.name, part, result.schema, diagnostics)
  }
  // Clients refuse a root condition (Claude Code drops the tool): one the flattening kept or folded up goes, which only widens.
  const flat = (part: ToolSchemaPart, schema: unknown): JsonSchemaObject => {
    const flattened = flatPart(part, schema)
    if (part === 'output' || !isSchemaObject(flattened))
      return flattened
    const readings: ArgumentsReading[] = []
    const plain = withoutRootConditions(flattened, readings)
    diagnostics.push(...readings.map(reading => ({ tool: tool.name, schema: part, code: 'generator-preset' as const, severity: 'info' as const, path: '', message: reading.message })))
    return readings.length === 0 ? flattened : plain
  }

  const parts: [ToolSchemaPart, JsonSchemaObject][] = []
  if (options.extend !== undefined)
    parts.push(['extend', flat('extend', options.extend.schema)])
  if (tool.params !== undefined)
    parts.push(['params', flat('params', tool.params)])
  parts.push(['input', tool.input === undefined ? EMPTY_OBJECT : flat('input', tool.input)])
  const inputSchema = parts.length === 1 ? parts[0]![1] : mergeParts(tool.name, parts)
  // The portable profile keeps every description within what clients take whole, and says when it cuts.
  const fitDescription = (text: string, what: string): string => {
    if (target.flatten !== 'portable' || text.length <= MAX_DESCRIPTION)
      return text
    diagnostics.push({ tool: tool.name, schema: 'input', code: 'description-cut', severity: 'warning', path: '', message: `${what} of ${text.length} characters cut to ${MAX_DESCRIPTION} (OpenAI rejects a longer tool description); shorten it` })
    return cutDescription(text)
  }
  const compiled: CompiledTool = { name: tool.name } as CompiledTool
  if (tool.title !== undefined)
    compiled.title = tool.title
  if (tool.description !== undefined)
    compiled.description = fitDescription(tool.description, 'the tool description')
  if (typeof inputSchema.description === 'string')
    inputSchema.description = fitDescription(inputSchema.description, 'the merged input description')
  // Only where every part's parser reads a `null` like a left-out key may a strict profile say so plainly.
  const nullModes = new Set(originals.map(original => original.semantics.nullAsAbsent))
  const nullAsAbsent = nullModes.size === 1 ? [...nullModes][0]! : 'never'
  const profile = options.omitAbsentNulls ? withRules(target.profile, [omitAbsentNulls]) : target.profile
  // Where any part's parser keeps unknown keys, an object that says nothing of them is open.
  const unknownKeys = originals.some(original => original.semantics.unknownKeys === 'keep') ? 'keep' : 'strip'
  // A validator as the parser (the json-schema preset) reads a format as an annotation unless told otherwise.
  const formats = originals.some(original => original.semantics.trustedFormats === 'all') ? 'annotation' : 'asserted'
  const targeted = profile ? applyTarget(inputSchema, profile, { nullAsAbsent, unknownKeys, formats }) : undefined
  if (targeted)
    diagnostics.push(...targeted.diagnostics.map(d => ({ ...d, tool: tool.name, schema: 'input' as const })))
  compiled.inputSchema = canonicalSchema(targeted?.schema ?? inputSchema) as JsonSchemaObject
  // A target profile keeps only the keywords its target takes, so the header rule is the flattening's.
  if (!target.profile)
    diagnostics.push(...checkHeaders(tool.name, originals, compiled.inputSchema))
  if (tool.output !== undefined) {
    // Clients take a root object only (the SDK 2.x rewrites any other for 2025 clients, its results not always).
    const output = canonicalSchema(flat('output', tool.output)) as JsonSchemaObject
    if (isPlainObjectRoot(output)) {
      compiled.outputSchema = output
    }
    else {
      // Definitions stay at the document's root, where its `$ref`s point.
      const { $defs, definitions, ...root } = isSchemaObject(output) ? output : { $defs: undefined, definitions: undefined }
      const result = isSchemaObject(output) ? root : output
      compiled.outputSchema = { type: 'object', properties: { result }, required: ['result'], ...($defs === undefined ? {} : { $defs }), ...(definitions === undefined ? {} : { definitions }) } as JsonSchemaObject
      compiled.outputWrap = 'result'
    }
  }
  if (options.examples !== false) {
    const sources = parts.map(([part]) => ({ part, schema: partOriginals.get(part), parser: part === 'extend' ? options.extend!.schema : tool[part as 'params' | 'input'] }))
    const { examples, overBudget } = toolExamples(sources, options.examples === 'schema' ? 'schema' : 'parser')
    if (examples.length > 0)
      compiled.inputSchema = carryExamples(compiled.inputSchema, examples, target.profile ? { decode: targeted?.decode, strict: targeted?.strict === true } : undefined)
    if (overBudget > 0)
      diagnostics.push({ tool: tool.name, schema: 'input', code: 'example-too-large', severity: 'warning', path: '', message: `${overBudget} variant${overBudget === 1 ? '' : 's'} of the input got no example: the simplest value each takes is over ${EXAMPLE_BOUNDS.bytes} bytes (or ${EXAMPLE_BOUNDS.visits} schemas to visit)` })
  }
  compiled.inputSchema = boundedCopies(compiled.inputSchema, target, targeted?.strict, referenced ? originalSize : 0, tool.name, diagnostics)
  if (tool.annotations !== undefined)
    compiled.annotations = tool.annotations
  // From the flat schema before any target's rewrites: every profile lists the same hints.
  const meta = hintsMeta(tool, tool.name, tool.description, inputSchema)
  if (meta !== undefined)
    compiled._meta = meta
  if (target.profile)
    compiled.profile = target.profile.name
  if (presetName !== undefined)
    compiled.preset = presetName
  if (targeted?.strict !== undefined)
    compiled.strict = targeted.strict
  const plans = originals.map(original => planCoercion(original.schema, { notes: original.notes, nullsMeanAbsent: targeted?.nullsMeanAbsent }))
  compiled.coercion = plans.length === 1 ? plans[0]! : mergeObjectPlans(plans)
  if (targeted?.decode) {
    compiled.decode = targeted.decode
    compiled.coercion = keepDecodedNulls(compiled.coercion, targeted.decode)
  }
  if (discriminator !== undefined)
    compiled.discriminator = discriminator
  const slices = Object.fromEntries(parts.filter(([part]) => part !== 'input').map(([part, schema]) => [part, Object.keys(schema.properties ?? {})]))
  if (Object.keys(slices).length > 0)
    compiled.slices = slices
  const grown = largerThanOriginal(compiled.inputSchema, originalSize, compiled.profile ?? target.flatten, compiled.strict === true)
  if (grown)
    diagnostics.push({ tool: tool.name, schema: 'input', code: 'larger-than-original', severity: 'info', path: '', message: grown })
  compiled.diagnostics = diagnostics
  return compiled
}

/**
 * What the flattening wrote out more than once, bounded: said once in `$defs` where the profile's
 * clients read them, else (`portable`) loosened past its first place while the schema is larger than the original.
 */
function boundedCopies(schema: JsonSchemaObject, target: ResolvedProfile, strict: boolean | undefined, originalSize: number, tool: string, diagnostics: ToolDiagnostic[]): JsonSchemaObject {
  const bounded = boundedSchema(schema, target, strict, originalSize, tool, diagnostics)
  if (bounded === schema)
    return schema
  // A place now behind a `$ref` or inside a loosened copy is named by the nearest one still there.
  for (const diagnostic of diagnostics) {
    if (diagnostic.schema === 'output' || diagnostic.flatPath === undefined || resolvePointer(schema, diagnostic.flatPath) === undefined)
      continue
    while (diagnostic.flatPath !== '' && resolvePointer(bounded, diagnostic.flatPath) === undefined)
      diagnostic.flatPath = diagnostic.flatPath.slice(0, diagnostic.flatPath.lastIndexOf('/'))
  }
  return bounded
}

function boundedSchema(schema: JsonSchemaObject, target: ResolvedProfile, strict: boolean | undefined, originalSize: number, tool: string, diagnostics: ToolDiagnostic[]): JsonSchemaObject {
  if (target.profile?.definitions === 'shared' && strict === true)
    return withSharedDefinitions(schema)
  // What is served as `portable`: that profile, or a strict one's fallback.
  const portable = target.profile ? strict === false : target.flatten === 'portable'
  if (!portable || originalSize === 0)
    return schema
  const { schema: bounded, kept } = withLoosenedCopies(schema, originalSize)
  if (kept.length > 0)
    diagnostics.push({ tool, schema: 'input', code: 'size-limit', severity: 'info', path: '', message: `inlining the original's $refs made the schema larger than the original; ${kept.length === 1 ? 'a shape' : `${kept.length} shapes`} written out more than once ${kept.length === 1 ? 'keeps its' : 'keep their'} keys at the first place only (${kept.slice(0, 3).map(at => `\`${at}\``).join(', ')}${kept.length > 3 ? ', …' : ''}), and the other copies say where` })
  return bounded
}

/**
 * The header rule (`x-mcp-header`) on the advertised input: each place the originals declare a
 * header must stay primitive and reachable through `properties`; where it does not, the annotation
 * is dropped (a client would drop the whole tool) and the place is an error.
 */
function checkHeaders(tool: string, originals: OriginalSchema[], advertised: JsonSchemaObject): ToolDiagnostic[] {
  const declared = new Map(originals.flatMap(original => [...declaredHeaders(original.schema)]))
  const lost = declared.size > 0 ? headerViolations(declared, advertised) : []
  const placed = new Set(lost.map(([path]) => path))
  const misplaced = misplacedHeaders(advertised).filter(([path]) => !placed.has(path)).map(([path, rule]): [JsonPointer, string] => [path, `${rule} (a client would drop the tool)`])
  return [...lost, ...misplaced].map(([path, message]) => {
    const node = resolvePointer(advertised, path)
    if (isSchemaObject(node))
      delete node[HEADER_KEYWORD]
    return { tool, schema: 'input', code: 'header-lost', severity: 'error', path, flatPath: path, message: `${message}; declare it with the same primitive type in every variant, or leave the header out (the annotation is dropped)` }
  })
}

/** The discriminator of a root union of objects, as declared or as found. */
function rootDiscriminator(original: OriginalSchema): string | undefined {
  const branches = [original.schema.anyOf, original.schema.oneOf].find(Array.isArray)
  if (!branches || !branches.every(isSchemaObject))
    return undefined
  return tagOf(branches, original.notes['']?.discriminator)?.key
}

/**
 * Why an advertised schema is larger than its original, in JSON characters, by what it spells out
 * that the original did not: undefined when it is not larger.
 */
function largerThanOriginal(advertised: JsonSchemaObject, originalSize: number, profile: string, strict: boolean): string | undefined {
  const size = JSON.stringify(advertised).length
  if (originalSize === 0 || size <= originalSize)
    return undefined
  const counts = { any: 0, wrapped: 0, hints: 0, text: 0, classes: 0 }
  const visit = (node: unknown): void => {
    if (Array.isArray(node))
      return node.forEach(visit)
    if (!isSchemaObject(node))
      return
    // The typed "any" shape nests itself in `items`: one place.
    if (Array.isArray(node.type) && node.type.length >= 6) {
      counts.any++
      return
    }
    const description = typeof node.description === 'string' ? node.description : ''
    if (description.includes('{"value": ...}'))
      counts.wrapped++
    if (/Only for |Required when /.test(description))
      counts.hints++
    if (description.includes('Send as JSON text'))
      counts.text++
    if (typeof node.pattern === 'string' && node.pattern.includes('\\p{'))
      counts.classes++
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword !== 'enum' && keyword !== 'const' && keyword !== 'default' && keyword !== 'examples')
        visit(child)
    }
  }
  visit(advertised)
  const reasons = [
    counts.any > 0 && `"any value" spelled as a typed shape at ${counts.any} place${counts.any === 1 ? '' : 's'} (clients send an untyped value as JSON text)`,
    counts.wrapped > 0 && `${counts.wrapped} optional key${counts.wrapped === 1 ? '' : 's'} that take${counts.wrapped === 1 ? 's' : ''} null wrapped as {"value": ...} (a strict model must tell null from a left-out key)`,
    counts.text > 0 && `${counts.text} place${counts.text === 1 ? '' : 's'} advertised as JSON text with a note saying so`,
    counts.hints > 0 && `per-variant hints on ${counts.hints} key${counts.hints === 1 ? '' : 's'} a union merged`,
    counts.classes > 0 && `${counts.classes} pattern${counts.classes === 1 ? '' : 's'} whose escapes are spelled out as the parser's regex engine reads them`,
    strict && 'every key required and every object closed, as strict mode wants',
  ].filter((reason): reason is string => typeof reason === 'string')
  return `the ${profile} schema is ${Math.round((size / originalSize - 1) * 100)}% larger than the original (${originalSize} → ${size} characters of JSON): ${reasons.length > 0 ? reasons.join('; ') : 'the shape the profile needs'}`
}

/** A profile with rules run before its own (a `portable` one when there is none). */
function withRules(profile: TargetProfile | undefined, rules: TargetRule[]): TargetProfile {
  return profile ? { ...profile, rules: [...rules, ...profile.rules] } : { name: 'portable', rules }
}

/** MCP wants `type: "object"` at the root; anything else is reported (and kept, since it is sound). */
function objectRoot(tool: string, part: ToolSchemaPart, schema: JsonSchema, diagnostics: ToolDiagnostic[]): JsonSchemaObject {
  if (isSchemaObject(schema) && schema.type === 'object')
    return schema
  diagnostics.push({ tool, schema: part, code: 'root-not-object', severity: 'error', path: '', message: `MCP needs an object schema at the root of a tool's ${part}; this one is ${JSON.stringify(isSchemaObject(schema) ? schema.type ?? 'untyped' : schema)}: ${rootFix(schema)}` })
  return isSchemaObject(schema) ? schema : { type: 'object' }
}

/** What to write instead of a root that is not one object. */
function rootFix(schema: JsonSchema): string {
  const types = isSchemaObject(schema) ? [schema.type ?? []].flat() : []
  if (types.length === 0 || types.length >= 6)
    return 'it takes any value. Give an object schema, z.object({ text: z.string() }): a plain object of schemas ({ text: z.string() }) is not one, wrap it in z.object'
  if (types.includes('object'))
    return `a union with ${types.filter(type => type !== 'object').map(type => JSON.stringify(type)).join(', ')} beside the object. Make every branch an object (z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), … }), …])), or put the value under a key, z.object({ value: … })`
  return `put it under a key, z.object({ value: … })`
}

/** Shared fields, `params` and `input` side by side in one object; a key declared twice is an error. */
function mergeParts(tool: string, parts: [ToolSchemaPart, JsonSchemaObject][]): JsonSchemaObject {
  const out: JsonSchemaObject = { type: 'object' }
  const properties: Record<string, JsonSchema> = {}
  const owner = new Map<string, ToolSchemaPart>()
  const required: string[] = []
  const descriptions: string[] = []
  for (const [part, schema] of parts) {
    for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      const first = owner.get(key)
      if (first !== undefined) {
        const fix = first === 'extend' ? 'rename the tool\'s key or the shared field' : 'rename one of them'
        throw new CompileError(tool, part, `/properties/${key}`, `key "${key}" is declared in both ${first === 'extend' ? 'the shared extend fields' : first} and ${part}; ${fix}`)
      }
      owner.set(key, part)
      setOwn(properties, key, property)
    }
    required.push(...(schema.required as string[] | undefined ?? []))
    if (typeof schema.description === 'string' && part !== 'extend')
      descriptions.push(schema.description)
  }
  if (descriptions.length > 0)
    out.description = descriptions.join(' ')
  out.properties = properties
  if (required.length > 0)
    out.required = required
  if (parts.every(([, schema]) => schema.additionalProperties === false))
    out.additionalProperties = false
  return out
}

/**
 * A tool compiled in its base profile (`options.profile`, default `portable`) and in each of
 * `profiles` besides it, base first: what a build precomputes and a proxy serves, as
 * `toPrecomputed(base, others)` of the runtime takes them.
 */
export function compileInProfiles(tool: ToolDefinition, profiles: readonly (ProfileName | TargetProfile)[], options: CompileOptions = {}): [CompiledTool, ...CompiledTool[]] {
  const nameOf = (profile: ProfileName | TargetProfile): string => typeof profile === 'string' ? profile : profile.name
  const base = nameOf(options.profile ?? 'portable')
  const others = profiles.filter((profile, i) => nameOf(profile) !== base && profiles.findIndex(other => nameOf(other) === nameOf(profile)) === i)
  return [compileTool(tool, options), ...others.map(profile => compileTool(tool, { ...options, profile }))]
}
