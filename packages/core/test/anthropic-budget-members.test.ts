// The strict budget shared between a gateway's members: each member with a strict candidate first
// chooses within an equal share, so one member's tool that costs the whole budget cannot cost every
// other member its strict tools; a list of one member is chosen as before.
import type { BudgetedTool } from '@flatmcp/core'
import { anthropicCost, ANTHROPIC_LIMITS, chooseStrict, DEFAULT_STRICT_BUDGET, grammarCost } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { knowledgeBase, sevenSimple, time, weather } from './anthropic-budget-cases'

type Props = Record<string, object>
const tool = (name: string, properties: Props, member?: string): BudgetedTool => ({
  name,
  schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
  ...(member === undefined ? {} : { member }),
})
const enumOf = (n: number): object => ({ enum: Array.from({ length: n }, (_, i) => `v${i}`) })
/** One tool of high gain that costs about the whole default budget: twenty-two enum keys (48 points). */
const hostile = tool('grab', Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`k${i}`, enumOf(4)])), 'evil')
const strictOf = (list: readonly BudgetedTool[], budget?: number): string[] => chooseStrict(list, budget).tools.filter(t => t.strict).map(t => t.name).sort()

describe('the strict budget between members', () => {
  const small = [tool('a_pick', { mode: enumOf(3) }, 'alpha'), tool('b_count', { n: { type: 'integer' } }, 'beta')]

  it('keeps each member\'s small tools strict beside another member\'s tool that costs the whole budget', () => {
    expect(grammarCost(hostile.schema).points).toBe(DEFAULT_STRICT_BUDGET)
    // By the list's rule alone, its gain takes the whole budget and no other tool fits.
    expect(strictOf([hostile, ...small].map(({ member: _, ...t }) => t))).toEqual(['grab'])
    const choice = chooseStrict([hostile, ...small])
    expect(choice.tools.filter(t => t.strict).map(t => t.name).sort()).toEqual(['a_pick', 'b_count'])
    expect(choice.tools.find(t => t.name === 'grab')!.reason).toMatch(/over the strict budget: .*\(each of 3 servers first kept within its share of 16 points\)/)
    expect(choice.spent).toBeLessThanOrEqual(DEFAULT_STRICT_BUDGET)
  })

  it('fills what the members leave of their shares by the list\'s rule', () => {
    // Shares of 40 each: the 48-point tool fits once the two small ones (15 points) are kept, within 120.
    expect(strictOf([hostile, ...small], 120)).toEqual(['a_pick', 'b_count', 'grab'])
  })

  it('chooses the same tools however the list is ordered, alike tools by name', () => {
    const alike = ['alpha', 'beta', 'gamma'].flatMap(member => Array.from({ length: 4 }, (_, i) => ({ ...time, name: `${member}_t${i}`, member })))
    const chosen = strictOf(alike, 30)
    expect(chosen).toEqual(['alpha_t0', 'alpha_t1', 'beta_t0', 'beta_t1', 'gamma_t0', 'gamma_t1'])
    expect(strictOf([...alike].reverse(), 30)).toEqual(chosen)
  })

  it('chooses a list of one member, or of none named, as the list\'s rule does', () => {
    for (const list of [knowledgeBase, sevenSimple, [weather, time], [hostile, ...small].map(t => ({ ...t, member: 'one' }))]) {
      const bare = list.map(({ member: _, ...t }) => t)
      for (const budget of [0, 20, 40, DEFAULT_STRICT_BUDGET, 100])
        expect(chooseStrict(list, budget)).toEqual(chooseStrict(bare, budget))
    }
  })
})

// Tools of one to four members, each a few keys of enums, integers, optional strings and unions.
const key = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'integer' }),
  fc.integer({ min: 1, max: 16 }).map(enumOf),
  fc.constant({ anyOf: [{ type: 'string' }, { type: 'integer' }] }),
)
const member = fc.record({
  name: fc.constantFrom('m0', 'm1', 'm2', 'm3'),
  tools: fc.array(fc.record({ keys: fc.array(key, { minLength: 1, maxLength: 12 }), optional: fc.nat({ max: 3 }) }), { minLength: 1, maxLength: 5 }),
})
const listOf = (members: { name: string, tools: { keys: object[], optional: number }[] }[]): BudgetedTool[] =>
  [...new Map(members.map(m => [m.name, m])).values()].flatMap(m => m.tools.map(({ keys, optional }, i) => ({
    name: `${m.name}_${i}`,
    member: m.name,
    schema: { type: 'object', properties: Object.fromEntries(keys.map((k, j) => [`k${j}`, k])), required: keys.map((_, j) => `k${j}`).slice(optional), additionalProperties: false } as BudgetedTool['schema'],
  })))

describe('the member shares, by property', () => {
  it('leaves no member with a tool that fits its share without strict, another member beside it', () => {
    fc.assert(fc.property(fc.array(member, { minLength: 2, maxLength: 6 }), fc.nat({ max: 200 }), (members, budget) => {
      const list = listOf(members)
      const names = [...new Set(list.map(t => t.member!))]
      fc.pre(names.length >= 2)
      const choice = chooseStrict(list, budget)
      const n = names.length
      const fits = (t: BudgetedTool): boolean => {
        const limits = anthropicCost(t.schema)
        return grammarCost(t.schema).points <= budget / n && 1 <= ANTHROPIC_LIMITS.tools / n && limits.optional <= ANTHROPIC_LIMITS.optional / n && limits.unions <= ANTHROPIC_LIMITS.unions / n
      }
      const strict = new Set(choice.tools.filter(t => t.strict).map(t => t.name))
      for (const name of names) {
        const own = list.filter(t => t.member === name)
        if (own.some(fits))
          expect(own.some(t => strict.has(t.name)), name).toBe(true)
      }
      expect(choice.spent).toBeLessThanOrEqual(budget)
      expect(strict.size).toBeLessThanOrEqual(ANTHROPIC_LIMITS.tools)
    }), { seed: 67, numRuns: 300 })
  })
})
