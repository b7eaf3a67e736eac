import { CompileError, compileTool, FLATTEN_PROFILE_NAMES, flattenSchema, modelAnswer, planCoercion, PROFILE_NAMES, profileViolations, toOriginalSchema } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { rejectedBy } from '../../../test/support/validators'
import { accepts, compile, flat, portableViolations } from './support'

const Media = z.object({ id: z.string() })

describe('discriminated unions', () => {
  const send = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('message'), text: z.string(), media: Media.optional() }).describe('send one message'),
    z.object({ kind: z.literal('mediaGroup'), media: z.array(Media) }).describe('send an album'),
  ]).describe('Send something')

  it('becomes one object with the discriminator as a required string enum', () => {
    const schema = flat(send)
    expect(schema.type).toBe('object')
    expect(schema.description).toBe('Send something')
    expect(schema.properties.kind).toMatchObject({ type: 'string', enum: ['message', 'mediaGroup'] })
    expect(schema.required).toEqual(['kind'])
    expect(portableViolations(schema)).toEqual([])
  })

  it('K1: object vs array on a shared key becomes a type array that keeps both shapes', () => {
    const media = flat(send).properties.media
    expect(media.type).toEqual(['object', 'array'])
    expect(media.properties).toEqual({ id: { type: 'string' } })
    expect(media.items).toMatchObject({ type: 'object', properties: { id: { type: 'string' } } })
    const schema = flat(send)
    expect(accepts(schema, { kind: 'message', text: 'hi', media: { id: 'a' } })).toBe(true)
    expect(accepts(schema, { kind: 'mediaGroup', media: [{ id: 'a' }, { id: 'b' }] })).toBe(true)
    expect(accepts(schema, { kind: 'mediaGroup', media: 'a' })).toBe(false)
  })

  it('puts variant descriptions on the discriminator and per-variant hints on keys', () => {
    const { properties } = flat(send)
    expect(properties.kind.description).toBe('"message": send one message; "mediaGroup": send an album.')
    expect(properties.text.description).toBe('Only for kind "message", where it is required.')
    expect(properties.media.description).toBe('Required when kind is "mediaGroup".')
  })

  it('keeps each variant\'s own description of its discriminator value, by value', () => {
    const { properties } = flat(z.discriminatedUnion('method', [
      z.object({ method: z.literal('create').describe('Create an issue'), title: z.string() }).describe('new'),
      z.object({ method: z.literal('update').describe('Update an issue'), id: z.number() }),
      z.object({ method: z.literal('close'), id: z.number() }),
    ]))
    expect(properties.method.description).toBe('"create": Create an issue. new; "update": Update an issue.')
    const same = flat(z.discriminatedUnion('op', [
      z.object({ op: z.literal('a').describe('the operation') }),
      z.object({ op: z.literal('b').describe('the operation') }),
    ]))
    expect(same.properties.op.description).toBe('the operation.')
  })

  it('keeps a key required when every variant requires it', () => {
    const schema = flat(z.discriminatedUnion('op', [
      z.object({ op: z.literal('a'), id: z.string(), x: z.number() }),
      z.object({ op: z.literal('b'), id: z.string(), y: z.number().optional() }),
    ]))
    expect(schema.required).toEqual(['op', 'id'])
    expect(schema.properties.id).toEqual({ type: 'string' })
  })

  it('accepts multi-value literal and z.enum discriminators', () => {
    const schema = flat(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal(['a', 'b']), x: z.string() }),
      z.object({ kind: z.enum(['c', 'd']), y: z.number() }),
    ]))
    expect(schema.properties.kind.enum).toEqual(['a', 'b', 'c', 'd'])
    expect(schema.properties.y.description).toBe('Only for kind "c" or "d", where it is required.')
  })

  it('leaves a numeric discriminator out of the hints without throwing, and stays sound', () => {
    const union = z.discriminatedUnion('v', [
      z.object({ v: z.literal(1), a: z.string() }),
      z.object({ v: z.literal(2), b: z.boolean() }),
    ])
    const compiled = compile(union)
    expect(compiled.diagnostics.map(d => d.code)).toContain('non-string-discriminator')
    const schema = compiled.inputSchema as Record<string, any>
    expect(schema.properties.v).toEqual({ type: 'number', enum: [1, 2] })
    expect(schema.properties.a.description).toBeUndefined()
    expect(portableViolations(schema)).toEqual([])
    for (const value of [{ v: 1, a: 'x' }, { v: 2, b: true }])
      expect(accepts(schema, value)).toBe(true)
  })

  it('flattens a union of objects without any discriminator, keys optional unless shared and required', () => {
    const schema = flat(z.union([
      z.object({ name: z.string(), age: z.number() }),
      z.object({ name: z.string(), email: z.string() }),
    ]))
    expect(schema.required).toEqual(['name'])
    expect(Object.keys(schema.properties)).toEqual(['name', 'age', 'email'])
    expect(schema.properties.age.description).toBeUndefined()
  })
})

describe('hints on nested unions', () => {
  it('a union on the same discriminator inside a variant refines the hints, never contradicts them', () => {
    const insight = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('TrendsQuery'), series: z.array(z.string()).describe('Series to plot'), interval: z.string().optional() }),
      z.object({ kind: z.literal('FunnelsQuery'), series: z.array(z.string()), steps: z.number() }),
    ]).meta({ id: 'Insight' })
    const query = z.discriminatedUnion('kind', [insight, z.object({ kind: z.literal('HogQL'), query: z.string(), interval: z.string() })])
    // Two unions declare `kind`, so hints name it by path; both are the same `query.kind` here.
    const { properties } = flat(z.object({ query })).properties.query
    expect(properties.series.description).toBe('For query.kind "TrendsQuery": Series to plot. Only for query.kind "TrendsQuery" or "FunnelsQuery", where it is required.')
    expect(properties.interval.description).toBe('Only for query.kind "TrendsQuery" or "HogQL". Required when query.kind is "HogQL".')
    expect(properties.steps.description).toBe('Only for query.kind "FunnelsQuery", where it is required.')
    for (const property of Object.values(properties) as { description?: string }[])
      expect((property.description ?? '').match(/Only for/g)?.length ?? 0).toBeLessThanOrEqual(1)
  })

  it('where several unions share a discriminator name, each hint names its own by path', () => {
    const source = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('TrendsQuery'), interval: z.string().optional() }),
      z.object({ kind: z.literal('FunnelsQuery'), steps: z.number() }),
    ])
    const query = z.discriminatedUnion('kind', [z.object({ kind: z.literal('InsightVizNode'), source }), z.object({ kind: z.literal('HogQLQuery'), sql: z.string() })])
    const schema = flat(z.object({ query, list: z.array(query) }))
    const q = schema.properties.query.properties
    expect(q.source.description).toBe('Only for query.kind "InsightVizNode", where it is required.')
    expect(q.source.properties.steps.description).toBe('Only for query.source.kind "FunnelsQuery", where it is required.')
    expect(schema.properties.list.items.properties.source.properties.interval.description).toBe('Only for list[].source.kind "TrendsQuery".')
  })
})

describe('collisions', () => {
  it('K2: differing literals and enums widen into one enum', () => {
    const schema = flat(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), mode: z.enum(['fast', 'slow']) }),
      z.object({ kind: z.literal('b'), mode: z.literal('off') }),
    ]))
    expect(schema.properties.mode).toMatchObject({ type: 'string', enum: ['fast', 'slow', 'off'] })
  })

  it('K3: differing object shapes merge key by key, extra keys allowed', () => {
    const schema = flat(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), target: z.object({ id: z.string(), n: z.number().min(0) }) }),
      z.object({ kind: z.literal('b'), target: z.object({ id: z.string(), tag: z.string(), n: z.number().min(5) }) }),
    ]))
    const target = schema.properties.target
    expect(target.type).toBe('object')
    expect(target.properties).toEqual({ id: { type: 'string' }, n: { type: 'number', minimum: 0 }, tag: { type: 'string' } })
    expect(target.required).toEqual(['id', 'n'])
    expect(target.additionalProperties).toBeUndefined()
  })

  it('K3: same kind, conflicting constraints keep the base type with the loosest bounds', () => {
    const schema = flat(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), code: z.string().length(4).regex(/^\d+$/) }),
      z.object({ kind: z.literal('b'), code: z.string().min(2).max(8) }),
    ]))
    expect(schema.properties.code).toMatchObject({ type: 'string', minLength: 2, maxLength: 8 })
    expect(schema.properties.code.pattern).toBeUndefined()
  })

  it('a minimum length stays as written where the check counts code points (zod 4.6+), and is halved where it counts UTF-16 units', () => {
    expect(flat(z.object({ s: z.string().min(3) })).properties.s).toEqual({ type: 'string', minLength: 3 })
    const units = flattenSchema({ type: 'object', properties: { s: { type: 'string', minLength: 3 } } }, { notes: { '/properties/s': { lengthInUnits: true } } })
    expect(units.schema).toMatchObject({ properties: { s: { minLength: 2 } } })
    expect(units.diagnostics).toContainEqual(expect.objectContaining({ code: 'keyword-rewritten', path: '/properties/s/minLength' }))
  })

  it('K4: a default that differs between variants is not advertised', () => {
    const schema = flat(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), limit: z.number().default(10) }),
      z.object({ kind: z.literal('b'), limit: z.number().default(50) }),
      z.object({ kind: z.literal('c'), size: z.number().default(1) }),
    ]))
    expect(schema.properties.limit.default).toBeUndefined()
    expect(schema.properties.size.default).toBe(1)
  })

  it('K4: an identical default is kept', () => {
    const schema = flat(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), limit: z.number().default(10) }),
      z.object({ kind: z.literal('b'), limit: z.number().default(10) }),
    ]))
    expect(schema.properties.limit.default).toBe(10)
  })

  it('K5: a union nested in a collided key is flattened by the same rules', () => {
    const Shape = z.discriminatedUnion('shape', [
      z.object({ shape: z.literal('circle'), r: z.number() }),
      z.object({ shape: z.literal('square'), side: z.number() }),
    ])
    const schema = flat(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('one'), item: Shape }),
      z.object({ kind: z.literal('many'), item: z.array(Shape) }),
    ]))
    const item = schema.properties.item
    expect(item.type).toEqual(['object', 'array'])
    expect(item.properties.shape.enum).toEqual(['circle', 'square'])
    expect(item.items.properties.side.type).toBe('number')
    expect(portableViolations(schema)).toEqual([])
  })

  it('different kinds become a type array, integer folded into number, null kept', () => {
    const schema = flat(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), v: z.number().int() }),
      z.object({ kind: z.literal('b'), v: z.string().nullable() }),
      z.object({ kind: z.literal('c'), v: z.number() }),
    ]))
    expect(schema.properties.v.type).toEqual(['string', 'number', 'null'])
  })
})

describe('precision', () => {
  it('z.number().int().min(0) shared by two variants stays exact', () => {
    const schema = flat(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), count: z.number().int().min(0) }),
      z.object({ kind: z.literal('b'), count: z.number().int().min(0) }),
    ]))
    expect(schema.properties.count).toEqual({ type: 'integer', minimum: 0 })
  })

  it('no untyped leaf appears unless the input had one', () => {
    const compiled = compile(z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), x: z.object({ p: z.string() }), y: z.array(z.number()) }),
      z.object({ kind: z.literal('b'), x: z.array(z.string()), y: z.number() }),
    ]))
    expect(compiled.diagnostics.filter(d => d.code === 'untyped-leaf')).toEqual([])
    expect(JSON.stringify(compiled.inputSchema)).not.toContain('{}')
    const withAny = compile(z.object({ anything: z.unknown() }))
    expect(withAny.diagnostics.map(d => `${d.code} ${d.path}`)).toEqual(['untyped-leaf /properties/anything', 'larger-than-original '])
    expect(withAny.diagnostics[1]!.message).toContain('"any value" spelled as a typed shape at 1 place')
    expect((withAny.inputSchema as any).properties.anything.type).toHaveLength(6)
  })
})

describe('key policy', () => {
  it('forbids extra keys only when every variant does', () => {
    const strict = flat(z.discriminatedUnion('k', [
      z.strictObject({ k: z.literal('a'), x: z.string() }),
      z.strictObject({ k: z.literal('b'), y: z.string() }),
    ]))
    expect(strict.additionalProperties).toBe(false)
    const mixed = flat(z.discriminatedUnion('k', [
      z.strictObject({ k: z.literal('a'), x: z.string() }),
      z.object({ k: z.literal('b'), y: z.string() }),
    ]))
    expect(mixed.additionalProperties).toBeUndefined()
    expect(accepts(mixed, { k: 'b', y: 'q', extra: 1 })).toBe(true)
  })

  it('a loose variant gives meaning to every key: other variants\' keys then accept anything', () => {
    const schema = flat(z.discriminatedUnion('k', [
      z.looseObject({ k: z.literal('a') }),
      z.object({ k: z.literal('b'), y: z.string() }),
    ]))
    // Variant "a" accepts `y: 5` as an extra key, so the flat schema must too.
    expect(accepts(schema, { k: 'a', y: 5 })).toBe(true)
    expect(z.discriminatedUnion('k', [z.looseObject({ k: z.literal('a') }), z.object({ k: z.literal('b'), y: z.string() })]).safeParse({ k: 'a', y: 5 }).success).toBe(true)
  })
})

describe('pattern properties', () => {
  it('a key another variant declares joins with the patterns it matches; other keys stay open', () => {
    const { schema } = flattenSchema({ oneOf: [
      { type: 'object', patternProperties: { '^x': { type: 'number' } } },
      { type: 'object', properties: { xa: { type: 'string' }, b: { type: 'boolean' } }, additionalProperties: false },
    ] })
    for (const value of [{ xa: 1 }, { xa: 'a', b: true }, { b: 'anything', xz: 2 }])
      expect(accepts(schema, value)).toBe(true)
  })
})

describe('unions at any depth', () => {
  const Pet = z.discriminatedUnion('species', [
    z.object({ species: z.literal('cat'), lives: z.number() }),
    z.object({ species: z.literal('dog'), breed: z.string() }),
  ])
  const places: [string, z.ZodType, (s: any) => any][] = [
    ['array items', z.object({ pets: z.array(Pet) }), s => s.properties.pets.items],
    ['record values', z.object({ byName: z.record(z.string(), Pet) }), s => s.properties.byName.additionalProperties],
    ['optional', z.object({ pet: Pet.optional() }), s => s.properties.pet],
    ['default', z.object({ pet: Pet.default({ species: 'cat', lives: 9 }) }), s => s.properties.pet],
    ['tuple', z.object({ pair: z.tuple([Pet, Pet]) }), s => s.properties.pair.items],
  ]
  for (const [where, schema, pick] of places) {
    it(`flattens a union inside ${where}`, () => {
      const out = flat(schema)
      expect(pick(out)).toMatchObject({ type: 'object', properties: { species: { enum: ['cat', 'dog'] } } })
      expect(portableViolations(out)).toEqual([])
    })
  }

  it('flattens a union inside nullable into an object-or-null', () => {
    const out = flat(z.object({ pet: Pet.nullable() }))
    expect(out.properties.pet.type).toEqual(['object', 'null'])
    expect(accepts(out, { pet: null })).toBe(true)
    expect(accepts(out, { pet: { species: 'dog', breed: 'pug' } })).toBe(true)
  })

  it('lifts discriminated unions inside a plain union into one set of variants', () => {
    const out = flat(z.union([Pet, z.object({ species: z.literal('fish'), fins: z.number() })]))
    expect(out.properties.species.enum).toEqual(['cat', 'dog', 'fish'])
    expect(out.properties.fins.description).toBe('Only for species "fish", where it is required.')
  })

  it('joins a union with non-object branches into one typed schema', () => {
    const out = flat(z.object({ id: z.union([z.string().uuid(), z.number().int()]) }))
    expect(out.properties.id).toMatchObject({ type: ['string', 'integer'], format: 'uuid' })
  })
})

describe('constraints JSON cannot show, on a collided key', () => {
  const variants = (a: z.ZodType, b: z.ZodType): z.ZodType => z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), v: a }),
    z.object({ kind: z.literal('b'), v: b }),
  ])
  const cases: [string, z.ZodType][] = [
    ['refine', z.string().min(3).refine(s => s.startsWith('x'))],
    ['trim', z.string().trim().max(3)],
    ['pipe', z.string().min(3).pipe(z.string().max(5))],
    ['transform', z.string().min(3).transform(s => s.length)],
  ]
  for (const [what, schema] of cases) {
    it(`${what} at depth 0 keeps the base type only`, () => {
      const compiled = compile(variants(schema, schema))
      const v = (compiled.inputSchema as any).properties.v
      expect(Object.keys(v).filter(k => !['type', 'description'].includes(k))).toEqual([])
      expect(compiled.diagnostics.map(d => d.code)).toContain('invisible-constraint')
    })
    it(`${what} deeper (object field and array element) keeps the base type only`, () => {
      const deep = flat(variants(z.object({ inner: z.array(schema) }), z.object({ inner: z.array(schema), other: z.string() })))
      const element = deep.properties.v.properties.inner.items
      expect(Object.keys(element).filter(k => k !== 'type')).toEqual([])
    })
  }

  it('a trim before a max keeps no max even off a collided key: the raw string may be longer', () => {
    const schema = flat(z.object({ name: z.string().trim().max(3) }))
    expect(schema.properties.name).toEqual({ type: 'string' })
    expect(z.object({ name: z.string().trim().max(3) }).safeParse({ name: '  ab  ' }).success).toBe(true)
    expect(accepts(schema, { name: '  ab  ' })).toBe(true)
  })

  // What these accept beyond their JSON type, at depth 0 and on a collided key.
  const wider: [string, z.ZodType, unknown[]][] = [
    ['.catch()', z.number().min(1).catch(1), ['ten', null, { a: 1 }, [1], 0]],
    ['z.preprocess()', z.preprocess(v => Number(v), z.number()), ['12', true, null]],
    ['z.coerce.number()', z.coerce.number().min(1), ['12', true, [5], 3]],
    ['z.coerce.string()', z.coerce.string().min(1), [null, 12, true, { a: 1 }]],
    ['z.coerce.boolean()', z.coerce.boolean(), [null, 'no', 0, []]],
  ]
  for (const [what, schema, values] of wider) {
    it(`${what} advertises every kind its parser accepts, at depth 0 and on a collided key`, () => {
      const inputs: [z.ZodType, (v: unknown) => unknown][] = [
        [z.object({ v: schema }), v => ({ v })],
        [variants(schema, z.string()), v => ({ kind: 'a', v })],
      ]
      for (const [input, argsOf] of inputs) {
        const compiled = compile(input)
        for (const v of values) {
          expect(input.safeParse(argsOf(v)).success).toBe(true)
          expect(accepts(compiled.inputSchema, argsOf(v))).toBe(true)
        }
        expect(compiled.diagnostics.map(d => d.code)).toContain('invisible-constraint')
      }
    })
  }

  it('a coerced number stays a number for its number values: its bounds still apply to them', () => {
    expect(flat(z.object({ n: z.coerce.number().min(1) })).properties.n).toMatchObject({ minimum: 1, type: ['array', 'string', 'number', 'boolean', 'null'] })
  })

  it('a tuple with a rest takes an array without its trailing items that take undefined, whatever minItems zod writes', () => {
    const cases: [z.ZodType, unknown[]][] = [
      [z.tuple([z.unknown().readonly()], z.tuple([z.stringbool()])), []],
      [z.tuple([z.string(), z.unknown(), z.any().readonly()], z.number()), ['a']],
    ]
    for (const [tuple, short] of cases) {
      const schema = z.object({ t: tuple })
      expect(schema.safeParse({ t: short }).success).toBe(true)
      expect(rejectedBy(compile(schema).inputSchema, { t: short })).toEqual([])
    }
    // Without a rest zod checks the length: the minimum stays.
    expect(flat(z.object({ t: z.tuple([z.string(), z.unknown()]) })).properties.t.minItems).toBe(2)
  })

  it('a coerced number takes only the strings and arrays Number() reads as a finite number, under every validator', () => {
    const schema = z.object({ n: z.coerce.number() })
    const advertised = compile(schema).inputSchema
    for (const n of ['forty-two', '12px', '1,2', [1, 2], ['a']])
      expect(rejectedBy(advertised, { n }).length, JSON.stringify(n)).toBe(4)
    // By property: every string zod's coercion takes (any text, and numeric spellings with padding) passes.
    const numeric = fc.tuple(fc.constantFrom('', ' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff'), fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), fc.integer().map(i => `0x${Math.abs(i).toString(16)}`), fc.constantFrom('', '.5', '5.', '1e3', '-0', '0b101', '0o17', '+1E-2')), fc.constantFrom('', ' ', '\r\n'))
    fc.assert(fc.property(fc.oneof(fc.string({ unit: 'binary' }), numeric.map(([a, b, c]) => a + b + c)), fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 })), (text, inner) => {
      for (const n of [text, [text], ...(inner === undefined ? [] : [[inner]])]) {
        if (schema.safeParse({ n }).success)
          expect(rejectedBy(advertised, { n }), JSON.stringify(n)).toEqual([])
      }
    }), { numRuns: 2000 })
  })

  it('a key with .catch() is never required: the parser accepts it missing', () => {
    const schema = flat(z.object({ n: z.number().catch(0), m: z.number() }))
    expect(schema.required).toEqual(['m'])
  })

  it('a refine off a collided key keeps its visible constraints', () => {
    expect(flat(z.object({ s: z.string().max(3).refine(s => s !== 'abc') })).properties.s).toEqual({ type: 'string', maxLength: 3 })
  })
})

describe('params + union input', () => {
  const input = z.discriminatedUnion('action', [
    z.object({ action: z.literal('rename'), title: z.string() }),
    z.object({ action: z.literal('archive') }),
  ])

  it('merges params and the flattened input into one object', () => {
    const schema = compile(input, { params: z.object({ chatId: z.string() }) }).inputSchema as any
    expect(Object.keys(schema.properties)).toEqual(['chatId', 'action', 'title'])
    expect(schema.required).toEqual(['chatId', 'action'])
    expect(portableViolations(schema)).toEqual([])
  })

  it('rejects a key declared on both sides, naming tool and key', () => {
    expect(() => compileTool({ name: 'rename_chat', params: z.object({ title: z.string() }), input }))
      .toThrowError(/tool "rename_chat" input at \/properties\/title: key "title" is declared in both params and input/)
  })
})

describe('portable profile', () => {
  it('drops a propertyNames every key meets (type string), and keeps one that constrains keys', () => {
    const schema = flat(z.object({ any: z.record(z.string(), z.number()), prefixed: z.record(z.string().regex(/^x/), z.number()) }))
    expect(schema.properties.any).toEqual({ type: 'object', additionalProperties: { type: 'number' } })
    expect(schema.properties.prefixed.propertyNames).toEqual({ type: 'string', pattern: '^x' })
  })

  it('drops the RegExp zod writes beside a format the flat schema keeps, and keeps it where the format goes', () => {
    const compiled = compile(z.object({ at: z.iso.datetime(), day: z.iso.date(), id: z.uuid(), mail: z.email(), code: z.string().regex(/^[A-Z]{3}$/) }))
    const schema = compiled.inputSchema as Record<string, any>
    expect(schema.properties.at).toEqual({ type: 'string', format: 'date-time' })
    expect(schema.properties.day).toEqual({ type: 'string', format: 'date' })
    expect(schema.properties.id).toEqual({ type: 'string', format: 'uuid' })
    // An email's format is not kept (validators reject emails zod accepts): its RegExp is the check then.
    expect(schema.properties.mail.pattern).toEqual(expect.any(String))
    expect(schema.properties.mail.format).toBeUndefined()
    expect(schema.properties.code.pattern).toBe('^[A-Z]{3}$')
    expect(compiled.diagnostics.filter(d => d.message.startsWith('pattern of format')).map(d => d.path)).toEqual(['/properties/at/pattern', '/properties/day/pattern', '/properties/id/pattern'])
  })

  it('writes a record of any values as an open object, and keeps additionalProperties where it opens declared properties', () => {
    const input = z.object({ bag: z.record(z.string(), z.unknown()), loose: z.looseObject({ id: z.string() }) })
    const schema = flat(input)
    expect(schema.properties.bag).toEqual({ type: 'object' })
    expect(schema.properties.loose.additionalProperties).toBeDefined()
    expect(accepts(schema, { bag: { a: [1, { b: null }] }, loose: { id: 'x', extra: { deep: true } } })).toBe(true)
    // A target profile still sees the record as open: closed only with a rest key that carries its keys.
    const strict = compileTool({ name: 't', input }, { profile: 'openai-strict' }).inputSchema as Record<string, any>
    expect(strict.properties.bag).toMatchObject({ type: 'object', properties: { other_keys: { type: 'string' } }, required: ['other_keys'], additionalProperties: false })
  })

  it('inlines $refs and unrolls recursion to a bound, then a loose typed object', () => {
    interface Node { name: string, children: Node[] }
    const Tree: z.ZodType<Node> = z.object({ name: z.string(), get children() { return z.array(Tree) } })
    const compiled = compile(Tree)
    const text = JSON.stringify(compiled.inputSchema)
    expect(text).not.toContain('$ref')
    expect(compiled.diagnostics.map(d => d.code)).toContain('recursion-truncated')
    const deepest = (compiled.inputSchema as any).properties.children.items.properties.children.items
    expect(deepest).toEqual({ type: 'object' })
    const value = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [{ name: 'd', children: [] }] }] }] }
    expect(Tree.safeParse(value).success).toBe(true)
    expect(accepts(compiled.inputSchema, value)).toBe(true)
  })

  it('handles z.lazy recursion through a union', () => {
    type Expr = { op: 'num', value: number } | { op: 'add', left: Expr, right: Expr }
    const Expr: z.ZodType<Expr> = z.lazy(() => z.discriminatedUnion('op', [
      z.object({ op: z.literal('num'), value: z.number() }),
      z.object({ op: z.literal('add'), left: Expr, right: Expr }),
    ]))
    const compiled = compile(z.object({ expr: Expr }))
    expect(portableViolations(compiled.inputSchema)).toEqual([])
    const value = { expr: { op: 'add', left: { op: 'num', value: 1 }, right: { op: 'add', left: { op: 'num', value: 2 }, right: { op: 'add', left: { op: 'num', value: 3 }, right: { op: 'num', value: 4 } } } } }
    expect(accepts(compiled.inputSchema, value)).toBe(true)
  })

  it('keeps common formats and moves the others, uri included, into the description', () => {
    const compiled = compile(z.object({ when: z.iso.datetime(), ip: z.ipv4(), id: z.cuid(), link: z.url() }))
    const { properties } = compiled.inputSchema as any
    expect(properties.when.format).toBe('date-time')
    expect(properties.ip.format).toBe('ipv4')
    expect(properties.id.format).toBeUndefined()
    expect(properties.id.description).toBe('Format: cuid.')
    expect(properties.link.format).toBeUndefined()
    expect(properties.link.description).toBe('Format: uri.')
    expect(compiled.diagnostics.filter(d => d.code === 'format-moved').map(d => d.path)).toEqual(['/properties/id/format', '/properties/link/format'])
  })

  it('moves a pattern OpenAI\'s route refuses (lookaround, backreferences, \\p{…}, inline flags) into the description, and keeps the common ones', () => {
    // Figma's server (can1357/oh-my-pi #2784), zed #60474, and the rest of the subset's edges.
    const input = { type: 'object', properties: {
      name: { type: 'string', pattern: '^(?!undefined$|null$)' },
      word: { type: 'string', pattern: '^\\p{L}+$' },
      twice: { type: 'string', pattern: '^(a)\\1$' },
      loud: { type: 'string', pattern: '(?i)^abc$' },
      plain: { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' },
    } }
    for (const profile of ['portable', 'openai-strict'] as const) {
      const compiled = compileTool({ name: 'figma', input }, { profile, preset: 'json-schema' })
      const properties = (compiled.inputSchema as any).properties
      const moved = Object.keys(input.properties).filter(key => JSON.stringify(properties[key]).includes('Pattern: '))
      // Inline flags do not compile as ECMAScript here: dropped before (said), so never sent.
      expect(moved, profile).toEqual(['name', 'word', 'twice'])
      expect(properties.loud.pattern, profile).toBeUndefined()
      expect(JSON.stringify(compiled.inputSchema).match(/"pattern"/g), profile).toHaveLength(1)
      expect(compiled.diagnostics.filter(d => d.code === 'keyword-rewritten' && d.path.endsWith('/pattern')).map(d => d.message.split(',')[0])).toEqual(['pattern uses lookaround', 'pattern uses a Unicode property escape (\\p{…})', 'pattern uses a backreference'])
      // Wider only: what the original accepts still passes (in openai-strict, as its model writes it: every key, the rest key too).
      const value = { name: 'x', word: 'é', twice: 'aa', plain: 'a_1' }
      expect(compiled.strict, profile).toBe(profile === 'portable' ? undefined : true)
      expect(rejectedBy(compiled.inputSchema, modelAnswer(compiled.inputSchema, compiled.decode, value, { nullsForMissing: true }))).toEqual([])
    }
  })

  it('keeps every description within 1024 characters, with a warning for each cut', () => {
    const variants = Array.from({ length: 40 }, (_, i) => z.object({ kind: z.literal(`variant_${i}`), [`field_${i}`]: z.string() }).describe(`the variant number ${i}, which does one particular thing`))
    const long = 'A long description of the query, written by its author. '.repeat(40)
    const compiled = compileTool({
      name: 'wide',
      description: 'What the tool does. '.repeat(80),
      input: z.object({ target: z.discriminatedUnion('kind', variants as never), query: z.string().describe(long) }),
    })
    const schema = compiled.inputSchema as any
    const kind = schema.properties.target.properties.kind.description as string
    expect(kind.length).toBeLessThanOrEqual(1024)
    expect(kind.endsWith('…')).toBe(true)
    expect(schema.properties.query.description.length).toBeLessThanOrEqual(1024)
    expect(compiled.description!.length).toBeLessThanOrEqual(1024)
    const cuts = compiled.diagnostics.filter(d => d.code === 'description-cut')
    expect(cuts.map(d => [d.severity, d.path])).toEqual(expect.arrayContaining([['warning', ''], ['warning', '/properties/query/description']]))
    expect(cuts.map(d => d.message).join('\n')).toMatch(/description of 2240 characters cut to 1024/)
    expect(cuts.length).toBe(3)
    expect(profileViolations(schema)).toEqual([])
    expect(profileViolations({ type: 'string', description: 'x'.repeat(1025) })).toEqual(['/: a description over 1024 characters'])
    // The minimal profile promises no such limit, and leaves the text whole.
    expect((compileTool({ name: 'm', input: z.object({ q: z.string().describe(long) }) }, { profile: 'minimal' }).inputSchema as any).properties.q.description).toBe(long)
  })

  it('writes const as a one-value enum, drops $schema, gives every array items', () => {
    const schema = flat(z.object({ v: z.literal('x'), list: z.array(z.any()) }))
    expect(schema.$schema).toBeUndefined()
    expect(schema.properties.v).toEqual({ type: 'string', enum: ['x'] })
    expect(schema.properties.list.items.type).toHaveLength(6)
  })

  it('turns tuples into items that accept every position, with the length kept', () => {
    const schema = flat(z.object({ point: z.tuple([z.number(), z.number(), z.string()]) }))
    expect(schema.properties.point).toEqual({ type: 'array', items: { type: ['string', 'number'] }, minItems: 3, maxItems: 3 })
  })

  it('folds intersections into one object', () => {
    const schema = flat(z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })))
    expect(schema).toMatchObject({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } })
    expect(portableViolations(schema)).toEqual([])
  })

  it('profileViolations (what the probe runs) agrees with the tests\' own checker', () => {
    const original = toOriginalSchema(z.object({ a: z.union([z.string(), z.array(z.number())]), b: z.unknown(), c: z.cuid() })).schema
    const found = profileViolations(original)
    expect(found).toEqual(['/: "$schema" is not allowed', '/properties/a: "anyOf" is not allowed', '/properties/a: no type', '/properties/b: no type', '/properties/c: format "cuid" is not portable'])
    expect(portableViolations(original).length).toBeGreaterThan(0)
    const flatSchema = flat(z.object({ a: z.union([z.string(), z.array(z.number())]), b: z.unknown(), c: z.cuid() }))
    expect(profileViolations(flatSchema)).toEqual([])
    expect(portableViolations(flatSchema)).toEqual([])
  })

  it('the minimal profile flattens object unions and leaves the rest alone', () => {
    const compiled = compile(z.object({ id: z.union([z.string(), z.array(z.string())]), pet: z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b') })]) }), { profile: 'minimal' })
    const schema = compiled.inputSchema as any
    expect(schema.properties.id.anyOf).toHaveLength(2)
    expect(schema.properties.pet.properties.k.enum).toEqual(['a', 'b'])
    expect(compiled.diagnostics.map(d => d.code)).toContain('union-left-alone')
  })
})

describe('bad input', () => {
  it('a schema JSON cannot express is an error naming tool and JSON path', () => {
    expect(() => compileTool({ name: 'schedule', input: z.object({ when: z.object({ at: z.date() }) }) }))
      .toThrowError(CompileError)
    expect(() => compileTool({ name: 'schedule', input: z.object({ when: z.object({ at: z.date() }) }) }))
      .toThrowError(/tool "schedule" input at \/properties\/when\/properties\/at: z\.date\(\)/)
  })

  it('a tool without a name is an error', () => {
    expect(() => compileTool({ name: '', input: z.object({}) })).toThrowError(/non-empty string name/)
  })

  it('a non-schema input is an error naming the tool; a JSON Schema as a plain object is a schema', () => {
    for (const input of ['object', 42, new Map(), [{ type: 'object' }]])
      expect(() => compileTool({ name: 'x', input })).toThrowError(/tool "x" input: expected a zod 4 schema, a Standard Schema that exposes ~standard.jsonSchema, or a JSON Schema as a plain object/)
    expect(compileTool({ name: 'x', input: { type: 'object' } }).inputSchema).toEqual({ type: 'object' })
  })

  it('malformed JSON Schema gives diagnostics, not a crash', () => {
    const cases: unknown[] = [
      { type: 'object', properties: { a: 42, b: { anyOf: 'nope' }, c: { oneOf: [] } } },
      { anyOf: [{ type: 'object' }, 7] },
      { $ref: '#/$defs/missing' },
      { type: 'wat', enum: 3, properties: null, required: 'a' },
      'not a schema',
    ]
    for (const schema of cases) {
      const result = flattenSchema(schema as never)
      expect(result.diagnostics.length).toBeGreaterThan(0)
      expect(result.schema).toBeDefined()
    }
  })

  it('any JSON value handed to flattenSchema returns a result without throwing', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
      const result = flattenSchema(value as never)
      expect(result.schema).toBeDefined()
    }), { numRuns: 500 })
    const keywords = ['type', 'anyOf', 'oneOf', 'allOf', 'properties', 'items', 'required', 'enum', '$ref', 'additionalProperties', 'prefixItems', 'not', 'const', 'minimum', 'format', 'description']
    const inherited = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']
    fc.assert(fc.property(fc.object({ key: fc.constantFrom(...keywords, ...inherited), maxDepth: 4 }), (value) => {
      for (const profile of FLATTEN_PROFILE_NAMES)
        expect(() => flattenSchema(value as never, { profile })).not.toThrow()
      expect(() => planCoercion(value as never)).not.toThrow()
    }), { numRuns: 1000, examples: [[{ prefixItems: [''], allOf: [{ items: '', $ref: '' }] }]] })
  })

  it('a $ref to a network URI is never fetched (MCP 2026-07-28 forbids a server to): it reads as any value, said, in every profile', () => {
    const schema = { type: 'object', properties: { far: { $ref: 'https://example.com/schema.json' }, n: { type: 'integer' } }, required: ['far'] } as const
    // `minimal` keeps `$ref`s as they came, this one too.
    for (const profile of PROFILE_NAMES.filter(name => name !== 'minimal')) {
      const tool = compileTool({ name: 't', input: schema }, { profile, preset: 'json-schema' })
      expect(tool.diagnostics.map(d => d.code), profile).toContain('ref-unresolved')
      expect(JSON.stringify(tool.inputSchema), profile).not.toContain('example.com')
    }
    expect(accepts(flattenSchema(schema as never).schema, { far: { any: ['value'] }, n: 1 })).toBe(true)
  })

  it('a `required` entry that is no string is left alone, even one that converts to no key (found by the property above)', () => {
    const value = JSON.parse('{"$ref":"","properties":{},"required":[{"toString":null}]}')
    for (const profile of FLATTEN_PROFILE_NAMES)
      expect(flattenSchema(value, { profile }).schema).toBeDefined()
  })

  it('a union whose branch cannot be resolved is left as it is and reported', () => {
    const result = flattenSchema({ type: 'object', properties: { x: { anyOf: [{ $ref: '#/$defs/nope' }, { type: 'string' }] } } }, { profile: 'minimal' })
    expect(result.diagnostics.map(d => d.code)).toEqual(['ref-unresolved', 'union-left-alone'])
    expect((result.schema as any).properties.x.anyOf).toHaveLength(2)
  })

  it('very deep input is bounded and reported', () => {
    let schema: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 5000; i++)
      schema = { type: 'object', properties: { next: schema } }
    const result = flattenSchema(schema)
    expect(result.diagnostics.map(d => d.code)).toContain('depth-limit')
    expect(() => planCoercion(schema)).not.toThrow()
  })

  it('exponential $ref sharing is bounded by the node budget', () => {
    const $defs: Record<string, unknown> = { d0: { type: 'string' } }
    for (let i = 1; i <= 40; i++)
      $defs[`d${i}`] = { type: 'object', properties: { l: { $ref: `#/$defs/d${i - 1}` }, r: { $ref: `#/$defs/d${i - 1}` } } }
    const result = flattenSchema({ $defs, $ref: '#/$defs/d40' })
    expect(result.diagnostics.map(d => d.code)).toContain('size-limit')
  })
})

describe('front end', () => {
  it('reads any Standard Schema that exposes ~standard.jsonSchema', () => {
    const json = { type: 'object', properties: { q: { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }] } } }
    const foreign = { '~standard': { version: 1, vendor: 'other', validate: () => ({ value: {} }), jsonSchema: { input: () => json, output: () => json } } }
    const schema = compileTool({ name: 'foreign', input: foreign }).inputSchema as any
    expect(schema.properties.q.properties.a.type).toEqual(['array', 'string'])
  })

  it('notes what JSON cannot show, by pointer', () => {
    const { notes } = toOriginalSchema(z.object({ a: z.string().trim(), b: z.discriminatedUnion('k', [z.object({ k: z.literal('x') }), z.object({ k: z.literal('y') })]), c: z.coerce.number().catch(0) }))
    expect(notes).toEqual({
      '/properties/a': { invisible: ['overwrite'] },
      '/properties/b': { discriminator: 'k' },
      '/properties/c': { invisible: ['coerce', 'catch'] },
    })
  })

  it('does not advertise zod\'s check labels as formats; a check whose pattern goes is said in words', () => {
    const { properties } = flat(z.object({
      inc: z.string().includes('a.b'),
      at: z.string().includes('x', { position: 2 }),
      starts: z.string().startsWith('id-'),
      ends: z.string().endsWith('.md'),
      low: z.string().lowercase(),
      up: z.string().uppercase(),
      own: z.stringFormat('includes', /^in$/),
      // Two checks: zod writes their patterns as `allOf` members and the last one's label on the node.
      both: z.string().includes('a').startsWith('b'),
    }))
    for (const key of ['inc', 'at', 'starts', 'ends', 'low', 'up', 'both'])
      expect([properties[key].format, properties[key].description], key).toEqual([undefined, key === 'at' ? 'Contains "x" at or after index 2 (counting from 0).' : undefined])
    expect(properties.inc.pattern).toBe('a\\.b')
    expect(properties.at.pattern).toBeUndefined()
    // A format of the author's own that happens to share a label stays a format note.
    expect(properties.own.description).toBe('Format: includes.')
  })
})

describe('determinism', () => {
  it('compiling twice gives identical bytes', () => {
    const make = () => z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), x: z.string().describe('x'), m: z.enum(['p', 'q']) }),
      z.object({ kind: z.literal('b'), x: z.array(z.number()), m: z.literal('r'), extra: z.record(z.string(), z.boolean()) }),
    ])
    const first = JSON.stringify(compileTool({ name: 't', description: 'd', input: make() }))
    const second = JSON.stringify(compileTool({ name: 't', description: 'd', input: make() }))
    expect(second).toBe(first)
    expect(Object.keys(JSON.parse(first))).toEqual(['name', 'description', 'inputSchema', 'coercion', 'discriminator', 'diagnostics'])
  })
})

describe('the minimal profile', () => {
  it('joins a union branch it keeps as a $ref as its rewritten definition, not the raw original', () => {
    const node: z.ZodType = z.object({ v: z.email({ pattern: z.regexes.unicodeEmail }), kids: z.array(z.lazy(() => node)).optional() })
    const input = z.object({ root: z.union([z.object({}).and(z.object({})), node]) })
    const schema = compile(input, { profile: 'minimal' }).inputSchema as Record<string, any>
    // The email format, which format-asserting validators check more strictly than zod, is moved everywhere.
    expect(JSON.stringify(schema)).not.toContain('"format"')
    expect(rejectedBy(schema, { root: { v: 'josé@exämple.com' } })).toEqual([])
  })

  it('a definition that reaches itself through its unions is joined once, and stays sound', () => {
    // Each node holds two unions of itself: rewriting the definition per union would double per level.
    const node: z.ZodType = z.object({ v: z.email(), l: z.union([z.null(), z.lazy(() => node)]), r: z.union([z.null(), z.lazy(() => node)]) })
    const input = z.object({ root: node })
    const schema = compile(input, { profile: 'minimal' }).inputSchema
    const leaf = { v: 'a@b-.com', l: null, r: null }
    const value = { root: { v: 'a@b-.com', l: { ...leaf, r: leaf }, r: leaf } }
    expect(input.safeParse(value).success).toBe(true)
    expect(rejectedBy(schema, value)).toEqual([])
  })
})
