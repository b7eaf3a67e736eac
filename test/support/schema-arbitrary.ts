// Generated schemas for property tests: a description (`Spec`) from which both a zod schema and
// values of its shape are built. Variants collide on purpose (a small key pool).
import fc from 'fast-check'
import { z } from 'zod'

export const RUNS = Number(process.env.FLATMCP_PROPERTY_RUNS ?? 1000)
export const SEED = process.env.FLATMCP_PROPERTY_SEED ? Number(process.env.FLATMCP_PROPERTY_SEED) : undefined
const VALUES_PER_SCHEMA = 8

/** A schema description from which both the zod schema and its values are built. */
export type Spec =
  | { t: 'string', min?: number, max?: number, trim?: boolean, refine?: boolean, transform?: boolean, regex?: number }
  | { t: 'format', format: number }
  | { t: 'number', int: boolean, min?: number, max?: number, coerce?: boolean, catch?: boolean, multipleOf?: number }
  | { t: 'boolean' }
  | { t: 'literal', value: string | number | boolean }
  | { t: 'enum', values: string[] }
  | { t: 'literals', values: (string | number | boolean | null)[] }
  | { t: 'null' }
  | { t: 'unknown', how: 'unknown' | 'any' | 'json' }
  | { t: 'template' }
  | { t: 'stringbool' }
  | { t: 'object', fields: Field[], strict: boolean, extra?: 'loose' | Spec }
  | { t: 'intersection', left: Field[], right: Field[] }
  | { t: 'array', item: Spec, min: number }
  | { t: 'record', value: Spec, keys?: 'enum' | 'partial' | 'pattern' }
  | { t: 'tuple', items: Spec[], rest?: Spec }
  | { t: 'nullable', inner: Spec }
  | { t: 'wrap', how: Wrapper, inner: Spec }
  | { t: 'tree', leaf: Spec, via?: 'array' | 'union' }
  | { t: 'union', options: Spec[] }
  | { t: 'du', key: string, variants: { values: string[], fields: Field[], strict: boolean, extra?: 'loose' | Spec }[] }

/** Wrappers that leave what a schema accepts as it is. */
export type Wrapper = 'readonly' | 'brand' | 'lazy' | 'nonoptional' | 'success'

export interface Field { key: string, spec: Spec, optional: boolean, default?: 'default' | 'prefault', described?: boolean }

// A small key pool makes variants collide on purpose; `%41` and `A` catch a pointer decoded as a
// URI, `~0` and `c/d` one escaped wrongly.
const KEYS = ['a', 'b', 'media', 'id', 'x', '%41', 'A', '~0', 'c/d', 'constructor', 'toString']
/** Keys no generated object declares: what untyped members and open objects carry besides. */
const UNDECLARED = ['zz', 'q%', 'constructor']
const TAGS = ['p', 'q', 'r', 's', 't', 'u']
const RECORD_KEYS = ['a', 'id'] as const

/**
 * Patterns whose flags or legacy-mode reading validators do not share, each with strings that
 * match it (the zod twin filters them); the text generator adds strings around them.
 */
export const REGEXES: { regex: RegExp, samples: string[] }[] = [
  { regex: /^[a-z]+$/i, samples: ['ABC', 'aBé', 'Zz'] },
  { regex: /^ok$/m, samples: ['x\nok', 'ok\n!', 'ok'] },
  { regex: /^a.b/s, samples: ['a\nb', 'a!bx'] },
  { regex: /^.{2,4}$/, samples: ['😀', '😀😀', 'ab'] },
  { regex: /^[^!]+$/, samples: ['😀 a', 'é'] },
  { regex: /^(?:caf\u00E9|\w+)$/i, samples: ['CAFÉ', 'Café', 'a1'] },
  { regex: /^\p{L}+$/u, samples: ['é', 'abc'] },
  { regex: new RegExp('a\\-b|\\d{2,}'), samples: ['a-b', '12'] },
  { regex: /[\s\S]{2}$/, samples: ['😀', 'a\n'] },
]

/** zod formats with edge values zod accepts and format-asserting validators may not. */
export const FORMATS: { make: () => z.ZodType, samples: string[] }[] = [
  { make: () => z.email(), samples: ['a@b-.com', `a@${'x'.repeat(64)}.com`, 'o.k@b.io'] },
  { make: () => z.email({ pattern: z.regexes.unicodeEmail }), samples: ['josé@exämple.com', 'a😀@b.c'] },
  { make: () => z.ipv6(), samples: ['::ffff:192.168.0.1', '1::2:3:4.5.6.7', '::'] },
  { make: () => z.cidrv6(), samples: ['::ffff:192.168.0.0/96', '::/0'] },
  { make: () => z.iso.duration(), samples: ['PT1.5S', 'PT0,5S', 'P1W'] },
  { make: () => z.hostname(), samples: ['localhost.', 'a-b.c'] },
  { make: () => z.iso.datetime({ offset: true, local: true }), samples: ['2020-01-01T00:00:00+01:00', '2020-01-01T00:00', '2020-02-29T23:59:59.123456789Z'] },
  { make: () => z.iso.time(), samples: ['00:00', '23:59:59.5'] },
  { make: () => z.url(), samples: ['https://ex.com/ü', 'a:', 'http://a/%zz'] },
  { make: () => z.uuid(), samples: ['00000000-0000-0000-0000-000000000000', '123E4567-E89B-42D3-A456-426614174000'] },
  // The method forms: zod builds them otherwise (the format is a check of a plain string).
  { make: () => z.string().ipv6(), samples: ['::ffff:192.168.0.1', '::FFFF:1.2.3.4'] },
  { make: () => z.string().cidrv6(), samples: ['::ffff:192.168.0.0/96'] },
  { make: () => z.string().uuid(), samples: ['ffffffff-ffff-ffff-ffff-ffffffffffff', '123E4567-E89B-42D3-A456-426614174000'] },
  { make: () => z.string().email(), samples: ['a@b-.com', 'o.k@b.io'] },
  { make: () => z.string().datetime({ offset: true }), samples: ['2020-01-01T00:00:00+01:00', '2020-02-29T23:59:59.5Z'] },
  { make: () => z.string().duration(), samples: ['PT1.5S', 'P1W'] },
  { make: () => z.string().includes('x', { position: 2 }), samples: ['x\nx', 'abx'] },
  { make: () => z.templateLiteral([z.string().min(2).max(3), '.', z.number()]), samples: ['😀.1', 'ab.2'] },
]

/** multipleOf steps where validators' floating-point division and zod's remainder check part. */
const STEPS = [0.01, 0.1, 1e-7, 5]

const leaf: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({ t: fc.constant('string' as const), min: fc.option(fc.nat(3), { nil: undefined }), max: fc.option(fc.integer({ min: 3, max: 8 }), { nil: undefined }), trim: fc.boolean(), refine: fc.boolean(), transform: fc.boolean(), regex: fc.option(fc.nat(REGEXES.length - 1), { nil: undefined, freq: 2 }) }),
  fc.record({ t: fc.constant('format' as const), format: fc.nat(FORMATS.length - 1) }),
  fc.record({ t: fc.constant('number' as const), int: fc.boolean(), min: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }), max: fc.option(fc.integer({ min: 5, max: 50 }), { nil: undefined }), coerce: fc.boolean(), catch: fc.boolean(), multipleOf: fc.option(fc.constantFrom(...STEPS), { nil: undefined, freq: 3 }) }),
  fc.constant({ t: 'boolean' as const }),
  fc.record({ t: fc.constant('literal' as const), value: fc.oneof(fc.constantFrom('on', 'off'), fc.integer({ min: 0, max: 3 }), fc.boolean()) }),
  fc.record({ t: fc.constant('enum' as const), values: fc.uniqueArray(fc.constantFrom('red', 'green', 'blue', 'on'), { minLength: 1, maxLength: 3 }) }),
  fc.record({ t: fc.constant('literals' as const), values: fc.uniqueArray(fc.constantFrom<string | number | boolean | null>('on', 2, false, null), { minLength: 2, maxLength: 3 }) }),
  fc.constant({ t: 'null' as const }),
  fc.record({ t: fc.constant('unknown' as const), how: fc.constantFrom('unknown' as const, 'any' as const, 'json' as const) }),
  fc.constant({ t: 'template' as const }),
  fc.constant({ t: 'stringbool' as const }),
)

const fieldDefault = fc.option(fc.constantFrom('default' as const, 'prefault' as const), { nil: undefined })
const objectExtra = (spec: fc.Arbitrary<Spec>): fc.Arbitrary<'loose' | Spec | undefined> =>
  fc.option(fc.oneof(fc.constant('loose' as const), spec), { nil: undefined, freq: 3 })

const { spec } = fc.letrec<{ spec: Spec, fields: Field[] }>(tie => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ t: fc.constant('object' as const), fields: tie('fields') as fc.Arbitrary<Field[]>, strict: fc.boolean(), extra: objectExtra(tie('spec') as fc.Arbitrary<Spec>) }, { requiredKeys: ['t', 'fields', 'strict'] }),
    fc.record({ t: fc.constant('intersection' as const), left: tie('fields') as fc.Arbitrary<Field[]>, right: tie('fields') as fc.Arbitrary<Field[]> })
      .map(s => ({ ...s, right: s.right.filter(f => !s.left.some(l => l.key === f.key)) })),
    fc.record({ t: fc.constant('array' as const), item: tie('spec') as fc.Arbitrary<Spec>, min: fc.nat(2) }),
    fc.record({ t: fc.constant('record' as const), value: tie('spec') as fc.Arbitrary<Spec>, keys: fc.constantFrom('enum' as const, 'partial' as const, 'pattern' as const) }, { requiredKeys: ['t', 'value'] }),
    fc.record({ t: fc.constant('tuple' as const), items: fc.array(tie('spec') as fc.Arbitrary<Spec>, { minLength: 1, maxLength: 3 }), rest: tie('spec') as fc.Arbitrary<Spec> }, { requiredKeys: ['t', 'items'] }),
    fc.record({ t: fc.constant('nullable' as const), inner: tie('spec') as fc.Arbitrary<Spec> }),
    fc.record({ t: fc.constant('wrap' as const), how: fc.constantFrom<Wrapper>('readonly', 'brand', 'lazy', 'nonoptional', 'success'), inner: tie('spec') as fc.Arbitrary<Spec> }),
    fc.record({ t: fc.constant('tree' as const), leaf: fc.oneof(leaf, tie('spec') as fc.Arbitrary<Spec>), via: fc.constantFrom('array' as const, 'union' as const) }),
    fc.record({ t: fc.constant('union' as const), options: fc.array(tie('spec') as fc.Arbitrary<Spec>, { minLength: 2, maxLength: 3 }) }),
    // Two objects alike but for a null deep inside: a value's keys do not tell which one it is.
    fc.record({ t: fc.constant('object' as const), fields: tie('fields') as fc.Arbitrary<Field[]>, strict: fc.boolean() })
      .map((object): Spec => ({ t: 'union', options: [object, withNullInside(object)] })),
    discriminated(tie('fields') as fc.Arbitrary<Field[]>, tie('spec') as fc.Arbitrary<Spec>),
  ),
  fields: fc.uniqueArray(
    fc.record({ key: fc.constantFrom(...KEYS), spec: tie('spec') as fc.Arbitrary<Spec>, optional: fc.boolean(), default: fieldDefault, described: fc.boolean() }),
    { selector: f => f.key, maxLength: 4 },
  ),
}))

/** The object with its first field taking null too, or, where that field is an object, the same inside it. */
function withNullInside(object: Extract<Spec, { t: 'object' }>): Spec {
  const [first, ...rest] = object.fields
  if (!first)
    return object
  const spec = first.spec.t === 'object' ? withNullInside(first.spec) : { t: 'nullable' as const, inner: first.spec }
  return { ...object, fields: [{ ...first, spec }, ...rest] }
}

function discriminated(fields: fc.Arbitrary<Field[]>, extra: fc.Arbitrary<Spec> = leaf): fc.Arbitrary<Spec> {
  return fc.record({
    t: fc.constant('du' as const),
    key: fc.constantFrom('kind', 'type'),
    variants: fc.shuffledSubarray(TAGS, { minLength: 2, maxLength: 6 }).chain(tags => fc.tuple(
      ...splitTags(tags).map(values => fc.record({ values: fc.constant(values), fields, strict: fc.boolean(), extra: objectExtra(extra) }, { requiredKeys: ['values', 'fields', 'strict'] })),
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
 * type by design), and strict objects where zod strips (a key an object does not declare is
 * stripped, so its value means nothing and the flat schema may type it as another variant declares
 * it). Loose objects and catch-alls stay as they are: their extra keys mean something. Values are
 * filtered by the twin, so every value checked uses keys some schema gives meaning to.
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
      if (s.regex !== undefined)
        out = out.regex(REGEXES[s.regex]!.regex)
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
      if (s.multipleOf !== undefined)
        out = out.multipleOf(s.multipleOf)
      return s.catch && !typed ? out.catch(0) : out
    }
    case 'format': return FORMATS[s.format]!.make()
    case 'boolean': return z.boolean()
    case 'literal': return z.literal(s.value)
    case 'literals': return z.literal(s.values)
    case 'null': return z.null()
    case 'unknown': return s.how === 'any' ? z.any() : s.how === 'json' ? z.json() : z.unknown()
    case 'template': return z.templateLiteral(['id-', z.number().int()])
    case 'stringbool': return z.stringbool()
    case 'enum': return z.enum(s.values as [string, ...string[]])
    case 'object': return objectOf(s.fields, s.strict, typed, s.extra)
    case 'intersection': return typed
      ? objectOf([...s.left, ...s.right], true, true)
      : z.intersection(objectOf(s.left, false, false), objectOf(s.right, false, false))
    case 'array': return z.array(inner(s.item)).min(s.min)
    case 'record': {
      const value = inner(s.value)
      if (s.keys === 'enum')
        return z.record(z.enum(RECORD_KEYS), value)
      if (s.keys === 'partial')
        return z.partialRecord(z.enum(RECORD_KEYS), value)
      return z.record(s.keys === 'pattern' ? z.string().regex(/^[a-c]/) : z.string(), value)
    }
    case 'tuple': {
      const items = s.items.map(inner) as [z.ZodType, ...z.ZodType[]]
      return s.rest ? z.tuple(items, inner(s.rest)) : z.tuple(items)
    }
    case 'nullable': return inner(s.inner).nullable()
    case 'wrap': return wrap(s.how, inner(s.inner))
    case 'tree': {
      // The recursion under an array's items, or as a branch of unions (two, so a rewrite per union would double per level).
      const node: z.ZodType = objectOf([], typed, typed, undefined, s.via === 'union'
        ? { v: inner(s.leaf), kids: z.union([z.null(), z.lazy(() => node)]).optional(), next: z.union([z.lazy(() => node), z.null()]).optional() }
        : { v: inner(s.leaf), kids: z.array(z.lazy(() => node)).optional() })
      return node
    }
    case 'union': return z.union(s.options.map(inner) as [z.ZodType, z.ZodType])
    case 'du': return z.discriminatedUnion(s.key, s.variants.map(v => objectOf([{ key: s.key, spec: v.values.length === 1 ? { t: 'literal', value: v.values[0]! } : { t: 'enum', values: v.values }, optional: false }, ...v.fields], v.strict, typed, v.extra)) as never)
  }
}

function wrap(how: Wrapper, schema: z.ZodType): z.ZodType {
  switch (how) {
    case 'readonly': return schema.readonly()
    case 'brand': return schema.brand<'b'>()
    case 'lazy': return z.lazy(() => schema)
    case 'nonoptional': return schema.optional().nonoptional()
    case 'success': return z.success(schema)
  }
}

/** A value every leaf spec accepts (the generated bounds all admit it), for `.default()`. */
function defaultOf(s: Spec): unknown {
  switch (s.t) {
    case 'string': return s.regex === undefined ? 'abc' : undefined
    case 'number': return 5
    case 'boolean': return true
    case 'literal': return s.value
    case 'literals': return s.values[0] ?? undefined
    case 'enum': return s.values[0]
    case 'template': return 'id-1'
    case 'stringbool': return 'true'
    // A nullable key with a default: missing and null give different outputs.
    case 'nullable': return defaultOf(s.inner)
    default: return undefined
  }
}

function objectOf(fields: Field[], strict: boolean, typed: boolean, extra?: 'loose' | Spec, more: Record<string, z.ZodType> = {}): z.ZodType {
  const shape: Record<string, z.ZodType> = {}
  for (const f of fields) {
    // Descriptions that differ by key and spec exercise how joins keep or drop annotations.
    const inner = f.described ? toZod(f.spec, typed).describe(`${f.key} as ${f.spec.t}`) : toZod(f.spec, typed)
    const fallback = f.default ? defaultOf(f.spec) : undefined
    shape[f.key] = fallback === undefined ? (f.optional ? inner.optional() : inner) : f.default === 'prefault' ? inner.prefault(fallback as never) : inner.default(fallback as never)
  }
  Object.assign(shape, more)
  if (extra === 'loose')
    return z.looseObject(shape)
  if (extra)
    return z.object(shape).catchall(toZod(extra, typed))
  return strict || typed ? z.strictObject(shape) : z.object(shape)
}

const text = fc.string({ maxLength: 10, unit: fc.constantFrom('a', 'b', ' ', '!', 'Z', '1', 'é', '😀', '\n', 'É') })

/** Any JSON value, arrays of arrays and objects with declared and undeclared keys included. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>(tie => ({
  value: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'json' },
    text,
    fc.integer({ min: -5, max: 60 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3, depthIdentifier: 'json' }),
    fc.dictionary(fc.constantFrom(...KEYS, ...UNDECLARED), tie('value'), { maxKeys: 3, depthIdentifier: 'json' }),
  ),
})).value

/** Values shaped like the spec; the zod schema filters out the ones it rejects. */
export function valueOf(s: Spec): fc.Arbitrary<unknown> {
  switch (s.t) {
    case 'string': return s.regex === undefined ? text : fc.oneof(text, fc.constantFrom(...REGEXES[s.regex]!.samples))
    case 'format': return fc.oneof({ weight: 1, arbitrary: text }, { weight: 3, arbitrary: fc.constantFrom(...FORMATS[s.format]!.samples) })
    case 'number': {
      if (s.multipleOf !== undefined) {
        const step = s.multipleOf
        // Decimal literals, as a model writes them: 19.99, not 1999 * 0.01.
        const multiples = fc.integer({ min: -200, max: 6000 }).map(k => Number((k * step).toPrecision(12)))
        return step >= 1 ? fc.oneof(multiples, fc.constantFrom(2 ** 53 - 1, 1e21, 5e21)) : multiples
      }
      return s.int ? fc.integer({ min: -10, max: 60 }) : fc.double({ min: -10, max: 60, noNaN: true, noDefaultInfinity: true })
    }
    case 'boolean': return fc.boolean()
    case 'literal': return fc.constant(s.value)
    case 'literals': return fc.constantFrom(...s.values)
    case 'null': return fc.constant(null)
    case 'unknown': return anyJson
    case 'template': return fc.integer({ min: -3, max: 99 }).map(n => `id-${n}`)
    case 'stringbool': return fc.constantFrom('true', 'false', 'yes', 'no', '1', '0', 'enabled', 'maybe')
    case 'enum': return fc.constantFrom(...s.values)
    case 'object': return objectValue(s.fields, {}, s.extra)
    case 'intersection': return objectValue([...s.left, ...s.right], {})
    case 'array': return fc.array(valueOf(s.item), { minLength: s.min, maxLength: s.min + 2 })
    case 'record': {
      const value = valueOf(s.value)
      if (s.keys === 'enum' || s.keys === 'partial')
        return fc.record(Object.fromEntries(RECORD_KEYS.map(key => [key, value])), { requiredKeys: s.keys === 'enum' ? [...RECORD_KEYS] : [] })
      return fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 3 })
    }
    case 'tuple': {
      const head = fc.tuple(...s.items.map(valueOf))
      return s.rest ? fc.tuple(head, fc.array(valueOf(s.rest), { maxLength: 2 })).map(([h, r]) => [...h, ...r]) : head
    }
    case 'nullable': return fc.oneof(fc.constant(null), valueOf(s.inner))
    case 'wrap': return valueOf(s.inner)
    case 'tree': {
      const v = valueOf(s.leaf)
      return fc.letrec<{ node: unknown }>(tie => ({
        node: fc.oneof({ maxDepth: 3, depthIdentifier: 'tree' }, fc.record({ v }), s.via === 'union'
          ? fc.record({ v, kids: fc.oneof(fc.constant(null), tie('node')), next: fc.oneof(fc.constant(null), tie('node')) }, { requiredKeys: ['v'] })
          : fc.record({ v, kids: fc.array(tie('node'), { maxLength: 2, depthIdentifier: 'tree' }) })),
      })).node
    }
    case 'union': return fc.oneof(...s.options.map(valueOf))
    case 'du': return fc.oneof(...s.variants.map(v => objectValue(v.fields, { [s.key]: fc.constantFrom(...v.values) }, v.extra)))
  }
}

/** An object's declared keys, plus, where it keeps extra keys, keys it does not declare (other variants' too). */
function objectValue(fields: Field[], fixed: Record<string, fc.Arbitrary<unknown>>, extra?: 'loose' | Spec): fc.Arbitrary<unknown> {
  const model: Record<string, fc.Arbitrary<unknown>> = { ...fixed }
  for (const f of fields)
    model[f.key] = valueOf(f.spec)
  const optional = fields.filter(f => f.optional || (f.default && defaultOf(f.spec) !== undefined)).map(f => f.key)
  // Now and then an array, which libraries that read keys with `in` take for an object.
  const declared = fc.oneof({ weight: 12, arbitrary: fc.record(model, { requiredKeys: Object.keys(model).filter(key => !optional.includes(key)) }) }, { weight: 1, arbitrary: fc.array(fc.oneof(text, fc.integer()), { maxLength: 2 }) })
  if (!extra)
    return declared
  const undeclared = [...KEYS, ...UNDECLARED].filter(key => !(key in model))
  const extras = fc.dictionary(fc.constantFrom(...undeclared), extra === 'loose' ? anyJson : valueOf(extra), { maxKeys: 2 })
  return fc.tuple(declared, extras).map(([own, more]) => Array.isArray(own) ? own : ({ ...more as object, ...own as object }))
}

/** A tool input is an object: wrap whatever was generated into one (a union at the root half the time). */
export const toolSpec: fc.Arbitrary<Spec> = fc.oneof(
  discriminated(fc.uniqueArray(fc.record({ key: fc.constantFrom(...KEYS), spec, optional: fc.boolean() }), { selector: f => f.key, maxLength: 4 }), spec),
  spec.map(inner => ({ t: 'object' as const, fields: [{ key: 'root', spec: inner, optional: false }], strict: false })),
)

/** A call's arguments are an object, never an array. */
const argumentsOf = (s: Spec): fc.Arbitrary<unknown> => valueOf(s).filter(value => !Array.isArray(value))

export const cases = toolSpec.chain(s => fc.tuple(fc.constant(s), fc.array(argumentsOf(s), { minLength: VALUES_PER_SCHEMA, maxLength: VALUES_PER_SCHEMA })))

