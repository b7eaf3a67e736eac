import type { CoercionPlan } from '@flatmcp/core'
import { compileTool } from '@flatmcp/core'
import { coerceArgs } from '@flatmcp/runtime'
import { inverseArgs, readScalar, triesOf } from '@flatmcp/runtime/coerce'
import { lastCallCost } from '../src/coerce/coerce-args'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'

const Media = z.object({ id: z.string() })
const send = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), text: z.string(), media: Media.optional() }),
  z.object({ kind: z.literal('mediaGroup'), media: z.array(Media) }),
])
const input = z.object({
  target: z.object({ chat: z.string(), thread: z.object({ id: z.number() }).optional() }),
  tags: z.array(z.string()),
  matrix: z.array(z.array(z.number())),
  byName: z.record(z.string(), z.object({ n: z.number() })),
  pair: z.tuple([z.string(), z.object({ x: z.number() })]),
  note: z.string(),
  either: z.union([z.string(), z.object({ a: z.number() })]),
  send: send.optional(),
  count: z.number().optional(),
  flag: z.boolean().optional(),
})

const plan = (schema: z.ZodType): CoercionPlan => compileTool({ name: 't', input: schema }).coercion
const full = plan(input)
const s = JSON.stringify

describe('coerceArgs: the table', () => {
  const rows: [string, unknown, unknown][] = [
    ['stringified object at the top level', { target: s({ chat: 'c' }) }, { target: { chat: 'c' } }],
    ['stringified array at the top level', { tags: s(['a', 'b']) }, { tags: ['a', 'b'] }],
    ['nested field', { target: { chat: 'c', thread: s({ id: 1 }) } }, { target: { chat: 'c', thread: { id: 1 } } }],
    ['nested twice (object holding a stringified field, itself stringified)', { target: s({ chat: 'c', thread: s({ id: 2 }) }) }, { target: { chat: 'c', thread: { id: 2 } } }],
    ['array items', { matrix: [s([1, 2]), [3]] }, { matrix: [[1, 2], [3]] }],
    ['record values', { byName: { a: s({ n: 1 }), b: { n: 2 } } }, { byName: { a: { n: 1 }, b: { n: 2 } } }],
    ['tuple position', { pair: ['x', s({ x: 1 })] }, { pair: ['x', { x: 1 }] }],
    ['the variant the tag selects', { send: { kind: 'message', text: 't', media: s({ id: 'm' }) } }, { send: { kind: 'message', text: 't', media: { id: 'm' } } }],
    ['the other variant, an array', { send: { kind: 'mediaGroup', media: s([{ id: 'm' }]) } }, { send: { kind: 'mediaGroup', media: [{ id: 'm' }] } }],
    ['a stringified union value', { send: s({ kind: 'mediaGroup', media: [] }) }, { send: { kind: 'mediaGroup', media: [] } }],
    ['string-typed field untouched', { note: s({ a: 1 }) }, { note: s({ a: 1 }) }],
    ['union with a string member untouched', { either: s({ a: 1 }) }, { either: s({ a: 1 }) }],
    ['invalid JSON left as it is', { target: '{chat:' }, { target: '{chat:' }],
    ['kind mismatch left as it is (array where an object goes)', { target: '[1,2]' }, { target: '[1,2]' }],
    ['kind mismatch left as it is (scalar JSON)', { tags: '42' }, { tags: '42' }],
    ['scalars never coerced', { count: '1', flag: 'true' }, { count: '1', flag: 'true' }],
    ['unknown tag: the variant is not guessed', { send: { kind: 'other', media: s({ id: 'm' }) } }, { send: { kind: 'other', media: s({ id: 'm' }) } }],
  ]
  for (const [what, args, expected] of rows) {
    it(what, () => {
      expect(coerceArgs(args, full)).toEqual(expected)
    })
  }

  it('accepts the whole arguments object as a JSON string', () => {
    expect(coerceArgs(s({ target: s({ chat: 'c' }), note: 'n' }), full)).toEqual({ target: { chat: 'c' }, note: 'n' })
    expect(coerceArgs('not json', full)).toBe('not json')
    expect(coerceArgs('[1]', full)).toBe('[1]')
  })

  it('repairs a union-typed root through the selected variant', () => {
    expect(coerceArgs({ kind: 'mediaGroup', media: s([{ id: 'a' }]) }, plan(send))).toEqual({ kind: 'mediaGroup', media: [{ id: 'a' }] })
  })

  it('an ambiguous union coerces only where every candidate agrees', () => {
    const ambiguous = z.union([
      z.object({ a: z.object({ x: z.number() }), b: z.object({ y: z.number() }) }),
      z.object({ a: z.object({ z: z.number() }), b: z.string() }),
    ])
    const out = coerceArgs({ a: s({ x: 1 }), b: s({ y: 1 }) }, plan(ambiguous))
    expect(out).toEqual({ a: { x: 1 }, b: s({ y: 1 }) })
  })

  it('a tool with no object or array to repair gets its arguments back as they are (a scalar waits for the second try)', () => {
    const flat = plan(z.object({ a: z.string(), n: z.number() }))
    expect(flat).toEqual({ properties: { n: { scalars: ['number'] } } })
    const args = { a: '{"x":1}', n: '1' }
    expect(coerceArgs(args, flat)).toBe(args)
    expect(coerceArgs(args, flat, undefined, readScalar)).toEqual({ a: '{"x":1}', n: 1 })
  })
})

describe('coerceArgs: recursive schemas follow named plans', () => {
  type Node = { v: string, left: Node | null, right: Node | null }
  const Node: z.ZodType<Node> = z.object({ v: z.string(), left: z.lazy(() => Node).nullable(), right: z.lazy(() => Node).nullable() })
  const tree = z.object({ tree: Node })

  it('repairs stringified nodes at any depth of a tree', () => {
    const leaf = (v: string): Node => ({ v, left: null, right: null })
    let value: Node = leaf('bottom')
    for (let depth = 0; depth < 8; depth++)
      value = { v: `n${depth}`, left: value, right: leaf(`r${depth}`) }
    const stringified = (node: Node | null): unknown => node && s({ ...node, left: stringified(node.left), right: stringified(node.right) })
    expect(coerceArgs({ tree: stringified(value) }, plan(tree))).toEqual({ tree: value })
    expect(tree.safeParse(coerceArgs({ tree: stringified(value) }, plan(tree))).success).toBe(true)
  })

  it('a place that takes a string as well as the definition parses nothing', () => {
    const either = z.object({ node: z.union([z.string(), Node]) })
    expect(coerceArgs({ node: s({ v: 'a', left: null, right: null }) }, plan(either))).toEqual({ node: s({ v: 'a', left: null, right: null }) })
  })

  it('params and input with definitions of the same name keep both', () => {
    const other: z.ZodType<{ w: number[], next: unknown }> = z.object({ w: z.array(z.number()), next: z.lazy(() => other).nullable() })
    const { coercion } = compileTool({ name: 't', params: z.object({ p: other }), input: z.object({ tree: Node }) })
    const repaired = coerceArgs({ p: s({ w: s([1]), next: s({ w: [2], next: null }) }), tree: s({ v: 'a', left: s({ v: 'b', left: null, right: null }), right: null }) }, coercion)
    expect(repaired).toEqual({ p: { w: [1], next: { w: [2], next: null } }, tree: { v: 'a', left: { v: 'b', left: null, right: null }, right: null } })
  })
})

describe('coerceArgs: hostile input costs bounded work', () => {
  const album = plan(send)
  const call = (media: unknown[]): unknown => coerceArgs({ kind: 'mediaGroup', media }, album)

  it('700,000 strings that cannot be JSON of the expected kind cost no parse at all', () => {
    const media = Array.from({ length: 700_000 }, () => '[')
    expect(call(media)).toEqual({ kind: 'mediaGroup', media })
    expect(lastCallCost().attempts).toBe(0)
  })

  it('an array longer than the schema allows is not walked: the parser rejects it at once', () => {
    const bounded = plan(z.object({ media: z.array(z.object({ url: z.string() })).max(10) }))
    expect(bounded.properties?.media?.maxItems).toBe(10)
    const media = Array.from({ length: 700_000 }, () => '{"url":"a"}')
    expect(coerceArgs({ media }, bounded)).toEqual({ media })
    expect(lastCallCost().attempts).toBe(0)
    expect(lastCallCost().work).toBeLessThan(10)
  })

  it('strings shaped like JSON but broken are parsed a bounded number of times', () => {
    call(Array.from({ length: 700_000 }, () => '{"url": }'))
    expect(lastCallCost().attempts).toBeLessThanOrEqual(4096)
  })

  it('JSON text that does not parse is parsed once for all the readings of a strict profile, and text that cannot be JSON not at all', () => {
    const tag = { name: 'tag', input: z.object({ items: z.array(z.object({ meta: z.record(z.string(), z.string()), note: z.string().optional() })) }) }
    const strict = compileTool(tag, { profile: 'openai-strict' })
    expect(triesOf(strict).length).toBe(3)
    const broken = Array.from({ length: 100 }, (_, i) => `{"k":"${i}x}`)
    const args = { items: [...broken, '0x', '{"k": ['].map(meta => ({ meta, note: null })) }
    const parse = vi.spyOn(JSON, 'parse')
    try {
      for (const [reading, scalars] of triesOf(strict))
        inverseArgs(args, strict, reading, scalars)
      // Once per broken text (it was twice per reading: six times); the last two end as no JSON text can.
      expect(parse.mock.calls.map(([text]) => text).sort()).toEqual([...broken].sort())
    }
    finally {
      parse.mockRestore()
    }
  })

  it('a getter that calls coerceArgs again shares the budget of the call it is inside', () => {
    const broken = Array.from({ length: 5000 }, () => '{"url": }')
    const args = { kind: 'mediaGroup', get media() {
      for (let i = 0; i < 10; i++)
        call(broken)
      return broken
    } }
    coerceArgs(args, album)
    expect(lastCallCost().attempts).toBeLessThanOrEqual(4096)
  })

  it('a sparse array of length 2^32 - 1 is left whole to the parser', () => {
    const media: unknown[] = []
    media.length = 2 ** 32 - 1
    expect(call(media)).toEqual({ kind: 'mediaGroup', media })
    expect(lastCallCost().work).toBeLessThanOrEqual(1 << 21)
  })

  it('a plan that refers to itself stops where the work budget ends', () => {
    const cyclic: CoercionPlan = { parse: 'object', additional: {} }
    cyclic.additional = cyclic
    cyclic.discriminator = { key: 'k', cases: { x: cyclic } }
    let value: unknown = { k: 'x' }
    for (let i = 0; i < 100; i++)
      value = { k: 'x', a: value, b: value, c: value }
    expect(() => coerceArgs(value, cyclic)).not.toThrow()
    expect(lastCallCost().work).toBeLessThanOrEqual(1 << 21)
  })
})

describe('coerceArgs: hostile input', () => {
  it('{"__proto__": …} pollutes nothing', () => {
    const out = coerceArgs({ target: '{"__proto__":{"polluted":1},"chat":"c"}' }, full) as any
    expect(({} as any).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(out.target)).toBe(Object.prototype)
    expect(out.target.polluted).toBeUndefined()
    const top = coerceArgs('{"__proto__":{"polluted":1}}', full) as any
    expect(Object.getPrototypeOf(top)).toBe(Object.prototype)
    expect(({} as any).polluted).toBeUndefined()
  })

  it('a plan cannot be tricked through inherited keys (constructor, toString)', () => {
    const out = coerceArgs({ constructor: '{"a":1}', toString: '[1]', send: { kind: 'constructor', media: '[]' } }, full)
    expect(out).toEqual({ constructor: '{"a":1}', toString: '[1]', send: { kind: 'constructor', media: '[]' } })
  })

  it('leaves the input unchanged', () => {
    const args = { target: s({ chat: 'c' }), matrix: [s([1])], byName: { a: s({ n: 1 }) } }
    const copy = structuredClone(args)
    const out = coerceArgs(args, full)
    expect(args).toEqual(copy)
    expect(out).not.toBe(args)
  })

  it('a 1 MB string and 10,000 levels of nesting return without throwing', () => {
    const big = `{"chat":"${'x'.repeat(1 << 20)}"}`
    expect(() => coerceArgs({ target: big }, full)).not.toThrow()
    let deep: unknown = 'end'
    for (let i = 0; i < 10_000; i++)
      deep = { target: deep, matrix: [deep] }
    expect(() => coerceArgs(deep, full)).not.toThrow()
    const deepText = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
    expect(coerceArgs({ tags: deepText }, full)).toBeDefined()
    let selfPlan: CoercionPlan = { parse: 'object' }
    for (let i = 0; i < 5000; i++)
      selfPlan = { parse: 'object', properties: { a: selfPlan } }
    expect(() => coerceArgs(deep, selfPlan)).not.toThrow()
  })

  it('a broken plan or arguments never throw', () => {
    for (const args of [undefined, null, 1, 'x', [], { target: 1 }])
      expect(() => coerceArgs(args, full)).not.toThrow()
    expect(() => coerceArgs({ a: '{}' }, { properties: null } as unknown as CoercionPlan)).not.toThrow()
    // Named plans that refer to themselves, or to nothing, end where the value ends.
    const looping: CoercionPlan = { properties: { a: { ref: 'x' }, b: { ref: 'missing' } }, defs: { x: { ref: 'x', parse: 'object', properties: { a: { ref: 'x' } } } } }
    let deep: unknown = '{}'
    for (let i = 0; i < 12; i++)
      deep = JSON.stringify({ a: deep })
    expect(() => coerceArgs({ a: deep, b: '[1]' }, looping)).not.toThrow()
    expect((coerceArgs({ a: '{"a":"{}"}', b: '[1]' }, looping) as Record<string, unknown>).b).toBe('[1]')
  })
})
