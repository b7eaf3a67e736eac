// changedPaths walks keys without a set of them (issue 70): it answers as the walk over the set of
// both values' keys did, for any JSON values (keys with `~` and `/`, `__proto__` from JSON.parse,
// past 64 changes, past 32 levels).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { changedPaths } from '../src/util/changed-paths'

// The walk before issue 70's change, as it was.
function before70(a: unknown, b: unknown): string[] {
  const escaped = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1')
  const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
  const walk = (before: unknown, after: unknown, at: string, depth: number, into: string[]): void => {
    if (into.length >= 64 || Object.is(before, after))
      return
    if (depth < 32 && isRecord(before) && isRecord(after)) {
      for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
        walk(Object.hasOwn(before, key) ? before[key] : undefined, Object.hasOwn(after, key) ? after[key] : undefined, `${at}/${escaped(key)}`, depth + 1, into)
      return
    }
    if (depth < 32 && Array.isArray(before) && Array.isArray(after)) {
      for (let index = 0; index < Math.max(before.length, after.length); index++)
        walk(before[index], after[index], `${at}/${index}`, depth + 1, into)
      return
    }
    into.push(at === '' ? '/' : at)
  }
  const paths: string[] = []
  walk(a, b, '', 0, paths)
  return paths
}

const keys = fc.constantFrom('a', 'b', '~', '/', '~1', '~0/', 'a/b~', '__proto__', 'constructor', 'toString', '0', '1', '')
const value = fc.letrec(tie => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constantFrom(0, 1, -0, 'a', '~/', null, true, false), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(keys, tie('value'), { maxKeys: 5 })),
})).value
// Through JSON, as a call's arguments come: `__proto__` an own key.
const parsed = value.map(v => JSON.parse(JSON.stringify(v)) as unknown)
const deep = (depth: number, leaf: unknown): unknown => depth === 0 ? leaf : { [`~/${depth}`]: deep(depth - 1, leaf) }

describe('changedPaths, walked without a set of keys (issue 70)', () => {
  it('answers as the walk over the set of both values\' keys did', () => {
    fc.assert(fc.property(parsed, parsed, (a, b) => {
      expect(changedPaths(a, b)).toEqual(before70(a, b))
    }), { numRuns: 3000, seed: 70 })
    fc.assert(fc.property(value, value, (a, b) => {
      expect(changedPaths(a, b)).toEqual(before70(a, b))
    }), { numRuns: 3000, seed: 71 })
  })

  it('answers as before past 64 changes, past 32 levels, and with __proto__ keys', () => {
    const many = (n: number, offset: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${(i * 7 + offset) % n}/~`, i]))
    const cases: [unknown, unknown][] = [
      [many(100, 0), many(100, 3)],
      [many(50, 0), many(120, 1)],
      [{}, many(100, 0)],
      [deep(40, 1), deep(40, 2)],
      [deep(31, 1), deep(31, 2)],
      [deep(32, 1), deep(32, 2)],
      [JSON.parse('{"__proto__":{"a":1},"b":2}'), JSON.parse('{"__proto__":{"a":2}}')],
      [JSON.parse('{"__proto__":1}'), {}],
      [{}, JSON.parse('{"__proto__":1}')],
      [{ a: undefined }, {}],
      [{}, { a: undefined }],
      [[1, [2, { '~': 3 }]], [1, [2, { '/': 3 }], 4]],
    ]
    for (const [a, b] of cases) {
      expect(changedPaths(a, b)).toEqual(before70(a, b))
      expect(changedPaths(b, a)).toEqual(before70(b, a))
    }
  })
})
