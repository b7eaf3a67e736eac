// Generated schemas for property tests: a description (`Spec`) from which both a zod schema and
// values of its shape are built. Variants collide on purpose (a small key pool).
import fc from 'fast-check'
import { z } from 'zod'

export const RUNS = Number(process.env.FLATMCP_PROPERTY_RUNS ?? 1000)
export const SEED = process.env.FLATMCP_PROPERTY_SEED ? Number(process.env.FLATMCP_PROPERTY_SEED) : undefined
const VALUES_PER_SCHEMA = 8

/** A schema description from which both the zod schema and its values are built. */
export type Spec =
  | { t: 'string', min?: number, max?: number, trim?: boolean, refine?: boolean, transform?: boolean }
  | { t: 'number', int: boolean, min?: number, max?: number, coerce?: boolean, catch?: boolean }
  | { t: 'boolean' }
  | { t: 'literal', value: string | number | boolean }
  | { t: 'enum', values: string[] }
  | { t: 'object', fields: Field[], strict: boolean }
  | { t: 'array', item: Spec, min: number }
  | { t: 'record', value: Spec }
  | { t: 'tuple', items: Spec[] }
  | { t: 'nullable', inner: Spec }
  | { t: 'union', options: Spec[] }
  | { t: 'du', key: string, variants: { values: string[], fields: Field[], strict: boolean }[] }

export interface Field { key: string, spec: Spec, optional: boolean, default?: boolean }

// A small key pool makes variants collide on purpose.
const KEYS = ['a', 'b', 'media', 'id', 'x']
const TAGS = ['p', 'q', 'r', 's', 't', 'u']

const leaf: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({ t: fc.constant('string' as const), min: fc.option(fc.nat(3), { nil: undefined }), max: fc.option(fc.integer({ min: 3, max: 8 }), { nil: undefined }), trim: fc.boolean(), refine: fc.boolean(), transform: fc.boolean() }),
  fc.record({ t: fc.constant('number' as const), int: fc.boolean(), min: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }), max: fc.option(fc.integer({ min: 5, max: 50 }), { nil: undefined }), coerce: fc.boolean(), catch: fc.boolean() }),
  fc.constant({ t: 'boolean' as const }),
  fc.record({ t: fc.constant('literal' as const), value: fc.oneof(fc.constantFrom('on', 'off'), fc.integer({ min: 0, max: 3 }), fc.boolean()) }),
  fc.record({ t: fc.constant('enum' as const), values: fc.uniqueArray(fc.constantFrom('red', 'green', 'blue', 'on'), { minLength: 1, maxLength: 3 }) }),
)

const { spec } = fc.letrec<{ spec: Spec, fields: Field[] }>(tie => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ t: fc.constant('object' as const), fields: tie('fields') as fc.Arbitrary<Field[]>, strict: fc.boolean() }),
    fc.record({ t: fc.constant('array' as const), item: tie('spec') as fc.Arbitrary<Spec>, min: fc.nat(2) }),
    fc.record({ t: fc.constant('record' as const), value: tie('spec') as fc.Arbitrary<Spec> }),
    fc.record({ t: fc.constant('tuple' as const), items: fc.array(tie('spec') as fc.Arbitrary<Spec>, { minLength: 1, maxLength: 3 }) }),
    fc.record({ t: fc.constant('nullable' as const), inner: tie('spec') as fc.Arbitrary<Spec> }),
    fc.record({ t: fc.constant('union' as const), options: fc.array(tie('spec') as fc.Arbitrary<Spec>, { minLength: 2, maxLength: 3 }) }),
    discriminated(tie('fields') as fc.Arbitrary<Field[]>),
  ),
  fields: fc.uniqueArray(
    fc.record({ key: fc.constantFrom(...KEYS), spec: tie('spec') as fc.Arbitrary<Spec>, optional: fc.boolean(), default: fc.boolean() }),
    { selector: f => f.key, maxLength: 4 },
  ),
}))

function discriminated(fields: fc.Arbitrary<Field[]>): fc.Arbitrary<Spec> {
  return fc.record({
    t: fc.constant('du' as const),
    key: fc.constantFrom('kind', 'type'),
    variants: fc.shuffledSubarray(TAGS, { minLength: 2, maxLength: 6 }).chain(tags => fc.tuple(
      ...splitTags(tags).map(values => fc.record({ values: fc.constant(values), fields, strict: fc.boolean() })),
    )),
  }).map(s => ({ ...s, variants: s.variants.map(v => ({ ...v, fields: v.fields.filter(f => f.key !== s.key) })) }))
}

/** Some variants take two tag values (multi-value literals and enums). */
function splitTags(tags: string[]): string[][] {
  const out: string[][] = []
  for (let i = 0; i < tags.length; i += i % 3 === 2 ? 2 : 1)
    out.push(i % 3 === 2 ? tags.slice(i, i + 2) : [tags[i]!])
  return out
}

/**
 * `typed` builds the twin that says which values the invariant covers: no `.catch()` or `z.coerce`
 * (they accept values of other types than the JSON describes; the advertised schema keeps their base
 * type by design), and strict objects (a key an object does not declare is stripped by zod, so its
 * value means nothing and the flat schema may type it as another variant declares it). Values are
 * filtered by the twin, so every value checked uses declared keys with declared types.
 */
export function toZod(s: Spec, typed = false): z.ZodType {
  const inner = (child: Spec): z.ZodType => toZod(child, typed)
  switch (s.t) {
    case 'string': {
      let out = z.string()
      if (s.trim)
        out = out.trim()
      if (s.min !== undefined)
        out = out.min(s.min)
      if (s.max !== undefined)
        out = out.max(s.max)
      let typed: z.ZodType = out
      if (s.refine)
        typed = out.refine(value => !value.includes('!'))
      if (s.transform)
        typed = typed.transform(value => value)
      return typed
    }
    case 'number': {
      let out = s.coerce && !typed ? z.coerce.number() : z.number()
      if (s.int)
        out = out.int()
      if (s.min !== undefined)
        out = out.min(s.min)
      if (s.max !== undefined)
        out = out.max(s.max)
      return s.catch && !typed ? out.catch(0) : out
    }
    case 'boolean': return z.boolean()
    case 'literal': return z.literal(s.value)
    case 'enum': return z.enum(s.values as [string, ...string[]])
    case 'object': return objectOf(s.fields, s.strict, typed)
    case 'array': return z.array(inner(s.item)).min(s.min)
    case 'record': return z.record(z.string(), inner(s.value))
    case 'tuple': return z.tuple(s.items.map(inner) as [z.ZodType, ...z.ZodType[]])
    case 'nullable': return inner(s.inner).nullable()
    case 'union': return z.union(s.options.map(inner) as [z.ZodType, z.ZodType])
    case 'du': return z.discriminatedUnion(s.key, s.variants.map(v => objectOf([{ key: s.key, spec: v.values.length === 1 ? { t: 'literal', value: v.values[0]! } : { t: 'enum', values: v.values }, optional: false }, ...v.fields], v.strict, typed)) as never)
  }
}

/** A value every leaf spec accepts (the generated bounds all admit it), for `.default()`. */
function defaultOf(s: Spec): unknown {
  switch (s.t) {
    case 'string': return 'abc'
    case 'number': return 5
    case 'boolean': return true
    case 'literal': return s.value
    case 'enum': return s.values[0]
    default: return undefined
  }
}

function objectOf(fields: Field[], strict: boolean, typed: boolean): z.ZodObject {
  const shape: Record<string, z.ZodType> = {}
  for (const f of fields) {
    const inner = toZod(f.spec, typed)
    const fallback = f.default ? defaultOf(f.spec) : undefined
    shape[f.key] = fallback !== undefined ? inner.default(fallback as never) : f.optional ? inner.optional() : inner
  }
  return strict || typed ? z.strictObject(shape) : z.object(shape)
}

const text = fc.string({ maxLength: 10, unit: fc.constantFrom('a', 'b', ' ', '!', 'Z', '1', 'é') })

/** Values shaped like the spec; the zod schema filters out the ones it rejects. */
export function valueOf(s: Spec): fc.Arbitrary<unknown> {
  switch (s.t) {
    case 'string': return text
    case 'number': return s.int ? fc.integer({ min: -10, max: 60 }) : fc.double({ min: -10, max: 60, noNaN: true, noDefaultInfinity: true })
    case 'boolean': return fc.boolean()
    case 'literal': return fc.constant(s.value)
    case 'enum': return fc.constantFrom(...s.values)
    case 'object': return objectValue(s.fields, {})
    case 'array': return fc.array(valueOf(s.item), { minLength: s.min, maxLength: s.min + 2 })
    case 'record': return fc.dictionary(fc.constantFrom(...KEYS), valueOf(s.value), { maxKeys: 3 })
    case 'tuple': return fc.tuple(...s.items.map(valueOf))
    case 'nullable': return fc.oneof(fc.constant(null), valueOf(s.inner))
    case 'union': return fc.oneof(...s.options.map(valueOf))
    case 'du': return fc.oneof(...s.variants.map(v => objectValue(v.fields, { [s.key]: fc.constantFrom(...v.values) })))
  }
}

function objectValue(fields: Field[], fixed: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const model: Record<string, fc.Arbitrary<unknown>> = { ...fixed }
  for (const f of fields)
    model[f.key] = valueOf(f.spec)
  const optional = fields.filter(f => f.optional || (f.default && defaultOf(f.spec) !== undefined)).map(f => f.key)
  return fc.record(model, { requiredKeys: Object.keys(model).filter(key => !optional.includes(key)) })
}

/** A tool input is an object: wrap whatever was generated into one (a union at the root half the time). */
export const toolSpec: fc.Arbitrary<Spec> = fc.oneof(
  discriminated(fc.uniqueArray(fc.record({ key: fc.constantFrom(...KEYS), spec, optional: fc.boolean() }), { selector: f => f.key, maxLength: 4 })),
  spec.map(inner => ({ t: 'object' as const, fields: [{ key: 'root', spec: inner, optional: false }], strict: false })),
)

export const cases = toolSpec.chain(s => fc.tuple(fc.constant(s), fc.array(valueOf(s), { minLength: VALUES_PER_SCHEMA, maxLength: VALUES_PER_SCHEMA })))

