// Target profiles against the vendors' own code, over a generated corpus (300 tool inputs and the example
// server's tools): OpenAI's `toStrictJsonSchema` and `@openai/agents`, Anthropic's `transformJSONSchema`, the
// meta-schemas VS Code and Anthropic check with, a checker of Gemini's `parameters` rules, and the probe's own
// rules as a fixed point. Its rules one by one are targets.test.ts.
import type { CompiledTool, ProfileName, TargetProfile } from '@flatmcp/core'
import { compileTool, modelAnswer, PROFILE_NAMES, profileViolations } from '@flatmcp/core'
import { inverseArgs } from '@flatmcp/runtime/coerce'
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema'
import { tool as agentsTool } from '@openai/agents'
import fc from 'fast-check'
import { toStrictJsonSchema } from 'openai/lib/transform'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { tools as exampleTools } from '../../../examples/chat-server/src/tools'
import { cases, toZod } from '../../../test/support/schema-arbitrary'
import { geminiViolations, metaValid } from './target-oracles'

/** Generated tool inputs and the example server's tools: the corpus every oracle judges. */
const corpus: { name: string, input: unknown }[] = [
  ...exampleTools.map(t => ({ name: t.name, input: t.input })),
  ...fc.sample(cases, { numRuns: 300, seed: 7 }).map(([s], i) => ({ name: `generated-${i}`, input: toZod(s) })),
]

function compiled(profile: ProfileName | TargetProfile): CompiledTool[] {
  return corpus.map(({ name, input }) => compileTool({ name, input }, { profile }))
}

describe('oracles', () => {
  it('openai-strict: toStrictJsonSchema gives every strict tool back unchanged, and @openai/agents builds it', () => {
    let strict = 0
    for (const tool of compiled('openai-strict')) {
      if (tool.strict === false)
        continue
      strict++
      expect(toStrictJsonSchema(tool.inputSchema as never), tool.name).toEqual(tool.inputSchema)
      expect(() => agentsTool({ name: 'generated', description: '', parameters: tool.inputSchema as never, strict: true, execute: async () => '' }), tool.name).not.toThrow()
    }
    expect(strict).toBeGreaterThan(corpus.length / 2)
  })

  it('openai-strict: a tool past OpenAI\'s limits (which its SDK does not check) falls back, said with the reason', () => {
    const big = compileTool({ name: 'big', input: z.object({ pick: z.enum(Array.from({ length: 300 }, (_, n) => `a value long enough to count toward the enum's characters ${n}`) as [string, ...string[]]) }) }, { profile: 'openai-strict' })
    expect(big.strict).toBe(false)
    expect(big.diagnostics.find(d => d.code === 'strict-fallback')?.message).toMatch(/an enum of 300 values and \d+ characters/)
  })

  it('openai-strict: a loose root is closed with a rest key that toStrictJsonSchema takes as it is', () => {
    const loose = compileTool({ name: 'loose', input: z.looseObject({ a: z.string() }) }, { profile: 'openai-strict' })
    expect(loose.strict).toBe(true)
    expect(loose.decode).toEqual({ rest: 'other_keys' })
    expect(toStrictJsonSchema(loose.inputSchema as never)).toEqual(loose.inputSchema)
    expect(inverseArgs({ a: 'x', other_keys: '{"b":[1],"other_keys":2}' }, loose)).toEqual({ a: 'x', b: [1], other_keys: 2 })
  })

  it('anthropic-strict: transformJSONSchema gives every strict tool back unchanged', () => {
    let strict = 0
    for (const tool of compiled('anthropic-strict')) {
      if (tool.strict === false)
        continue
      strict++
      expect(transformJSONSchema(tool.inputSchema as never), tool.name).toEqual(tool.inputSchema)
    }
    expect(strict).toBeGreaterThan(corpus.length / 3)
  })

  // `minimal` keeps zod's `$schema` (2020-12), which VS Code's draft-07 validator does not know.
  it.each(PROFILE_NAMES.filter(name => name !== 'minimal'))('%s: every tool is valid draft-07 (as VS Code checks it) and valid 2020-12', (profile) => {
    for (const tool of compiled(profile))
      expect(metaValid(tool.inputSchema), tool.name).toEqual([])
  })

  it('gemini: every tool keeps to the OpenAPI parameters subset; names it cannot take are warnings', () => {
    for (const tool of compiled('gemini')) {
      expect(geminiViolations(tool.inputSchema, { names: false }), tool.name).toEqual([])
      const badNames = geminiViolations(tool.inputSchema).filter(v => v.includes('parameter name')).length
      expect(tool.diagnostics.filter(d => d.code === 'target-limit').length, tool.name).toBe(badNames)
    }
  })

  it('every profile\'s output is what the probe accepts (a fixed point of its rules)', () => {
    for (const profile of PROFILE_NAMES) {
      for (const tool of compiled(profile))
        expect(profileViolations(tool.inputSchema, tool.strict === false ? 'portable' : profile), `${profile} ${tool.name}`).toEqual([])
    }
  })
})

describe('a key that takes any value, where a union\'s records meet', () => {
  // The flattening names the records' known keys with `true` (any value); a strict target has no `true`.
  const record = z.record(z.enum(['a', 'id']), z.number().catch(0))
  const input = z.object({ root: z.union([z.object({ x: record }), z.object({ x: record.nullable() })]) })

  it('is sent as JSON text in openai-strict and anthropic-strict, which their SDKs give back unchanged, and read back', () => {
    const openai = compileTool({ name: 't', input }, { profile: 'openai-strict' })
    const anthropic = compileTool({ name: 't', input }, { profile: 'anthropic-strict' })
    expect([openai.strict, anthropic.strict]).toEqual([true, true])
    expect(toStrictJsonSchema(openai.inputSchema as never)).toEqual(openai.inputSchema)
    expect(transformJSONSchema(anthropic.inputSchema as never)).toEqual(anthropic.inputSchema)
    const value = { root: { x: { a: 5, id: 7 } } }
    for (const tool of [openai, anthropic])
      expect(input.parse(inverseArgs(modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true }), tool))).toEqual(value)
  })
})

describe('a value any JSON takes, in a member\'s JSON Schema (`true` at a key, as an array\'s items, as a branch)', () => {
  const members: Record<string, Record<string, unknown>> = {
    'a key': { type: 'object', properties: { x: true }, required: ['x'] },
    'an array\'s items': { type: 'object', properties: { x: { type: 'array', items: true } }, required: ['x'] },
    'a branch': { type: 'object', properties: { x: { anyOf: [true, { type: 'string' }] } }, required: ['x'] },
  }

  it.each(Object.keys(members))('at %s is sent as JSON text that OpenAI\'s and Anthropic\'s SDKs give back unchanged, and read back', (name) => {
    const openai = compileTool({ name: 't', input: members[name]! } as never, { profile: 'openai-strict' })
    const anthropic = compileTool({ name: 't', input: members[name]! } as never, { profile: 'anthropic-strict' })
    expect([openai.strict, anthropic.strict]).toEqual([true, true])
    expect(toStrictJsonSchema(openai.inputSchema as never)).toEqual(openai.inputSchema)
    expect(transformJSONSchema(anthropic.inputSchema as never)).toEqual(anthropic.inputSchema)
    const value = { x: name === 'an array\'s items' ? [{ a: [1, null] }, 'b'] : { a: [1, null] } }
    for (const tool of [openai, anthropic])
      expect(inverseArgs(modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true }), tool)).toEqual(value)
  })
})
