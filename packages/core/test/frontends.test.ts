// Schema libraries other than zod, each through its own front end: what its JSON cannot show is
// read from the library, and what flatmcp cannot use is a clear error that names the fix.
import { Schema } from 'effect'
import type { JsonSchemaObject } from '@flatmcp/core'
import { CompileError, compileTool, flattenSchema, toOriginalSchema } from '@flatmcp/core'
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as zcore from 'zod/v4/core'
import * as zm from 'zod/mini'
import { rejectedBy } from '../../../test/support/validators'

async function accepted(schema: { '~standard': { validate: (value: unknown) => unknown } }, value: unknown): Promise<boolean> {
  const result = await schema['~standard'].validate(value) as { issues?: unknown }
  return !result.issues
}

describe('arktype', () => {
  const schema = type({ code: /^[a-z]+$/i, name: 'string >= 3', line: /^ok$/m, 'mail?': 'string.email' })

  it('keeps the pattern flags its JSON drops, counts lengths as arktype does, and is sound under every validator', async () => {
    const compiled = compileTool({ name: 'ark', input: schema })
    const values = [{ code: 'ABC', name: '😀😀', line: 'x\nok' }, { code: 'aBc', name: 'abc', line: 'ok', mail: 'a@b.co' }]
    for (const value of values) {
      expect(await accepted(schema, value)).toBe(true)
      expect(rejectedBy(compiled.inputSchema, value)).toEqual([])
    }
    expect(compiled.inputSchema.properties).toMatchObject({ code: { pattern: '^[A-Za-z]+$' }, name: { minLength: 2 } })
    // Undeclared keys are kept by arktype, so they stay allowed.
    expect(compiled.inputSchema.additionalProperties).toBeUndefined()
    expect(toOriginalSchema(schema).semantics.unknownKeys).toBe('keep')
  })

  it('an object takes arrays and inherited keys as arktype does (it reads keys with `in`)', async () => {
    const input = type({ filter: { 'tag?': 'string' }, opts: { constructor: 'unknown', 'n?': 'number' } })
    const value = { filter: [], opts: [] }
    expect(await accepted(input, value)).toBe(true)
    expect(rejectedBy(compileTool({ name: 'ark', input }).inputSchema, value)).toEqual([])
    expect(await accepted(input, { filter: {}, opts: {} })).toBe(true)
    expect(compileTool({ name: 'ark', input }).inputSchema).toMatchObject({ properties: { opts: { type: ['object', 'array'] } } })
  })

  it('an open variant keeps a key another variant types open: arktype keeps undeclared keys', async () => {
    const union = type({ kind: '\'a\'' }).or({ kind: '\'b\'', m: 'number' })
    const value = { kind: 'a', m: 'text' }
    expect(await accepted(union, value)).toBe(true)
    expect(rejectedBy(compileTool({ name: 'ark', input: union }).inputSchema, value)).toEqual([])
  })
})

describe('zod/mini, through zod\'s own converter (which the build loads from the project)', () => {
  const converters = { zodToJSONSchema: zcore.toJSONSchema as (schema: unknown, params: Record<string, unknown>) => unknown }
  const input = zm.discriminatedUnion('kind', [
    zm.object({ kind: zm.literal('a'), code: zm.string().check(zm.regex(/^[a-z]+$/i)), n: zm.optional(zm.number()) }),
    zm.object({ kind: zm.literal('b'), code: zm.array(zm.string()) }),
  ])

  it('flattens like zod, with the flags zod/mini tests its patterns with', () => {
    const compiled = compileTool({ name: 'mini', input }, { converters })
    expect(compiled.inputSchema.properties).toMatchObject({ kind: { enum: ['a', 'b'] }, code: { type: ['array', 'string'], pattern: '^[A-Za-z]+$' } })
    expect(compiled.discriminator).toBe('kind')
    for (const value of [{ kind: 'a', code: 'ABC' }, { kind: 'b', code: ['x'] }]) {
      expect(zm.safeParse(input, value).success).toBe(true)
      expect(rejectedBy(compiled.inputSchema, value)).toEqual([])
    }
  })
})

describe('raw JSON Schema', () => {
  it('keeps open variants open: a validator keeps the keys a variant does not declare', () => {
    const original = { oneOf: [
      { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] },
      { type: 'object', properties: { kind: { const: 'b' }, m: { type: 'number' } }, required: ['kind', 'm'] },
    ] }
    const value = { kind: 'a', m: 'text' }
    const flat = flattenSchema(original).schema
    expect(rejectedBy(original, value)).toEqual([])
    expect(rejectedBy(flat, value)).toEqual([])
    // Told that its parser strips unknown keys (as zod's objects do), the key keeps its type.
    expect(flattenSchema(original, { semantics: { unknownKeys: 'strip' } }).schema).toMatchObject({ properties: { m: { type: 'number' } } })
  })
})

describe('raw JSON Schema: sound rewrites and what a title tells', () => {
  const asJsonSchema = (input: object, profile: 'portable' | 'openai-strict' = 'portable') => compileTool({ name: 't', input }, { profile, preset: 'json-schema' })

  it('unevaluatedProperties: false beside local keywords only is additionalProperties: false, so a strict target stays strict', () => {
    const input = { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false }
    const strict = asJsonSchema(input, 'openai-strict')
    expect(strict.strict).toBe(true)
    expect(strict.inputSchema).toMatchObject({ additionalProperties: false, properties: { a: { type: ['string', 'null'] } } })
    expect(rejectedBy(asJsonSchema(input).inputSchema, { a: 'x', b: 1 })).not.toEqual([])
    // Beside an applicator, unevaluated keys include the applicator's: no rewrite, and portable only widens.
    const applied = asJsonSchema({ ...input, allOf: [{ properties: { b: { type: 'integer' } } }] })
    expect(rejectedBy(applied.inputSchema, { a: 'x', b: 1 })).toEqual([])
    // Before 2019-09 the keyword does not exist: validators ignore it, and so does the reading.
    const draft7 = asJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', ...input })
    expect(rejectedBy(draft7.inputSchema, { a: 'x', b: 1 })).toEqual([])
  })

  it('unevaluatedItems: false past prefixItems is items: false, and a draft-07 tuple keeps its additionalItems in the one items', () => {
    const tuple = asJsonSchema({ type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }], unevaluatedItems: false } } }).inputSchema as JsonSchemaObject & { properties: Record<string, JsonSchemaObject> }
    expect(tuple.properties.t).toMatchObject({ items: { type: 'string' }, maxItems: 1 })
    const draft7 = asJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'number' } } } }).inputSchema as JsonSchemaObject & { properties: Record<string, JsonSchemaObject> }
    expect(draft7.properties.t).toEqual({ type: 'array', items: { type: ['string', 'number'] } })
  })

  it('drops a root title and a type\'s name; a title in words joins the description', () => {
    const compiled = asJsonSchema({ title: 'Root Schema', type: 'object', properties: { b: { title: 'TitleObject', type: 'object', properties: { c: { title: 'Count of items', type: 'integer' } } } } })
    expect(JSON.stringify(compiled.inputSchema)).not.toMatch(/Root Schema|TitleObject/)
    expect(compiled.inputSchema).toMatchObject({ properties: { b: { properties: { c: { description: 'Count of items' } } } } })
  })

  it('keywords of a kind a node does not take go (a join\'s leftovers)', () => {
    const compiled = asJsonSchema({ type: 'object', properties: { v: { type: 'string', anyOf: [{ maxLength: 2 }, { minLength: 4, properties: {} }] } } })
    expect(compiled.inputSchema).toEqual({ type: 'object', properties: { v: { type: 'string' } } })
  })
})

describe('libraries that lack one half', () => {
  const cases: [string, unknown, RegExp][] = [
    ['effect (JSON only)', Schema.toStandardJSONSchemaV1(Schema.Struct({ name: Schema.String })), /no ~standard\.validate, so the server could not parse a call; combine Schema\.toStandardSchemaV1\(S\)/],
    ['effect (validate only)', Schema.toStandardSchemaV1(Schema.Struct({ name: Schema.String })), /effect schema has no ~standard\.jsonSchema; combine/],
    ['valibot (plain, no converter)', v.object({ name: v.string() }), /valibot schema needs @valibot\/to-json-schema to describe it: install it beside valibot/],
    ['zod/mini', zm.object({ name: zm.string() }), /zod\/mini schema has no ~standard\.jsonSchema/],
  ]
  it.each(cases)('%s is a compile error naming the fix', (_name, input, message) => {
    expect(() => compileTool({ name: 'lib', input })).toThrow(CompileError)
    expect(() => compileTool({ name: 'lib', input })).toThrow(message)
  })
})

describe('effect, both halves in one ~standard object', () => {
  it('compiles, read as an unknown library (UTF-16 lengths, extra keys kept), and takes what effect takes', async () => {
    const S = Schema.Struct({ name: Schema.String.check(Schema.isMinLength(2)), kind: Schema.Union([Schema.Literal('a'), Schema.Literal('b')]), tags: Schema.optional(Schema.Array(Schema.String)) })
    const input = { '~standard': { ...Schema.toStandardSchemaV1(S)['~standard'], jsonSchema: Schema.toStandardJSONSchemaV1(S)['~standard'].jsonSchema } }
    const flat = compileTool({ name: 'effect', input }).inputSchema
    expect(flat).toMatchObject({ properties: { name: { minLength: 1 }, kind: { enum: ['a', 'b'] } }, required: ['name', 'kind'] })
    for (const value of [{ name: '😀', kind: 'a' }, { name: 'ab', kind: 'b', tags: ['x'], extra: 1 }]) {
      expect(await accepted(input, value)).toBe(true)
      expect(rejectedBy(flat, value)).toEqual([])
    }
  })
})
