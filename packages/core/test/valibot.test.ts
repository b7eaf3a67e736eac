// valibot through its front end: plain schemas (with the project's @valibot/to-json-schema) and
// schemas wrapped by toStandardJsonSchema, what valibot does beyond its JSON (fallbacks,
// transformations, flagged RegExps, objects read with `in`), and valibot's own options.
import type { SchemaConverters } from '@flatmcp/core'
import { compileTool, CompileError } from '@flatmcp/core'
import { toJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { rejectedBy } from '../../../test/support/validators'

const converters: SchemaConverters = { valibotToJsonSchema: toJsonSchema as SchemaConverters['valibotToJsonSchema'] }

function advertised(input: v.GenericSchema, how: 'plain' | 'wrapped', extra: Partial<SchemaConverters> = {}): Record<string, unknown> {
  const schema = how === 'plain' ? input : toStandardJsonSchema(input)
  return compileTool({ name: 'vb', input: schema }, { converters: { ...converters, ...extra } }).inputSchema
}

/** Each reproduction: a member schema and values valibot accepts for it. */
const members: [string, () => v.GenericSchema, unknown[]][] = [
  ['a fallback takes any value and a missing key', () => v.fallback(v.number(), 20), ['ten', null, 5]],
  ['a fallback under a pipe', () => v.pipe(v.fallback(v.pipe(v.number(), v.maxValue(5)), 0), v.readonly()), ['ten', 9]],
  ['a fallback around a lazy schema (the conversion writes a reference)', () => v.fallback(v.lazy(() => v.pipe(v.string(), v.maxLength(3))), 'x'), ['aaaa', 7]],
  ['a fallback inside a lazy schema (the reference\'s target has it)', () => v.lazy(() => v.fallback(v.pipe(v.number(), v.integer(), v.multipleOf(0.01)), 0)), [-0.01, 'ten']],
  ['a transformation before a check: the check reads the transformed value', () => v.pipe(v.string(), v.trim(), v.regex(/^a/), v.minLength(3)), [' abc', '  a  c']],
  ['a flagged RegExp', () => v.pipe(v.string(), v.regex(/^[a-z]+$/i)), ['ABC', 'aBc']],
  ['a multiline RegExp', () => v.pipe(v.string(), v.regex(/^ok$/m)), ['x\nok']],
  ['a check and a transform', () => v.pipe(v.string(), v.check(s => s.length > 1), v.transform(s => s.length)), ['ab']],
  ['lengths in UTF-16 units', () => v.pipe(v.string(), v.minLength(3)), ['😀😀']],
  ['a fractional multipleOf', () => v.pipe(v.number(), v.multipleOf(0.5)), [1.5, 0]],
  ['a tuple whose last items take undefined', () => v.tuple([v.string(), v.optional(v.number()), v.any()]), [['a'], ['a', 1]]],
  ['an object takes an array (valibot reads keys with `in`)', () => v.object({ a: v.optional(v.string()) }), [[], ['x'], { a: 'y' }]],
  ['a custom check is any value', () => v.custom<string>(value => typeof value === 'string' && value.length > 0), ['x']],
  ['a record never checks its constructor and prototype keys', () => v.record(v.pipe(v.string(), v.regex(/^a/)), v.number()), [{ constructor: 'x', prototype: [1], a1: 2 }]],
  ['an object rest never checks its constructor key', () => v.objectWithRest({ a: v.string() }, v.number()), [{ a: 'x', constructor: 'y' }]],
  ['a loose object keeps its extra keys', () => v.looseObject({ a: v.string() }), [{ a: 'x', k: 'text', zz: [1] }]],
]

describe('valibot', () => {
  describe.each(['plain', 'wrapped'] as const)('%s schemas: what valibot accepts passes the flat schema under every validator', (how) => {
    it.each(members)('%s, at depth 0 and as a collided key', (_name, member, values) => {
      const alone = v.object({ x: member() })
      // `k: 'b'` types x as a number object: the collided key must still take every value above.
      const collided = v.variant('k', [v.object({ k: v.literal('a'), x: member() }), v.object({ k: v.literal('b'), x: v.pipe(v.number(), v.maxValue(1)) })])
      for (const [schema, wrap] of [[alone, (x: unknown) => ({ x })], [collided, (x: unknown) => ({ k: 'a', x })]] as const) {
        const flat = advertised(schema, how)
        for (const value of values) {
          expect(v.safeParse(schema, wrap(value)).success).toBe(true)
          expect(rejectedBy(flat, wrap(value)), JSON.stringify(flat)).toEqual([])
        }
      }
    })
  })

  it('a fallback key is optional and any value, where the conversion says required and a number', () => {
    const input = v.object({ limit: v.fallback(v.number(), 20), q: v.string() })
    expect(toJsonSchema(input, { errorMode: 'ignore' })).toMatchObject({ required: ['limit', 'q'], properties: { limit: { type: 'number' } } })
    for (const how of ['plain', 'wrapped'] as const) {
      const flat = advertised(input, how)
      expect(flat.required).toEqual(['q'])
      for (const value of [{ q: 'x' }, { q: 'x', limit: 'ten' }]) {
        expect(v.safeParse(input, value).success).toBe(true)
        expect(rejectedBy(flat, value)).toEqual([])
      }
    }
  })

  it('a key every object inherits is not required: valibot finds it with `in`, sent or not', () => {
    const input = v.object({ constructor: v.unknown(), toString: v.unknown(), q: v.string() })
    expect(v.safeParse(input, { q: 'x' }).success).toBe(true)
    expect(advertised(input, 'plain').required).toEqual(['q'])
  })

  it('keeps what it can state exactly: flags folded into the pattern, the variant\'s discriminator, a strict object closed', () => {
    const input = v.variant('kind', [
      v.strictObject({ kind: v.literal('a'), code: v.pipe(v.string(), v.regex(/^[a-z]+$/i)) }),
      v.strictObject({ kind: v.literal('b'), n: v.number() }),
    ])
    const compiled = compileTool({ name: 'vb', input }, { converters })
    expect(compiled.discriminator).toBe('kind')
    expect(compiled.inputSchema).toMatchObject({ properties: { kind: { enum: ['a', 'b'] }, code: { pattern: '^[A-Za-z]+$' } }, additionalProperties: false })
    expect(rejectedBy(compiled.inputSchema, { kind: 'a', code: '1' }).length).toBe(4)
  })

  it('a kind JSON cannot carry is an error at its place, naming what to use instead', () => {
    const input = v.object({ when: v.date() })
    for (const schema of [input, toStandardJsonSchema(input)]) {
      expect(() => compileTool({ name: 'vb', input: schema }, { converters })).toThrow(CompileError)
      expect(() => compileTool({ name: 'vb', input: schema }, { converters })).toThrow(/at \/properties\/when: v\.date\(\) cannot be expressed in JSON Schema .*use v\.pipe\(v\.string\(\), v\.isoDateTime\(\)\)/)
    }
  })

  it('passes valibot\'s own options (libraryOptions.valibot): the user\'s hooks run first', () => {
    const objectId = v.custom<string>(value => typeof value === 'string' && /^[0-9a-f]{24}$/.test(value))
    const input = v.object({ id: objectId, when: v.optional(v.date()) })
    const libraryOptions = { valibot: {
      overrideSchema: ({ valibotSchema }: { valibotSchema: { type: string } }) => valibotSchema.type === 'custom' ? { type: 'string', pattern: '^[0-9a-f]{24}$' } : undefined,
      errorMode: 'ignore',
    } }
    for (const how of ['plain', 'wrapped'] as const) {
      const flat = advertised(input, how, { libraryOptions })
      expect(flat.properties).toMatchObject({ id: { type: 'string', pattern: '^[0-9a-f]{24}$' } })
      // errorMode "ignore": a date leaves what the conversion wrote, any value, instead of an error.
      expect(Object.keys((flat.properties as Record<string, object>).when!)).not.toContain('format')
    }
  })
})
