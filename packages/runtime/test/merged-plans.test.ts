// Alternatives of a union a value fits alike, followed as one plan below it: a null kept where any of
// them keeps it, at any depth, within bounds whatever sets of alternatives a caller's values fit.
import { compileTool, modelAnswer } from '@flatmcp/core'
import { describe, expect, it } from 'vitest'
import { inverseArgs, readingsOf } from '../src/coerce/inverse-args'
import { MAX_KEPT, MAX_MERGED, mergeCost } from '../src/coerce/merged-plans'

const COUNT = 12
const keys = Array.from({ length: COUNT }, (_, i) => `x${i}`)
/** A closed object whose `q` takes null only where `nullable`, holding two more, `depth` deep (each merged place by place). */
const nested = (nullable: boolean, depth: number): object => ({
  type: 'object',
  properties: { q: { type: nullable ? ['string', 'null'] : 'string' }, r: { type: 'string' }, ...(depth > 0 ? { b: nested(nullable, depth - 1), c: nested(nullable, depth - 1) } : {}) },
  required: ['q'],
  additionalProperties: false,
})
/** Alternative `i` names every `x` key but its own, and an `a` whose `q` takes null only where `i` is odd. */
const alternative = (i: number): object => ({
  type: 'object',
  properties: {
    ...Object.fromEntries(keys.filter((_, j) => j !== i).map(key => [key, { type: 'string' }])),
    a: nested(i % 2 === 1, 4),
  },
  required: ['a'],
  additionalProperties: false,
})
const input = { type: 'object', properties: { v: { anyOf: keys.map((_, i) => alternative(i)) } }, required: ['v'], additionalProperties: false }

describe('alternatives a value fits alike', () => {
  const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })

  it('is a strict tool (its nulls stand for keys left out)', () => {
    expect(tool.strict).toBe(true)
  })

  it('keep a null below them where any of them takes it, and drop one none takes', () => {
    // Fits every alternative but 1 (it sends x1), the first of them even: odd ones take `a.q` null; `a.r` is optional in all.
    expect(inverseArgs({ v: { x1: 's', a: { q: null, r: null } } }, tool)).toEqual({ v: { x1: 's', a: { q: null } } })
    expect(inverseArgs({ v: { x1: 's', a: { q: 'q', r: null, b: { q: null, c: { q: null, r: null } } } } }, tool)).toEqual({ v: { x1: 's', a: { q: 'q', b: { q: null, c: { q: null } } } } })
    // Fits only the even alternatives (it sends every odd key): none takes `a.q` null.
    const odd = Object.fromEntries(keys.filter((_, j) => j % 2).map(key => [key, 's']))
    expect(inverseArgs({ v: { ...odd, a: { q: null } } }, tool)).toEqual({ v: { ...odd, a: {} } })
  })

  it('are merged within bounds, the reading the same where the process lets go of what it kept', () => {
    // Every set of alternatives a value may fit (the keys it sends say which), each read once.
    for (let set = 0; set < 1 << COUNT; set++) {
      const sent = Object.fromEntries(keys.filter((_, j) => set & (1 << j)).map(key => [key, 's']))
      const takesNull = keys.some((_, i) => i % 2 === 1 && !(set & (1 << i)))
      const fits = keys.filter((_, i) => !(set & (1 << i))).length
      const back = inverseArgs({ v: { ...sent, a: { q: null, r: null } } }, tool)
      expect(back, JSON.stringify(sent)).toEqual(fits === 0 ? { v: { ...sent, a: { q: null, r: null } } } : { v: { ...sent, a: takesNull ? { q: null } : {} } })
      expect(mergeCost().reading).toBeLessThanOrEqual(MAX_MERGED)
    }
    // The sets merged above make more places than the process keeps: it let go of what it kept, and read on.
    expect(mergeCost().flushed).toBeGreaterThan(0)
    expect(mergeCost().kept).toBeLessThanOrEqual(MAX_KEPT)
    // And keeps again: a set merged after that costs its next reading nothing (a caller cannot use up
    // the room for every later call).
    const again = { v: { x3: 's', x5: 's', a: { q: null } } }
    inverseArgs(again, tool)
    inverseArgs(again, tool)
    expect(mergeCost().reading).toBe(0)
  })
})

describe('alternatives named by $ref, past the bound of one reading', () => {
  // Each alternative a recursive definition (its plan a `{ ref }`), so the first plan followed past the bound names its plan.
  const definitions = Object.fromEntries(keys.map((_, i) => [`D${i}`, {
    type: 'object',
    properties: { ...Object.fromEntries(keys.filter((_, j) => j !== i).map(key => [key, { type: 'string' }])), n: { type: ['string', 'null'] }, o: { type: 'string' }, a: nested(false, 4), self: { $ref: `#/$defs/D${i}` } },
    required: ['n'],
    additionalProperties: false,
  }]))
  const input = { type: 'object', $defs: definitions, properties: { v: { type: 'array', items: { anyOf: keys.map((_, i) => ({ $ref: `#/$defs/D${i}` })) } } }, required: ['v'], additionalProperties: false }
  const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })

  it('still drop the nulls of keys left out (the first plan is resolved), a real null kept', () => {
    // One call whose elements fit 200 different sets of alternatives: more places than one reading may merge.
    const value = { v: Array.from({ length: 200 }, (_, set) => ({ ...Object.fromEntries(keys.filter((_, j) => set & (1 << j)).map(key => [key, 's'])), n: null })) }
    const written = modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true })
    // Only the first reading keeps `n`'s real null; the others drop it, and the original requires `n`.
    expect(inverseArgs(written, tool, readingsOf(tool.coercion)[0])).toEqual(value)
    expect(mergeCost().reading).toBe(MAX_MERGED)
  })
})

describe('alternatives whose definitions recur in cycles of different lengths', () => {
  // Five alternatives, each a cycle of definitions (lengths 5, 7, 8, 9, 11): merged, their places pair
  // up in one chain as long as the lengths' least common multiple, which the merge walks depth first.
  const lengths = [5, 7, 8, 9, 11]
  const definitions: Record<string, object> = {}
  lengths.forEach((length, k) => {
    for (let i = 0; i < length; i++)
      definitions[`C${k}_${i}`] = { type: 'object', properties: { q: { type: 'string' }, n: { $ref: `#/$defs/C${k}_${(i + 1) % length}` } }, additionalProperties: false }
  })
  const input = { type: 'object', $defs: definitions, properties: { v: { anyOf: lengths.map((_, k) => ({ $ref: `#/$defs/C${k}_0` })) }, z: { type: ['string', 'null'] } }, required: ['v', 'z'], additionalProperties: false }
  const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })

  it('still drop the nulls of keys left out (the merge does not run out of stack), a real null kept', () => {
    const value = { v: {}, z: null }
    const written = modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true })
    expect(written).toEqual({ v: { q: null, n: null }, z: null })
    // Every alternative drops `q`'s and `n`'s null; only the first reading keeps `z`'s real null (07f2bda read it so).
    expect(inverseArgs(written, tool, readingsOf(tool.coercion)[0])).toEqual(value)
  })
})
