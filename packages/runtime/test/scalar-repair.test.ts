// Scalar repair (SPEC §5 rule 4): a string that is the canonical JSON text of a number, an integer, a
// boolean or null is read as that value where the original takes no string there, and only once the
// original rejected the arguments as sent. Through the plan, `flat()` and a served tool.
import type { ToolDefinition } from '@flatmcp/runtime'
import { compileTool } from '@flatmcp/core'
import { attachCompiled, coerceArgs, defineTool, flat, toPrecomputed } from '@flatmcp/runtime'
import { readScalar } from '@flatmcp/runtime/coerce'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const Input = z.object({
  n: z.number(),
  i: z.number().int(),
  b: z.boolean(),
  z: z.null(),
  s: z.string(),
  either: z.union([z.string(), z.number()]),
  maybe: z.number().nullable().optional(),
  deep: z.object({ limit: z.number().max(10) }).optional(),
  list: z.array(z.boolean()).optional(),
})
const plan = compileTool({ name: 'scalars', input: Input }).coercion

describe('scalar repair: the plan', () => {
  it('lists the scalar kinds a place takes, and none where it takes a string', () => {
    expect(plan.properties).toMatchObject({
      n: { scalars: ['number'] },
      i: { scalars: ['number'] },
      b: { scalars: ['boolean'] },
      z: { scalars: ['null'] },
      maybe: { scalars: ['number', 'null'] },
      deep: { parse: 'object', properties: { limit: { scalars: ['number'] } } },
      list: { parse: 'array', items: { scalars: ['boolean'] } },
    })
    expect(plan.properties).not.toHaveProperty('s')
    expect(plan.properties).not.toHaveProperty('either')
  })

  it('reads canonical JSON text only when asked (a second try), and never on a path that takes a string', () => {
    const args = { n: '5', i: '-3', b: 'false', z: 'null', s: '5', either: '5', maybe: 'null', deep: '{"limit":"2.5"}', list: '["true",false]' }
    expect(coerceArgs(args, plan)).toEqual({ ...args, deep: { limit: '2.5' }, list: ['true', false] })
    expect(coerceArgs(args, plan, undefined, readScalar)).toEqual({ n: 5, i: -3, b: false, z: null, s: '5', either: '5', maybe: null, deep: { limit: 2.5 }, list: [true, false] })
    expect(args.n).toBe('5')
  })

  it('leaves text that is not the canonical JSON of a value the place takes', () => {
    for (const text of ['5.0', ' 5', '5 ', '+5', '1e3', '1E+3', '0x10', '05', '-0', 'NaN', 'Infinity', '', 'TRUE', 'True', 'nul', '1'.repeat(40), '"5"']) {
      const out = coerceArgs({ n: text, b: text, z: text }, plan, undefined, readScalar) as Record<string, unknown>
      expect(out, text).toEqual({ n: text, b: text, z: text })
    }
    // A kind the place does not take stays text: `"true"` at a number, `"5"` at a boolean.
    expect(coerceArgs({ n: 'true', b: '5', z: '0' }, plan, undefined, readScalar)).toEqual({ n: 'true', b: '5', z: '0' })
    expect(coerceArgs({ n: '1e+21', i: '0.5' }, plan, undefined, readScalar)).toEqual({ n: 1e21, i: 0.5 })
  })

  it('hostile arguments: no throw, no prototype write, the input untouched', () => {
    const anyArgs = fc.dictionary(fc.constantFrom('n', 'b', 'z', 'deep', 'list', '__proto__', 'constructor', 'x'), fc.oneof(fc.jsonValue(), fc.constantFrom('5', 'true', 'null', '{"limit":"1"}', '{"__proto__":{"polluted":"1"}}', '["true"]')))
    fc.assert(fc.property(anyArgs, (args) => {
      const before = JSON.stringify(args)
      coerceArgs(args, plan, undefined, readScalar)
      expect(JSON.stringify(args)).toBe(before)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    }), { numRuns: 2000 })
  })
})

describe('scalar repair: after the original rejected the arguments', () => {
  it('flat(): a stringified number, integer, boolean and null are repaired; what the original accepts as sent is not', () => {
    const schema = flat(Input, { name: 'scalars' })
    const result = schema['~standard'].validate({ n: '5', i: '3', b: 'true', z: 'null', s: '7', either: '8' })
    expect(result).toEqual({ value: { n: 5, i: 3, b: true, z: null, s: '7', either: '8' } })
    // `.catch()` accepts the string as sent: zod's own reading (the fallback) stands.
    const caught = flat(z.object({ n: z.number().catch(0) }), { name: 'caught' })
    expect(caught['~standard'].validate({ n: '5' })).toEqual({ value: { n: 0 } })
    // Still rejected after the repair: the issues are the repaired reading's, about what is wrong with the value, not that it was a string.
    const rejected = schema['~standard'].validate({ n: '5', i: '3.5', b: 'true', z: 'null', s: '7', either: '8' }) as { issues?: { path?: unknown[], message: string }[] }
    expect(rejected.issues?.map(issue => issue.path?.join('.'))).toEqual(['i'])
    expect(rejected.issues?.[0]?.message).toMatch(/int/i)
  })

  it('a served tool: the handler gets the values, and a string where the tool takes one stays a string', async () => {
    const seen: unknown[] = []
    const tool: ToolDefinition = defineTool({
      name: 'count',
      input: z.object({ count: z.number().int().min(1), dryRun: z.boolean().default(false), label: z.string(), code: z.union([z.string(), z.number()]) }),
      handler: (input) => {
        seen.push(input)
        return 'ok'
      },
    })
    attachCompiled(tool, toPrecomputed(compileTool({ name: 'count', input: tool.input })))
    const server = createMcpServer([tool], { name: 'test', version: '1.0.0' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'test-client', version: '1.0.0' })
    await client.connect(clientSide)
    const answer = await client.callTool({ name: 'count', arguments: { count: '3', dryRun: 'true', label: '12', code: '007' } })
    expect(answer.isError).toBeFalsy()
    expect(seen).toEqual([{ count: 3, dryRun: true, label: '12', code: '007' }])
    const refused = await client.callTool({ name: 'count', arguments: { count: '0', label: 'x', code: 1 } })
    expect(refused.isError).toBe(true)
    expect(JSON.stringify(refused.content)).toMatch(/count/)
    await client.close()
  })
})

describe('the readings of a call, bounded', () => {
  /** Holds the thread for `ms`: a check that costs that much. */
  const hold = (ms: number): void => {
    const until = Date.now() + ms
    while (Date.now() < until)
      continue
  }

  /**
   * A served tool built for openai-strict (three readings of nulls, each again with scalars) whose
   * original counts its checks of a structurally valid reading, each taking `cost` ms, and then
   * refuses it (with `refuse`).
   */
  async function strictTool(input: z.ZodObject, options: { cost?: number, refuse?: boolean } = {}): Promise<{ client: Client, checks: () => number }> {
    let checks = 0
    const counted = input.superRefine(() => {
      checks++
      hold(options.cost ?? 0)
    }).refine(() => !options.refuse, 'refused')
    const tool: ToolDefinition = defineTool({ name: 'page', input: counted, handler: () => 'ok' })
    attachCompiled(tool, toPrecomputed(compileTool({ name: 'page', input }), [compileTool({ name: 'page', input }, { profile: 'openai-strict' })]))
    const server = createMcpServer([tool], { name: 'test', version: '1.0.0' }, { profile: 'openai-strict' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'test-client', version: '1.0.0' })
    await client.connect(clientSide)
    return { client, checks: () => checks }
  }

  it('a stringified number the original still rejects is reported with the repaired reading\'s issue (the range), not "expected number"', async () => {
    const { client } = await strictTool(z.object({ query: z.string(), limit: z.number().int().min(1).max(100).nullable() }))
    const answer = await client.callTool({ name: 'page', arguments: { query: 'q', limit: '101' } }) as { isError?: boolean, content: { text: string }[] }
    expect(answer.isError).toBe(true)
    expect(answer.content[0]!.text).toMatch(/limit: Too big: expected number to be <=100/)
    expect(answer.content[0]!.text).not.toMatch(/received string|got string/)
  })

  it('after a check of 50 ms or more, a reading the same as one already checked is not checked again: a body with no null and no stringified scalar is checked once', async () => {
    const { client, checks } = await strictTool(z.object({ items: z.array(z.number()), note: z.string().nullable() }), { cost: 80, refuse: true })
    const answer = await client.callTool({ name: 'page', arguments: { items: [0, 1, 2], note: 'n' } }) as { isError?: boolean }
    expect(answer.isError).toBe(true)
    expect(checks()).toBe(1)
  })

  it('after a check that took over a second, no further reading is tried: a body slow to check is not checked six times', async () => {
    const { client, checks } = await strictTool(z.object({ items: z.array(z.number()), note: z.string().nullable().optional() }), { cost: 1100, refuse: true })
    // A null the readings read differently (null, or a left-out key), and a number as text: distinct readings.
    const answer = await client.callTool({ name: 'page', arguments: { items: ['1'], note: null } }) as { isError?: boolean }
    expect(answer.isError).toBe(true)
    expect(checks()).toBe(1)
  })
})
