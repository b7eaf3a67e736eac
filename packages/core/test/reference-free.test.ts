// A schema written without `$ref` or `$defs` (what a describe_tools answer holds: Gemini 3.x refuses
// either in a function response). Shared definitions are written out where they are used and mean
// what they meant; a recursive `$ref`, one that points nowhere and one past the bound are not
// written out again, and the result stays bounded however the definitions nest.
import type { JsonSchemaObject } from '@flatmcp/core'
import { compileTool, withoutReferences, withoutSharedDefinitions } from '@flatmcp/core'
import { describe, expect, it } from 'vitest'
import { ajv } from './support'

const references = (schema: unknown): string[] => JSON.stringify(schema).match(/"\$(?:ref|defs|dynamicRef|recursiveRef)"|"definitions":/g) ?? []
const address = { type: 'object', properties: { street: { type: 'string', description: 'Street and number.' }, city: { type: 'string', description: 'The city.' } }, required: ['street', 'city'] }

describe('a schema without references', () => {
  it('writes a strict profile\'s shared definitions out where they are used, as a client that reads them sees them', () => {
    const tool = compileTool({ name: 'ship', input: { type: 'object', properties: { from: address, to: address, via: { type: 'array', items: address } }, required: ['from', 'to'] } }, { profile: 'openai-strict' })
    expect(references(tool.inputSchema).length).toBeGreaterThan(0)
    const { schema, cut } = withoutReferences(tool.inputSchema, 32_768)
    expect(cut).toEqual([])
    expect(references(schema)).toEqual([])
    expect(schema).toEqual(withoutSharedDefinitions(tool.inputSchema))
  })

  it('keeps a $ref\'s annotations over its target\'s, and any other sibling beside it in allOf: the same values pass', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/closed', description: 'Said here.' }, b: { $ref: '#/$defs/closed', type: 'object', properties: { extra: { type: 'number' } } } },
      $defs: { closed: { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false, description: 'Said there.' } },
    }
    const written = withoutReferences(schema, 32_768).schema as JsonSchemaObject
    expect(references(written)).toEqual([])
    const properties = written.properties as Record<string, JsonSchemaObject>
    expect(properties.a).toEqual({ type: 'object', properties: { x: { type: 'string' } }, additionalProperties: false, description: 'Said here.' })
    expect(properties.b!.allOf).toHaveLength(1)
    for (const value of [{ a: { x: 's' } }, { a: { y: 1 } }, { b: { extra: 1 } }, { b: { x: 's' } }, { b: 'no' }])
      expect(ajv.validate(written, value)).toBe(ajv.validate(schema, value))
  })

  it('does not write out a recursive $ref again, nor one that points nowhere or outside: a node of its type says what stood there', () => {
    const schema = {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' }, far: { $ref: 'https://example.com/schema.json' }, lost: { $ref: '#/$defs/missing' } },
      $defs: { node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    }
    const { schema: written, cut } = withoutReferences(schema, 32_768)
    expect(references(written)).toEqual([])
    expect(cut).toEqual([{ ref: '#/$defs/node', why: 'recursive' }, { ref: 'https://example.com/schema.json', why: 'unresolved' }, { ref: '#/$defs/missing', why: 'unresolved' }])
    const tree = (written as any).properties.tree
    expect(tree.properties.children.items).toEqual({ type: 'object', description: 'As the same shape as the enclosing "node" (recursive; not written out again).' })
  })

  it('stays bounded where each definition uses the next twice (2^24 copies written out in full)', () => {
    const $defs: Record<string, unknown> = { d24: { type: 'string', description: 'A leaf with words enough to weigh something.' } }
    for (let i = 23; i >= 0; i--)
      $defs[`d${i}`] = { type: 'object', properties: { left: { $ref: `#/$defs/d${i + 1}` }, right: { $ref: `#/$defs/d${i + 1}` } } }
    const schema = { type: 'object', properties: { root: { $ref: '#/$defs/d0' } }, $defs }
    const budget = 32_768
    const { schema: written, cut } = withoutReferences(schema, budget)
    expect(references(written)).toEqual([])
    expect(cut.every(each => each.why === 'budget')).toBe(true)
    expect(cut.length).toBeGreaterThan(0)
    // At most the budget beyond the original, and the cut nodes' own sentences.
    expect(JSON.stringify(written).length).toBeLessThanOrEqual(JSON.stringify(schema).length + budget + cut.length * 120)
  })

  it('leaves a schema without references as it is, and a property named $defs as a property', () => {
    const schema = { type: 'object', properties: { $defs: { type: 'string' }, definitions: { type: 'number' } }, required: ['$defs'] }
    expect(withoutReferences(schema, 32_768)).toEqual({ schema, cut: [] })
  })
})

describe('a schema without references, built to cost (issue 67)', () => {
  it('measures a big target once, and no further than the budget, however many $refs name it', () => {
    // Each $ref's target was written as JSON to learn its size: 3,000 $refs to a 280 KB shape took 5 s.
    let listed = 0
    const keys = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, { type: 'string', description: 'A key among many.' }]))
    const properties = new Proxy(keys, { ownKeys: (target) => { listed++; return Reflect.ownKeys(target) } })
    const uses = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`p${i}`, { $ref: '#/$defs/big' }]))
    const { cut } = withoutReferences({ type: 'object', properties: uses, $defs: { big: { type: 'object', properties } } }, 32_768)
    expect(cut).toHaveLength(1000)
    expect(listed).toBeLessThanOrEqual(1)
  })

  it('stays bounded where a target that is too big says a type thousands of names long', () => {
    // A cut node took its target's `type` as written: 100 KB of schema became 90 MB.
    const uses = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`p${i}`, { $ref: '#/$defs/t' }]))
    const schema = { type: 'object', properties: uses, $defs: { t: { type: Array.from({ length: 5000 }, () => 'string') } } }
    const { schema: written, cut } = withoutReferences(schema, 32_768)
    expect(cut).toHaveLength(2000)
    expect(JSON.stringify(written).length).toBeLessThanOrEqual(JSON.stringify(schema).length + 32_768 + cut.length * 120)
  })
})
