// An upstream's list in anthropic-strict keeps within the strict grammar budget: seven plain tools
// (anthropic-sdk-typescript #885's refused count) are not all strict, each left out says why, the
// operator's budget is taken, and a tool left out is compiled again when the list changes.
import { compileUpstreamList, fallbacksOf, readUpstreamList } from '@flatmcp/runtime/proxy'
import { grammarCost } from '@flatmcp/core'
import { describe, expect, it } from 'vitest'

const plain = (name: string): object => ({
  name,
  inputSchema: { type: 'object', properties: { id: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } }, verbose: { type: 'boolean' } }, required: ['id'] },
})
const chosen = { name: 'set_state', inputSchema: { type: 'object', properties: { state: { enum: ['open', 'closed'] }, at: { type: 'string', format: 'date-time' } }, required: ['state', 'at'] } }
const seven = [...['a', 'b', 'c', 'd', 'e', 'f'].map(plain), chosen]

describe('the anthropic-strict budget over an upstream list', () => {
  it('serves strict only what fits the default budget, the rest portable with the reason', async () => {
    const list = await compileUpstreamList(await readUpstreamList(seven, () => {}), { profiles: ['anthropic-strict'] })
    const strict = list.tools.filter(tool => tool.precomputed.profiles!['anthropic-strict']!.strict === true)
    expect(strict.length).toBeLessThan(7)
    expect(strict.reduce((sum, tool) => sum + grammarCost(tool.precomputed.profiles!['anthropic-strict']!.inputSchema).points, 0)).toBeLessThanOrEqual(48)
    // The enum and the format buy more than three plain keys: that tool keeps strict.
    expect(strict.map(tool => tool.name)).toContain('set_state')
    const out = list.tools.find(tool => tool.precomputed.profiles!['anthropic-strict']!.strict === false)!
    expect(out.precomputed.profiles!['anthropic-strict']!.inputSchema).toEqual(out.precomputed.tool.inputSchema)
    expect(out.schemaHash!['anthropic-strict']).toBe(out.schemaHash!.portable)
    expect(fallbacksOf(out).join('\n')).toMatch(/served as portable, not anthropic-strict: over the strict budget: .* of a grammar budget of 48 points/)
  })

  it('takes the operator\'s budget, and compiles a tool left out again when the list changes', async () => {
    const entries = await readUpstreamList(seven, () => {})
    const wide = await compileUpstreamList(entries, { profiles: ['anthropic-strict'], strictBudget: 500 })
    expect(wide.tools.every(tool => tool.precomputed.profiles!['anthropic-strict']!.strict === true)).toBe(true)
    const tight = await compileUpstreamList(entries, { profiles: ['anthropic-strict'] })
    // Four tools fewer: what the budget left out before fits now.
    const fewer = await compileUpstreamList(entries.slice(4), { profiles: ['anthropic-strict'], known: [{ preset: tight.preset, tools: tight.tools }] })
    expect(fewer.tools.every(tool => tool.precomputed.profiles!['anthropic-strict']!.strict === true)).toBe(true)
  })
})
