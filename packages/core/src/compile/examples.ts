// Examples that give back what flattening removes: a flat schema no longer says which keys go
// together, so each variant of a root union gets one small value the original accepts (its required
// keys only, each the simplest value its schema takes), made from the original JSON Schema and kept
// only where the original parser accepts it. Deterministic: the same schema gives the same examples.
// Bounded: a value is built within a budget of visits and bytes (a schema of large `minItems` and
// `minLength`, nested, gets no example instead of gigabytes), and only the first variants are tried.
import type { CoercionPlan } from '../plan/plan-coercion'
import type { JsonSchema, JsonSchemaObject } from '../types'
import { isSchemaObject, resolvePointer, withoutKeyword } from '../json'
import { modelAnswer } from '../profiles/model-answer'

/** How deep a value is built, and how many `$ref`s are followed in one: a recursive schema's example stops short. */
const MAX_DEPTH = 8

/** What one example may cost: schemas visited, and bytes of value (past either, the variant gets none). */
export const EXAMPLE_BOUNDS = { visits: 2000, bytes: 4096, variants: 64 } as const

/** What is left of one example's budget as it is built. */
interface Budget { visits: number, bytes: number, over: boolean }

const budget = (): Budget => ({ visits: EXAMPLE_BOUNDS.visits, bytes: EXAMPLE_BOUNDS.bytes, over: false })

/** Spends `bytes` (and one visit) of the budget; false once it is spent, said on it. */
function spend(left: Budget, bytes: number): boolean {
  left.visits--
  left.bytes -= bytes
  if (left.visits < 0 || left.bytes < 0)
    left.over = true
  return !left.over
}

/** Values for string formats a parser checks (zod's, ajv-formats'): each the plainest one. */
const FORMAT_VALUES: Record<string, string> = {
  'email': 'user@example.com',
  'uri': 'https://example.com',
  'url': 'https://example.com',
  'uri-reference': 'https://example.com',
  'iri': 'https://example.com',
  'hostname': 'example.com',
  'idn-hostname': 'example.com',
  'ipv4': '192.0.2.1',
  'ipv6': '2001:db8::1',
  'uuid': '00000000-0000-4000-8000-000000000000',
  'date-time': '2026-01-01T00:00:00Z',
  'date': '2026-01-01',
  'time': '00:00:00Z',
  'duration': 'P1D',
}

/** No value can be made (a pattern, `not`, a bound no simple value meets): the variant gets no example. */
const NONE = Symbol('none')
type Made = unknown | typeof NONE

/** The simplest value a schema takes, or NONE (also where it would cost more than what is `left`). */
function simplest(schema: JsonSchema, root: unknown, depth: number, left: Budget): Made {
  if (!spend(left, 1))
    return NONE
  if (schema === true)
    return null
  if (!isSchemaObject(schema) || depth > MAX_DEPTH)
    return NONE
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref.startsWith('#') ? resolvePointer(root, decodeURIComponent(schema.$ref.slice(1))) : undefined
    return target === undefined ? NONE : simplest(target as JsonSchema, root, depth + 1, left)
  }
  if ('const' in schema)
    return schema.const
  if (Array.isArray(schema.enum))
    return schema.enum.length > 0 ? schema.enum[0] : NONE
  if (Array.isArray(schema.examples) && schema.examples.length > 0)
    return schema.examples[0]
  if ('default' in schema)
    return schema.default
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword]
    if (Array.isArray(branches)) {
      for (const branch of branches) {
        const made = simplest({ ...withoutKeyword(schema, keyword), ...(branch as object) } as JsonSchema, root, depth + 1, left)
        if (made !== NONE)
          return made
      }
      return NONE
    }
  }
  if (Array.isArray(schema.allOf)) {
    const merged = schema.allOf.reduce<Record<string, unknown>>((all, part) => isSchemaObject(part) ? mergeShapes(all, part) : all, withoutKeyword(schema, 'allOf'))
    return simplest(merged as JsonSchema, root, depth + 1, left)
  }
  if ('not' in schema || 'if' in schema || typeof schema.pattern === 'string')
    return NONE
  const types = [schema.type ?? kindFromKeywords(schema)].flat().filter(type => type !== undefined && type !== 'null') as string[]
  const type = types[0] ?? ([schema.type].flat().includes('null') ? 'null' : undefined)
  switch (type) {
    case 'object': return simplestObject(schema, root, depth, left)
    case 'array': return simplestArray(schema, root, depth, left)
    case 'string': {
      if (typeof schema.format === 'string')
        return FORMAT_VALUES[schema.format] ?? NONE
      const length = Math.max(typeof schema.minLength === 'number' ? schema.minLength : 0, 1)
      return spend(left, length) ? 'a'.repeat(length) : NONE
    }
    case 'integer':
    case 'number': return simplestNumber(schema, type === 'integer')
    case 'boolean': return false
    case 'null': return null
    default: return NONE
  }
}

/** Two schemas' object keywords as one: properties side by side, required keys joined. */
function mergeShapes(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  return {
    ...a,
    ...b,
    properties: { ...(a.properties as object), ...(b.properties as object) },
    required: [...new Set([...(Array.isArray(a.required) ? a.required : []), ...(Array.isArray(b.required) ? b.required : [])])],
  }
}

function kindFromKeywords(schema: Record<string, unknown>): string | undefined {
  if ('properties' in schema || 'required' in schema)
    return 'object'
  if ('items' in schema || 'prefixItems' in schema)
    return 'array'
  return undefined
}

/** The shortest array a schema takes: its `minItems`, each item the simplest (none past the budget, before any is made). */
function simplestArray(schema: Record<string, unknown>, root: unknown, depth: number, left: Budget): Made {
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0
  if (min === 0)
    return []
  if (!spend(left, min))
    return NONE
  const items = Array.isArray(schema.prefixItems) ? schema.prefixItems : []
  const made: unknown[] = []
  for (let i = 0; i < min; i++) {
    const item = simplest((items[i] ?? schema.items ?? true) as JsonSchema, root, depth + 1, left)
    if (item === NONE)
      return NONE
    made.push(item)
  }
  return made
}

function simplestObject(schema: Record<string, unknown>, root: unknown, depth: number, left: Budget): Made {
  const properties = (isSchemaObject(schema.properties) ? schema.properties : {}) as Record<string, JsonSchema>
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : []
  const out: Record<string, unknown> = {}
  for (const key of required) {
    const made = simplest(properties[key] ?? (isSchemaObject(schema.additionalProperties) ? schema.additionalProperties : true), root, depth + 1, left)
    if (made === NONE)
      return NONE
    Object.defineProperty(out, key, { value: made, enumerable: true, writable: true, configurable: true })
  }
  const min = typeof schema.minProperties === 'number' ? schema.minProperties : 0
  return Object.keys(out).length >= min ? out : NONE
}

function simplestNumber(schema: Record<string, unknown>, integer: boolean): Made {
  const num = (key: string): number | undefined => typeof schema[key] === 'number' ? schema[key] as number : undefined
  const step = num('multipleOf') ?? (integer ? 1 : undefined)
  let low = num('minimum') ?? (num('exclusiveMinimum') !== undefined ? num('exclusiveMinimum')! + (step ?? 1) : undefined)
  const high = num('maximum') ?? (num('exclusiveMaximum') !== undefined ? num('exclusiveMaximum')! - (step ?? 1) : undefined)
  let value = low !== undefined && low > 0 ? low : high !== undefined && high < 0 ? high : 0
  if (step !== undefined && value % step !== 0) {
    low = Math.ceil(value / step) * step
    value = low
  }
  return (high === undefined || value <= high) && Number.isFinite(value) ? value : NONE
}

/** The branches of a root union of objects, each with the root's other keywords beside it (a shared `properties`, `$defs`). */
function rootVariants(schema: JsonSchema): JsonSchema[] {
  if (!isSchemaObject(schema))
    return []
  const keyword = Array.isArray(schema.oneOf) ? 'oneOf' : Array.isArray(schema.anyOf) ? 'anyOf' : undefined
  if (!keyword)
    return []
  const rest = withoutKeyword(schema, keyword)
  return (schema[keyword] as JsonSchema[]).map(branch => isSchemaObject(branch) ? mergeShapes(rest, branch) as JsonSchema : branch)
}

/** A tool's examples, and how many variants got none because their simplest value is over the budget. */
export interface Examples { examples: Record<string, unknown>[], overBudget: number }

/**
 * One example per variant of a root union of objects (none for a schema that is no such union), each
 * the simplest value of that variant: only variants a value could be made for within the budget, and
 * that `accepts` (the original parser) takes; the first `EXAMPLE_BOUNDS.variants` variants, and no
 * more once the examples fill what a tool lists. Two variants with the same example give one.
 */
export function variantExamples(schema: JsonSchema, accepts: (value: unknown) => boolean): Examples {
  const examples: Record<string, unknown>[] = []
  const seen = new Set<string>()
  let overBudget = 0
  let size = 0
  for (const variant of rootVariants(schema).slice(0, EXAMPLE_BOUNDS.variants)) {
    const left = budget()
    const made = simplest(variant, schema, 0, left)
    overBudget += left.over ? 1 : 0
    if (made === NONE || typeof made !== 'object' || made === null || Array.isArray(made))
      continue
    const text = JSON.stringify(made)
    if (seen.has(text) || !accepts(made))
      continue
    seen.add(text)
    examples.push(made as Record<string, unknown>)
    size += text.length
    if (size > EXAMPLES_BUDGET)
      break
  }
  return { examples, overBudget }
}

/** The JSON text the examples of one tool may take together: a union of many variants shows its first ones. */
const EXAMPLES_BUDGET = 1000

/** Whether a Standard Schema's parser accepts a value, run synchronously; no parser, or one that answers later, accepts nothing. */
function parserAccepts(schema: unknown): (value: unknown) => boolean {
  const validate = (schema as { '~standard'?: { validate?: (value: unknown) => unknown } } | null)?.['~standard']?.validate
  return (value) => {
    if (typeof validate !== 'function')
      return false
    try {
      const result = validate(structuredClone(value)) as { issues?: unknown } | Promise<unknown>
      return !(result instanceof Promise) && result.issues === undefined
    }
    catch {
      return false
    }
  }
}

/** One part of a tool's arguments: its original JSON Schema and the schema the author wrote (whose parser checks). */
export interface ExampleSource {
  part: string
  schema: JsonSchema | undefined
  parser: unknown
}

/**
 * A tool's examples: one per variant of its input's root union, with the simplest value of each other
 * part (`params`, shared fields) beside it; every part's own parser accepts its share, or there are
 * none. `check: 'schema'` never runs a parser (the author's transforms and refines): the values are
 * made from the JSON Schema alone, and taken as it makes them.
 */
export function toolExamples(sources: readonly ExampleSource[], check: 'parser' | 'schema' = 'parser'): Examples {
  const input = sources.find(source => source.part === 'input')
  if (!input?.schema)
    return { examples: [], overBudget: 0 }
  const accepts = (parser: unknown): ((value: unknown) => boolean) => check === 'schema' ? () => true : parserAccepts(parser)
  const made = variantExamples(input.schema, accepts(input.parser))
  if (made.examples.length === 0)
    return made
  let shared: Record<string, unknown> = {}
  for (const source of sources.filter(source => source.part !== 'input')) {
    const part = source.schema === undefined ? NONE : simplest(source.schema, source.schema, 0, budget())
    if (part === NONE || typeof part !== 'object' || part === null || !accepts(source.parser)(part))
      return { examples: [], overBudget: made.overBudget }
    shared = { ...shared, ...part }
  }
  return { examples: made.examples.map(example => ({ ...shared, ...example })), overBudget: made.overBudget }
}

/**
 * The advertised input with its examples, as the profile carries them: `examples` at the root (the
 * portable form), or, for a target profile (`form`), a line of the root's description with each
 * example as that profile's model writes it (JSON text where it takes JSON text, nulls for keys left out).
 */
export function carryExamples(inputSchema: JsonSchemaObject, examples: readonly Record<string, unknown>[], form?: { decode: CoercionPlan | undefined, strict: boolean }): JsonSchemaObject {
  const written = examples.map(example => form ? modelAnswer(inputSchema, form.decode, example, { nullsForMissing: form.strict }) : example)
  const kept: unknown[] = []
  let size = 0
  for (const example of written) {
    size += JSON.stringify(example).length
    if (kept.length > 0 && size > EXAMPLES_BUDGET)
      break
    kept.push(example)
  }
  if (!form)
    return { ...inputSchema, examples: kept }
  // One example a line, each one JSON text: what a reader (or a model) takes apart plainly.
  const line = ['Examples:', ...kept.map(example => JSON.stringify(example))].join('\n')
  return { ...inputSchema, description: typeof inputSchema.description === 'string' ? `${inputSchema.description}\n\n${line}` : line }
}
