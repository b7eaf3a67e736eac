// The compiled pass written as code: made from the plan's shape alone (no key, case name or kind of
// any schema is ever code), bounded in size, and replaced by the closures where the host forbids code
// from strings; each form reads as the plan walked as it is.
import type { CoercionPlan } from '@flatmcp/core'
import type { InversePlan } from '../src/coerce/inverse-args'
import fc from 'fast-check'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { writeCode, writtenAlive, writtenPlace } from '../src/coerce/generated-pass'
import { writtenCode } from '../src/coerce/pass-writer'
import { inverseArgs, walkedArgs } from '../src/coerce/inverse-args'

const parts = { budget: { work: 1 << 20 }, parse: (text: string): unknown => JSON.parse(text) as unknown, step: () => undefined }
const MARK = 'Zq9'

/** A plan naming `keys` at an object, as a discriminator's case names and a record's known keys. */
function planNaming(keys: string[]): CoercionPlan {
  const properties = Object.fromEntries(keys.map(key => [key, { parse: 'object' as const, properties: { [key]: { parse: 'array' as const } } }]))
  return {
    properties: { ...properties, r: { parse: 'object', properties, additional: { parse: 'any' } } },
    discriminator: { key: keys[0]!, cases: Object.fromEntries(keys.map(key => [key, { properties }])) },
    keepNull: keys,
  }
}

afterEach(() => {
  writeCode(undefined)
  vi.unstubAllGlobals()
})

describe('the pass written as code', () => {
  it('holds no text of the plan: keys, case names and kinds are handed in as constants', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 12 }), (names) => {
      const keys = names.map(name => `${MARK}${name}`)
      const code = writtenCode(planNaming(keys), parts)!
      expect(code.body).not.toContain(MARK)
      expect(code.constants).toEqual(expect.arrayContaining(keys))
    }))
  })

  it('reads keys that look like code, and `__proto__`, as the walked plan does', () => {
    const keys = ['\'); throw 1; (\'', '`${globalThis.x = 1}`', '*/ }', '\u2028', '__proto__', 'constructor']
    const plan: InversePlan = { coercion: planNaming(keys) } as InversePlan
    const inner = JSON.stringify(Object.fromEntries(keys.map(key => [key, '[1]'])))
    const sent = JSON.parse(JSON.stringify({ ...Object.fromEntries(keys.map(key => [key, inner])), r: inner })) as Record<string, unknown>
    const read = inverseArgs(structuredClone(sent), plan)
    expect(JSON.stringify(read)).toBe(JSON.stringify(walkedArgs(structuredClone(sent), plan, 'plan', false)))
    expect((read as Record<string, Record<string, unknown>>)['\u2028']!['\u2028']).toEqual([1])
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype)
    expect((globalThis as { x?: unknown }).x).toBeUndefined()
  })

  it('is not written past its bound: the closures serve such a plan, reading alike', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i}`)
    const wide: CoercionPlan = { properties: Object.fromEntries(keys.map(key => [key, { parse: 'object', properties: { [key]: { parse: 'array' } } }])) }
    expect(writtenCode(wide, parts)).toBeUndefined()
    expect(writtenCode(planNaming(['a', 'b']), parts)).toBeDefined()
    const plan = { coercion: wide } as InversePlan
    const sent = { k7: '{"k7":"[2]"}', k4999: '{}' }
    expect(inverseArgs({ ...sent }, plan)).toEqual({ k7: { k7: [2] }, k4999: {} })
  })

  it('counts every tuple position toward its bound, planned or not: a long tuple is read by the closures', () => {
    // A member's `prefixItems` of 100,000 `{}` is 300 KB: written, it was 3 MB of code counted as a few units.
    const positions = 100_000
    const tuple = (n: number): CoercionPlan => ({ properties: { a: { parse: 'array', prefix: [...Array.from({ length: n }, () => null), { parse: 'object' }] } } })
    expect(writtenCode(tuple(positions), parts)).toBeUndefined()
    expect(writtenCode(tuple(100), parts)).toBeDefined()
    const plan = { coercion: tuple(positions) } as InversePlan
    const sent = { a: JSON.stringify([...Array.from({ length: positions }, () => 0), '{"b":1}']) }
    const read = inverseArgs({ ...sent }, plan) as { a: unknown[] }
    expect(read.a[positions]).toEqual({ b: 1 })
    expect(read).toEqual(walkedArgs({ ...sent }, plan, 'plan', false))
  })

  it('never throws where the writer cannot read a plan: the closures read it, as the walked plan', () => {
    const coercion = { properties: { a: { parse: 'object', discriminator: { key: 'k', cases: null } } } } as unknown as CoercionPlan
    const plan = { coercion } as InversePlan
    const sent = { a: '{"k":"x"}' }
    expect(inverseArgs({ ...sent }, plan)).toEqual(walkedArgs({ ...sent }, plan, 'plan', false))
  })

  it('is not written where the host forbids code from strings, and the closures read alike', () => {
    writeCode(undefined)
    vi.stubGlobal('Function', function Forbidden() {
      throw new EvalError('Code generation from strings disallowed for this context')
    })
    const plan = planNaming(['a', 'b'])
    expect(writtenPlace(plan, parts)).toBeUndefined()
    const sent = { a: '{"a":"[3]"}', b: 'not json' }
    const inverse = { coercion: plan } as InversePlan
    expect(inverseArgs({ ...sent }, inverse)).toEqual(walkedArgs({ ...sent }, inverse, 'plan', false))
    expect(inverseArgs({ ...sent }, inverse)).toEqual({ a: { a: [3] }, b: 'not json' })
    vi.unstubAllGlobals()
    writeCode(undefined)
    expect(writtenPlace(plan, parts)).toBeTypeOf('function')
  })

  it('is kept within a bound for the whole process, given back as passes are collected', async () => {
    const wide = (n: number): CoercionPlan => ({ properties: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${n}_${i}`, { parse: 'object' as const }])) })
    let kept: unknown[] = []
    for (let n = 0; n < 1000 && writtenAlive().units < writtenAlive().most; n++)
      kept.push(writtenPlace(wide(n), parts))
    expect(kept.every(place => typeof place === 'function')).toBe(true)
    const plan = planNaming(['a'])
    expect(writtenPlace(plan, parts)).toBeUndefined()
    kept = []
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    for (let i = 0; i < 50 && writtenAlive().units >= writtenAlive().most; i++) {
      gc()
      await new Promise(resolve => setTimeout(resolve, 10))
    }
    expect(writtenAlive().units).toBeLessThan(writtenAlive().most)
    expect(writtenPlace(plan, parts)).toBeTypeOf('function')
    expect(kept).toEqual([])
  })
})
