// No schema stalls the compiler or makes it throw: recursion, $ref and meta-id bombs, deep unions,
// keys that look like percent-encoding, and malformed keywords all finish with a bounded result
// and, where something was cut or dropped, a diagnostic.
import type { JsonSchema } from '@flatmcp/core'
import { compileTool, FLATTEN_PROFILE_NAMES, flattenSchema, planCoercion } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import AjvDraft7 from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { accepts } from './support'

const size = (value: unknown): number => JSON.stringify(value).length

describe('the coercion planner is bounded', () => {
  it('a binary tree through a union plans once, as a named definition', () => {
    const self = { anyOf: [{ $ref: '#' }, { type: 'null' }] }
    const plan = planCoercion({ type: 'object', properties: { l: self, r: self } })
    expect(plan.defs).toBeDefined()
    expect(plan.properties?.l).toEqual({ parse: 'object', scalars: ['null'], ref: 'root' })
    expect(size(plan)).toBeLessThan(300)
  })

  it('z.lazy trees and mutually recursive types give plans the size of the schema', () => {
    type Node = { v: string, left: Node | null, right: Node | null }
    const Node: z.ZodType<Node> = z.object({ v: z.string(), left: z.lazy(() => Node).nullable(), right: z.lazy(() => Node).nullable() })
    const tree = compileTool({ name: 't', input: z.object({ tree: Node }) })
    expect(size(tree.coercion)).toBeLessThan(500)
    expect(tree.diagnostics.map(d => d.code)).toContain('recursion-truncated')
    for (const count of [2, 4, 6]) {
      const types: z.ZodType[] = []
      for (let i = 0; i < count; i++)
        types.push(z.object({ [`n${i}`]: z.lazy(() => types[(i + 1) % count]!).nullable(), [`m${i}`]: z.array(z.lazy(() => types[(i + count - 1) % count]!)) }))
      const compiled = compileTool({ name: 't', input: z.object({ root: types[0]! }) })
      expect(size(compiled.coercion)).toBeLessThan(400 * count)
    }
  })

  it('a $ref bomb (each level uses the one below twice) plans in linear size', () => {
    const $defs: Record<string, unknown> = { d0: { type: 'object', properties: { x: { type: 'array', items: { type: 'string' } } } } }
    for (let i = 1; i <= 30; i++)
      $defs[`d${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/d${i - 1}` }, b: { $ref: `#/$defs/d${i - 1}` } } }
    const schema: JsonSchema = { type: 'object', properties: { root: { $ref: '#/$defs/d30' } }, $defs }
    expect(size(planCoercion(schema))).toBeLessThan(30 * 400)
    expect(flattenSchema(schema).diagnostics.map(d => d.code)).toContain('size-limit')
  })

  it('a zod meta-id bomb compiles with a small plan and a bounded schema', () => {
    let schema: z.ZodType = z.object({ x: z.array(z.string()) }).meta({ id: 'L0' })
    for (let i = 1; i <= 20; i++)
      schema = z.object({ a: schema, b: schema }).meta({ id: `L${i}` })
    const compiled = compileTool({ name: 't', input: z.object({ root: schema }) })
    expect(size(compiled.coercion)).toBeLessThan(20 * 400)
    expect(compiled.diagnostics.some(d => d.code === 'size-limit')).toBe(true)
  })
})

describe('keys with %, ~ and /', () => {
  it('a note on key "%41" stays on "%41" (pointers are not URI-decoded)', () => {
    const input = z.object({ '%41': z.string().toLowerCase().regex(/^[a-z]+$/), 'A': z.string().regex(/^[A-Z]+$/) })
    const value = { '%41': 'ABC', 'A': 'XYZ' }
    expect(input.safeParse(value).success).toBe(true)
    expect(accepts(compileTool({ name: 't', input }).inputSchema, value)).toBe(true)
  })

  it('no URIError: a lone % in a $ref, in keys with notes, in a reused meta id', () => {
    const bad: JsonSchema = { type: 'object', properties: { a: { $ref: '#/%' }, b: { anyOf: [{ $ref: '#/%zz' }, { type: 'null' }] } } }
    expect(flattenSchema(bad).diagnostics.map(d => d.code)).toContain('ref-unresolved')
    expect(() => planCoercion(bad)).not.toThrow()
    const reused = z.string().meta({ id: 'a%b' })
    const input = z.object({
      'rate%': z.string().trim(),
      '100%': z.string().refine(() => true),
      'a%': z.discriminatedUnion('k', [z.object({ k: z.literal('x'), '~/': z.number() }), z.object({ k: z.literal('y') })]),
      'p': reused,
      'q': reused,
    })
    const compiled = compileTool({ name: 't', input })
    expect(accepts(compiled.inputSchema, { 'rate%': ' a ', '100%': 'b', 'a%': { 'k': 'x', '~/': 1 }, 'p': 's', 'q': 't' })).toBe(true)
  })
})

describe('deep unions', () => {
  for (const keyword of ['anyOf', 'oneOf']) {
    it(`10,000 nested ${keyword} give a depth-limit diagnostic and stay sound`, () => {
      let schema: JsonSchema = { type: 'string' }
      for (let i = 0; i < 10_000; i++)
        schema = { [keyword]: [schema, { type: 'number' }] }
      for (const profile of FLATTEN_PROFILE_NAMES) {
        const result = flattenSchema({ type: 'object', properties: { a: schema } }, { profile })
        expect(result.diagnostics.map(d => d.code)).toContain('depth-limit')
        expect(accepts(result.schema, { a: 'the string at the bottom' })).toBe(true)
      }
      expect(() => planCoercion(schema)).not.toThrow()
    })
  }
})

describe('malformed keywords', () => {
  it('a zod pattern only legacy JavaScript reads is respelled for unicode mode, where validators read it', () => {
    const compiled = compileTool({ name: 't', input: z.object({ code: z.string().regex(new RegExp('a\\-b')) }) })
    expect(compiled.inputSchema.properties).toEqual({ code: { type: 'string', pattern: 'a-b' } })
    expect(compiled.diagnostics).toContainEqual(expect.objectContaining({ code: 'keyword-rewritten', path: '/properties/code/pattern' }))
  })

  it('a raw JSON Schema pattern that unicode mode rejects is dropped with a warning', () => {
    const result = flattenSchema({ type: 'object', properties: { code: { type: 'string', pattern: 'a\\-b' } } })
    expect(result.schema).toEqual({ type: 'object', properties: { code: { type: 'string' } } })
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ code: 'malformed-schema', severity: 'warning', path: '/properties/code/pattern' }))
  })

  // Valid JSON Schema is what the meta-schema and a compiling validator accept; style is not asked.
  const lax = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false })
  const laxDraft7 = new AjvDraft7({ strict: false, allowUnionTypes: true, validateFormats: false })
  const keywords = ['uniqueItems', 'dependentRequired', 'readOnly', 'writeOnly', 'deprecated', 'description', 'title', 'examples', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'multipleOf', 'pattern', 'format', 'required', 'enum', 'type', 'items', 'properties', 'additionalProperties', 'contains', 'if', 'minimum', '$comment']
  const badValue = fc.oneof(
    fc.constantFrom<unknown>(-1, 1.5, 0, '(', '[a-', '{', 'a\\-b', '\\k', 'x', true, null, [], [1], {}, { a: 1 }, { a: [1] }, 'string'),
    fc.jsonValue({ maxDepth: 2 }),
  )

  it('every output either validates as JSON Schema or carries a diagnostic', () => {
    fc.assert(fc.property(fc.constantFrom(...keywords), badValue, fc.constantFrom('root', 'nested'), (keyword, value, where) => {
      const schema: JsonSchema = where === 'root' ? { type: 'object', properties: {}, [keyword]: value } : { type: 'object', properties: { a: { type: 'string', [keyword]: value } } }
      for (const profile of FLATTEN_PROFILE_NAMES) {
        const result = flattenSchema(schema, { profile })
        // Either dialect will do: a draft-07 input (array `items`) stays draft-07 where it is kept.
        const valid = [lax, laxDraft7].some((validator) => {
          try {
            return validator.validateSchema(result.schema as object) && Boolean(validator.compile(result.schema as object))
          }
          catch {
            return false
          }
        })
        if (!valid && result.diagnostics.length === 0)
          throw new Error(`invalid output without a diagnostic: ${keyword}=${JSON.stringify(value)} (${profile}) → ${JSON.stringify(result.schema)}`)
      }
    }), { numRuns: 600 })
  })
})

describe('examples are bounded', () => {
  it('a small schema whose simplest values are huge (large minItems and minLength, nested) gets no example for those variants, said once, and the others theirs', () => {
    const huge = { type: 'array', minItems: 100_000, items: { type: 'array', minItems: 100_000, items: { type: 'string', minLength: 100_000 } } }
    const input = {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'huge' }, rows: huge }, required: ['kind', 'rows'] },
        { type: 'object', properties: { kind: { const: 'long' }, text: { type: 'string', minLength: 10_000_000 } }, required: ['kind', 'text'] },
        { type: 'object', properties: { kind: { const: 'plain' }, n: { type: 'integer' } }, required: ['kind', 'n'] },
      ],
    }
    expect(size(input)).toBeLessThan(600)
    const compiled = compileTool({ name: 'bomb', input: { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }), jsonSchema: { input: () => input, output: () => input } } } as never })
    expect(compiled.inputSchema.examples).toEqual([{ kind: 'plain', n: 0 }])
    expect(compiled.diagnostics.filter(d => d.code === 'example-too-large').map(d => d.message)).toEqual(['2 variants of the input got no example: the simplest value each takes is over 4096 bytes (or 2000 schemas to visit)'])
  })

  it('a union of 5,000 variants tries its first 64, and no parser runs past them', () => {
    let parsed = 0
    const input = { anyOf: Array.from({ length: 5000 }, (_, i) => ({ type: 'object', properties: { [`k${i}`]: { type: 'string', pattern: '^x' } }, required: [`k${i}`] })) }
    const withText = { anyOf: input.anyOf.map((variant, i) => i % 2 === 0 ? variant : { ...variant, properties: { [`k${i}`]: { type: 'boolean' } } }) }
    compileTool({ name: 'wide', input: { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => (parsed++, { value }), jsonSchema: { input: () => withText, output: () => withText } } } as never })
    expect(parsed).toBeGreaterThan(0)
    expect(parsed).toBeLessThanOrEqual(64)
  })
})
