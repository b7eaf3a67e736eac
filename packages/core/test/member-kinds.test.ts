// Every kind of member zod can put in a tool input, joined on a collided key with an object that
// types the same inner key differently: a value zod accepts must pass the flat schema (ajv), at the
// key itself and nested under an array, a record, a tuple and a second union.
import { compileTool } from '@flatmcp/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ALL_KINDS } from '../src/keywords'
import { accepts, flat, portableViolations } from './support'

type Tree = { v: number, kids?: Tree[] }
const Tree: z.ZodType<Tree> = z.object({ v: z.number(), kids: z.array(z.lazy(() => Tree)).optional() })

/** Each member with a value it accepts that `Collider` (below) would reject if it won the key. */
const members: [string, z.ZodType, unknown][] = [
  ['z.unknown', z.unknown(), { x: 1, zz: [[[1, { x: 2 }]]] }],
  ['z.any', z.any(), { x: { deep: [[['a']]] } }],
  ['z.json', z.json(), { x: [1, { x: null }], zz: [[[[]]]] }],
  ['z.looseObject', z.looseObject({}), { x: 1, zz: { x: 2 } }],
  ['.catchall', z.object({}).catchall(z.number()), { x: 1 }],
  ['z.record (string keys)', z.record(z.string(), z.number()), { x: 1 }],
  ['z.record (enum keys)', z.record(z.enum(['x', 'y']), z.number()), { x: 1, y: 2 }],
  ['z.record (pattern keys)', z.record(z.string().regex(/^x/), z.number()), { x: 1 }],
  ['z.partialRecord', z.partialRecord(z.enum(['x', 'y']), z.number()), { x: 1 }],
  ['z.literal (number)', z.literal(3), 3],
  ['z.literal (boolean)', z.literal(true), true],
  ['z.literal (several)', z.literal([1, 'one', null]), null],
  ['z.null', z.null(), null],
  ['z.templateLiteral', z.templateLiteral(['id-', z.number()]), 'id-5'],
  ['z.stringbool', z.stringbool(), 'yes'],
  ['z.intersection', z.intersection(z.object({ x: z.number() }), z.object({ y: z.string() })), { x: 1, y: 'a' }],
  ['.readonly', z.object({ x: z.number() }).readonly(), { x: 1 }],
  ['.brand', z.object({ x: z.number() }).brand('n'), { x: 1 }],
  ['.nonoptional', z.object({ x: z.number() }).optional().nonoptional(), { x: 1 }],
  ['.prefault', z.object({ x: z.number() }).prefault({ x: 0 }), { x: 1 }],
  ['z.success', z.success(z.object({ x: z.number() })), { x: 1 }],
  ['z.lazy', z.lazy(() => z.object({ x: z.number() })), { x: 1 }],
  ['z.lazy (recursive)', Tree, { v: 1, kids: [{ v: 2, kids: [{ v: 3, kids: [{ v: 4, kids: [{ v: 5 }] }] }] }] }],
]

/** The other variant types `x` as a string, so a flat schema that lets it win rejects `x: 1`. */
const Collider = z.object({ x: z.string(), v: z.string(), y: z.number() })

/** Where the member sits: the same place in both variants, so the two collide there. */
const positions: [string, (member: z.ZodType) => z.ZodType, (value: unknown) => unknown][] = [
  ['at the key', m => m, v => v],
  ['under an array', m => z.array(m), v => [v, v]],
  ['under a record', m => z.record(z.string(), m), v => ({ k: v })],
  ['under a tuple', m => z.tuple([z.string(), m]), v => ['s', v]],
  ['under a second union', m => z.discriminatedUnion('type', [
    z.object({ type: z.literal('m'), inner: m }),
    z.object({ type: z.literal('n'), inner: Collider }),
  ]), v => ({ type: 'm', inner: v })],
]

function tool(member: z.ZodType, position: (m: z.ZodType) => z.ZodType): z.ZodType {
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a'), b: position(member) }),
    z.object({ kind: z.literal('b'), b: position(Collider) }),
  ])
}

describe('every member kind stays sound on a collided key', () => {
  it('the reproduction: an untyped member leaves the other variant\'s object open at every depth', () => {
    const input = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), b: z.unknown() }),
      z.object({ kind: z.literal('b'), b: z.object({ x: z.string() }) }),
    ])
    const value = { kind: 'a', b: { x: 1 } }
    expect(input.safeParse(value).success).toBe(true)
    const compiled = compileTool({ name: 't', input })
    expect(accepts(compiled.inputSchema, value)).toBe(true)
    // The user learns the key lost its type, and why.
    expect(compiled.diagnostics).toContainEqual(expect.objectContaining({ code: 'untyped-leaf', path: '/oneOf/0/properties/b', flatPath: '/properties/b', message: expect.stringContaining('a variant leaves it untyped') }))
  })

  for (const [name, member, value] of members) {
    describe(name, () => {
      for (const [where, position, place] of positions) {
        it(where, () => {
          const input = tool(member, position)
          const call = { kind: 'a', b: place(value) }
          expect(input.safeParse(call).success).toBe(true)
          const schema = flat(input)
          expect(portableViolations(schema)).toEqual([])
          expect(accepts(schema, call)).toBe(true)
        })
      }
    })
  }
})

describe('"any value" has a typed shape', () => {
  it('is typed, gives its arrays the loosest items, and is reported', () => {
    const compiled = compileTool({ name: 't', input: z.object({ data: z.unknown() }) })
    const data = (compiled.inputSchema.properties as Record<string, any>).data
    expect(data.type).toEqual(ALL_KINDS)
    expect(data.items).toEqual({})
    expect(accepts(compiled.inputSchema, { data: [[[['deep']]]] })).toBe(true)
    expect(compiled.diagnostics).toContainEqual(expect.objectContaining({ code: 'untyped-leaf', path: '/properties/data', flatPath: '/properties/data' }))
  })
})

describe('kinds JSON cannot carry are errors that say what to use', () => {
  for (const [name, member, advice] of [
    ['z.file', z.file(), /base64/],
    ['z.nan', z.nan(), /no NaN/],
    ['z.bigint', z.bigint(), /large integer/],
    ['z.map', z.map(z.string(), z.number()), /z\.record/],
  ] as const) {
    it(name, () => {
      expect(() => compileTool({ name: 't', input: z.object({ k: member }) })).toThrow(expect.objectContaining({
        message: expect.stringMatching(advice),
        path: '/properties/k',
      }))
    })
  }
})
