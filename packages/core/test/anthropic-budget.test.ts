// Anthropic's strict grammar budget: every list the threads report refused is over the default, its
// own small examples within; the cost never falls as a schema grows; the strict tools chosen never
// spend more than the budget.
import type { BudgetedTool } from '@flatmcp/core'
import { chooseStrict, DEFAULT_STRICT_BUDGET, grammarCost, strictGain } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FAILING, knowledgeBase, time, weather } from './anthropic-budget-cases'

const listCost = (list: BudgetedTool[]): number => list.reduce((sum, tool) => sum + grammarCost(tool.schema).points, 0)

describe('the grammar budget', () => {
  for (const [thread, list] of Object.entries(FAILING)) {
    it(`puts ${thread} over the default budget, and serves strict only what fits`, () => {
      expect(listCost(list)).toBeGreaterThan(DEFAULT_STRICT_BUDGET)
      const choice = chooseStrict(list)
      expect(choice.tools.filter(tool => !tool.strict).length).toBeGreaterThan(0)
      expect(choice.spent).toBeLessThanOrEqual(DEFAULT_STRICT_BUDGET)
      for (const tool of choice.tools.filter(tool => !tool.strict))
        expect(tool.reason).toMatch(/over the strict budget/)
    })
  }

  it('keeps Anthropic\'s own small examples strict', () => {
    expect(grammarCost(weather.schema).points).toBe(10)
    const choice = chooseStrict([weather, time])
    expect(choice.tools.map(tool => tool.strict)).toEqual([true, true])
    expect(choice.spent).toBe(15)
  })

  it('keeps strict first the tools strictness buys most', () => {
    // kb_manage's enum and kb_search's integer gain more than kb_list's two plain strings.
    const choice = chooseStrict(knowledgeBase, 40)
    const kept = choice.tools.filter(tool => tool.strict).map(tool => tool.name)
    expect(kept).toContain('kb_manage')
    expect(kept).not.toContain('kb_list')
    expect(strictGain(knowledgeBase[0]!.schema)).toBe(0)
  })

  it('takes the budget the operator sets', () => {
    expect(chooseStrict(knowledgeBase, 1000).tools.every(tool => tool.strict)).toBe(true)
    expect(chooseStrict(knowledgeBase, 0).tools.some(tool => tool.strict)).toBe(false)
  })

  it('keeps nothing strict for a budget that is no number (a library caller\'s NaN or text), as for none', () => {
    // Every comparison with NaN is false, so such a budget kept every tool strict: the list Anthropic refuses.
    for (const budget of [Number.NaN, 'many' as unknown as number, -1]) {
      const choice = chooseStrict(knowledgeBase, budget)
      expect(choice.tools.some(tool => tool.strict), String(budget)).toBe(false)
      expect(choice.spent).toBe(0)
    }
  })

  it('chooses the same tools however the upstream orders its list', () => {
    // Ties went to the list's order, so a server that reorders its list on each change flipped tools between strict and not.
    const alike = Array.from({ length: 6 }, (_, i) => ({ ...time, name: `t${i}` }))
    const strictOf = (list: BudgetedTool[]): string[] => chooseStrict(list, 20).tools.filter(tool => tool.strict).map(tool => tool.name).sort()
    expect(strictOf(alike).length).toBeGreaterThan(0)
    expect(strictOf([...alike].reverse())).toEqual(strictOf(alike))
  })

  it('keeps to the documented 20 strict tools whatever the budget', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...time, name: `t${i}` }))
    expect(chooseStrict(many, 10_000).tools.filter(tool => tool.strict)).toHaveLength(20)
  })
})

// A strict schema of nested closed objects, unions, enums and arrays.
const leaf = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'integer' }),
  fc.constantFrom(['a'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd', 'e']).map(values => ({ enum: values })),
  fc.constant({ type: 'string', pattern: '^x+$' }),
  fc.constant({ type: 'string', format: 'date-time' }),
)
const { node } = fc.letrec<{ node: Record<string, unknown> }>(tie => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ keys: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), tie('node'), { maxKeys: 4 }), required: fc.array(fc.boolean(), { maxLength: 4 }) }).map(({ keys, required }) =>
      ({ type: 'object', properties: keys, required: Object.keys(keys).filter((_, i) => required[i]), additionalProperties: false })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map(branches => ({ anyOf: branches })),
    tie('node').map(items => ({ type: 'array', items })),
  ),
}))

/** Every object node of a schema, to grow one. */
function objects(schema: unknown, found: Record<string, any>[] = []): Record<string, any>[] {
  if (typeof schema !== 'object' || schema === null)
    return found
  const node = schema as Record<string, any>
  if (node.properties)
    found.push(node)
  Object.values(node.properties ?? {}).forEach(child => objects(child, found))
  ;(node.anyOf ?? []).forEach((branch: unknown) => objects(branch, found))
  objects(node.items, found)
  return found
}

const root = node.map(child => ({ type: 'object', properties: { a: child }, required: ['a'], additionalProperties: false }))

describe('the estimate, by property', () => {
  it('never falls when an optional key or a union branch is added', () => {
    fc.assert(fc.property(root, fc.nat(), fc.boolean(), (schema, at, asBranch) => {
      const before = grammarCost(schema).points
      const grown = structuredClone(schema) as Record<string, any>
      const places = objects(grown)
      const place = places[at % places.length]!
      const key = Object.keys(place.properties)[0]
      if (asBranch && key !== undefined) {
        const child = place.properties[key]
        place.properties[key] = Array.isArray(child.anyOf) ? { anyOf: [...child.anyOf, { type: 'boolean' }] } : { anyOf: [child, { type: 'boolean' }] }
      }
      else {
        place.properties[`${Object.keys(place.properties).join('')}_`] = { type: 'string' }
      }
      expect(grammarCost(grown).points).toBeGreaterThan(before)
    }), { seed: 67, numRuns: 300 })
  })

  it('never serves strict tools that spend more than the budget', () => {
    fc.assert(fc.property(fc.array(root, { maxLength: 12 }), fc.nat({ max: 200 }), (schemas, budget) => {
      const choice = chooseStrict(schemas.map((schema, i) => ({ name: `t${i}`, schema: schema as BudgetedTool['schema'] })), budget)
      const strict = choice.tools.filter(tool => tool.strict)
      expect(strict.reduce((sum, tool) => sum + tool.cost.points, 0)).toBe(choice.spent)
      expect(choice.spent).toBeLessThanOrEqual(budget)
      expect(strict.length).toBeLessThanOrEqual(20)
    }), { seed: 67, numRuns: 300 })
  })
})
