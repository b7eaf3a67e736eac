// The peers section compares portable with FastMCP's output on the inputs whose values all say a
// type: hasUntypedValue decides which inputs those are, so it is checked on each place a value's
// schema can be.
import { describe, expect, it } from 'vitest'
import { hasUntypedValue } from '../bench/peers.bench'

const object = (properties: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', properties })

describe('bench/peers.bench.ts: hasUntypedValue', () => {
  it.each([
    ['an empty schema', object({ a: {} })],
    ['a description alone', object({ a: { description: 'anything' } })],
    ['a $ref to another document', object({ a: { $ref: 'https://elsewhere.example/s.json' } })],
    ['an array whose items say nothing', object({ a: { type: 'array' } })],
    ['an untyped item', object({ a: { type: 'array', items: {} } })],
    ['an untyped member of a tuple', object({ a: { type: 'array', prefixItems: [{ type: 'string' }, {}] } })],
    ['an untyped alternative', object({ a: { anyOf: [{ type: 'string' }, { title: 'x' }] } })],
    ['an untyped definition', { ...object({ a: { $ref: '#/$defs/A' } }), $defs: { A: object({ b: {} }) } }],
    ['an untyped additional value', { type: 'object', additionalProperties: { description: 'x' } }],
    ['an untyped value deep inside', object({ a: object({ b: { type: 'array', items: object({ c: {} }) } }) })],
  ])('finds %s', (_name, schema) => {
    expect(hasUntypedValue(schema)).toBe(true)
  })

  it.each([
    ['typed properties', object({ a: { type: 'string' }, b: { enum: [1, 2] }, c: { const: 'x' } })],
    ['a local $ref', { ...object({ a: { $ref: '#/$defs/A' } }), $defs: { A: { type: 'string' } } }],
    ['a tuple in the older form', object({ a: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } })],
    ['typed alternatives', object({ a: { oneOf: [{ type: 'string' }, object({ b: { type: 'integer' } })] } })],
    ['additional values allowed as a boolean', { type: 'object', additionalProperties: true }],
  ])('finds none in %s', (_name, schema) => {
    expect(hasUntypedValue(schema)).toBe(false)
  })
})
