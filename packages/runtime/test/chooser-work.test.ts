// The chooser's bound: what validating a value may cost, counted before a validator runs, so a
// recursive union (2^depth for a validator) is declined in time linear in the count.
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isLinear, validationWork } from '../src/proxy/compile/chooser-work'

/** A recursive union: each level tries two branches that both step into `arg`, then fails on `op`. */
const RECURSIVE = {
  type: 'object',
  properties: { expr: { $ref: '#/$defs/e' } },
  $defs: {
    e: {
      anyOf: [
        { type: 'object', properties: { arg: { $ref: '#/$defs/e' }, op: { const: 'neg' } }, required: ['op'] },
        { type: 'object', properties: { arg: { $ref: '#/$defs/e' }, op: { const: 'not' } }, required: ['op'] },
        { type: 'object', properties: { value: { type: 'number' }, op: { const: 'lit' } }, required: ['op', 'value'] },
      ],
    },
  },
}

function chain(depth: number): unknown {
  let expr: unknown = { op: 'lit', value: 1 }
  for (let i = 0; i < depth; i++)
    expr = { arg: expr, op: 'x' }
  return { expr }
}

/** ajv with every subschema counting its visits: the work a validator really does. */
function countingAjv(schema: object): (value: unknown) => number {
  let visits = 0
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false })
  ajv.addKeyword({ keyword: 'x-visit', schemaType: 'boolean', validate: () => ++visits > 0 })
  const mark = (node: unknown): unknown => {
    if (Array.isArray(node))
      return node.map(mark)
    if (typeof node !== 'object' || node === null)
      return node
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(node))
      out[key] = key === 'const' || key === 'enum' || key === 'required' ? child : key === 'properties' || key === '$defs' ? Object.fromEntries(Object.entries(child as object).map(([name, sub]) => [name, mark(sub)])) : mark(child)
    // First, so it is visited whatever the other keywords find.
    return { 'x-visit': true, ...out }
  }
  const validate = ajv.compile(mark(schema) as object)
  return (value) => {
    visits = 0
    validate(value)
    return visits
  }
}

describe('validationWork', () => {
  it('counts a recursive union\'s work as it grows, 2^depth, and stops at the limit in about as many steps', () => {
    const counts = [4, 8, 12].map(depth => validationWork(RECURSIVE, chain(depth), 1e9))
    expect(counts[1]! / counts[0]!).toBeGreaterThan(2 ** 4 * 0.9)
    expect(counts[2]! / counts[1]!).toBeGreaterThan(2 ** 4 * 0.9)
    expect(validationWork(RECURSIVE, chain(40), 1 << 18)).toBe((1 << 18) + 1)
    // The count is of what ajv does: within a small factor of its own visits, never below them.
    const visits = countingAjv(RECURSIVE)(chain(8))
    expect(visits).toBeGreaterThan(2 ** 8)
    expect(visits).toBeLessThanOrEqual(counts[1]!)
    expect(counts[1]! / visits).toBeLessThan(4)
  })

  it('is linear in the value for a schema without unions, and a subschema that applies itself in place is past any limit', () => {
    const plain = { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' } } } } } }
    const body = { items: Array.from({ length: 1000 }, (_, i) => ({ url: `u${i}` })) }
    // The root, the array, and each item with its one member.
    expect(validationWork(plain, body, 1e9)).toBe(2 + 1000 * 2)
    expect(validationWork({ $ref: '#' }, 1, 1e6)).toBe(1e6 + 1)
    expect(validationWork({ allOf: [{ $ref: '#/allOf/0' }] }, {}, 1e6)).toBe(1e6 + 1)
  })

  it('is never below what ajv visits (generated recursive schemas and values)', () => {
    const leaf = fc.constantFrom<object>({ type: 'number' }, { type: 'string' }, { const: 'x' }, { $ref: '#/$defs/n' }, {})
    const node = fc.letrec<{ node: object }>(tie => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.constantFrom('a', 'b', 'op'), tie('node'), { maxKeys: 3 }) }),
        fc.record({ type: fc.constant('array'), items: tie('node') }),
        fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
        fc.record({ oneOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ not: tie('node') }),
        fc.record({ if: tie('node'), then: tie('node'), else: tie('node') }),
        fc.record({ type: fc.constant('object'), additionalProperties: tie('node'), unevaluatedProperties: tie('node') }, { requiredKeys: ['type'] }),
        fc.record({ type: fc.constant('array'), prefixItems: fc.array(tie('node'), { maxLength: 2 }), items: tie('node'), contains: tie('node'), unevaluatedItems: tie('node') }, { requiredKeys: ['type'] }),
        fc.record({ dependentSchemas: fc.dictionary(fc.constantFrom('a', 'b'), tie('node'), { maxKeys: 2 }) }),
      ),
    })).node
    const value = fc.letrec<{ v: unknown }>(tie => ({
      v: fc.oneof({ depthSize: 'small' }, fc.constantFrom(1, 'x', null, true), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'op'), tie('v'), { maxKeys: 3 })),
    })).v
    fc.assert(fc.property(node, node, fc.array(value, { minLength: 1, maxLength: 5 }), (root, named, values) => {
      const schema = { ...root, $defs: { n: named } }
      const work = (v: unknown): number => validationWork(schema, v, 1e7)
      let visits: (v: unknown) => number
      try {
        visits = countingAjv(schema)
      }
      catch {
        return // a schema ajv cannot compile (a reference that loops in place) chooses nothing
      }
      for (const v of values) {
        if (work(v) <= 1e7)
          expect(visits(v)).toBeLessThanOrEqual(work(v))
      }
    }), { numRuns: 250 })
  })
})

describe('isLinear', () => {
  it('tells a schema whose work is linear in the value from one a union or an in-place loop can multiply', () => {
    expect(isLinear({ type: 'object', properties: { a: { $ref: '#' }, b: { type: 'array', items: { $ref: '#' } } } })).toBe(true)
    expect(isLinear({ type: 'object', properties: { a: { type: 'string' } }, allOf: [{ required: ['a'] }] })).toBe(true)
    expect(isLinear(RECURSIVE)).toBe(false)
    expect(isLinear({ anyOf: [{ properties: { a: {} } }, { properties: { a: {} } }] })).toBe(false)
    expect(isLinear({ type: 'array', items: { $ref: '#' }, contains: { $ref: '#' } })).toBe(false)
    expect(isLinear({ $ref: '#' })).toBe(false)
  })

  it('a linear schema\'s count is within a constant of the value\'s size (generated)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 50 }), (depth, width) => {
      const schema = { type: 'object', properties: { a: { $ref: '#' }, list: { type: 'array', items: { $ref: '#' } } } }
      let value: Record<string, unknown> = {}
      for (let i = 0; i < depth; i++)
        value = { a: value, list: Array.from({ length: width }, () => ({})) }
      // The root; per level, \`a\` (its \`$ref\` and the root again), the list, and each item (its \`$ref\` and the root).
      const places = 1 + depth * (3 + 2 * width)
      expect(isLinear(schema)).toBe(true)
      expect(validationWork(schema, value, 1e9)).toBe(places)
    }))
  })
})
