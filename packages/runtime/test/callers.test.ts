// Who called what: the guard names the credential a request presents (never its token), each named
// caller's limits are its own (a bucket of calls a minute, calls at once), and a call's repair is
// said as the JSON paths it changed.
import { callerLimits, httpGuard } from '@flatmcp/runtime/proxy'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { changedPaths } from '../src/util/changed-paths'

const asking = (token?: string): Request => new Request('http://127.0.0.1/mcp', { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })

describe('callers', () => {
  it('the guard admits each credential by its name (unnamed tokens as "token"), and refuses any other', async () => {
    const guard = httpGuard({ tokens: ['t0'], callers: [{ name: 'ci', token: 'c1' }, { name: 'alice', token: 'a1' }] })
    expect(await guard(asking('c1'))).toEqual({ caller: 'ci' })
    expect(await guard(asking('a1'))).toEqual({ caller: 'alice' })
    expect(await guard(asking('t0'))).toEqual({ caller: 'token' })
    for (const wrong of [undefined, 'c', 'c1x', 'A1'])
      expect(((await guard(asking(wrong))) as Response).status, String(wrong)).toBe(401)
    expect(await httpGuard({})(asking())).toEqual({})
  })

  it('a caller past its calls a minute waits as long as its bucket takes to refill one; another caller, and one without limits, are untouched', () => {
    let now = 0
    const take = callerLimits({ ci: { callsPerMinute: 3 }, bot: { inFlight: 2 } }, {}, () => now)
    for (let n = 0; n < 3; n++)
      expect('release' in take('ci', 1)).toBe(true)
    expect(take('ci', 1)).toEqual({ retryAfter: 20, why: '3 calls a minute' })
    for (let n = 0; n < 50; n++)
      expect('release' in take('alice', 1)).toBe(true)
    now += 20_000
    expect('release' in take('ci', 1)).toBe(true)
    expect(take('ci', 1)).toMatchObject({ retryAfter: 20 })
    // A batch of two counts two.
    now += 60_000
    expect('release' in take('ci', 2)).toBe(true)
    expect('retryAfter' in take('ci', 2)).toBe(true)
  })

  it('calls at once: refused past the limit until one is released (twice released counts once)', () => {
    const take = callerLimits({ bot: { inFlight: 2 } })
    const first = take('bot', 1) as { release: () => void }
    const second = take('bot', 1)
    expect('release' in second).toBe(true)
    expect(take('bot', 1)).toEqual({ retryAfter: 1, why: '2 calls at once' })
    first.release()
    first.release()
    expect('release' in take('bot', 1)).toBe(true)
    expect('retryAfter' in take('bot', 1)).toBe(true)
  })

  it('changed paths are JSON Pointers of what differs, keys escaped, and none for equal values', () => {
    expect(changedPaths({ n: '7', a: { 'b/c': [1, 2] }, same: 1 }, { n: 7, a: { 'b/c': [1, 3] }, same: 1 })).toEqual(['/n', '/a/b~1c/1'])
    expect(changedPaths({ flat: 'x' }, { nested: { flat: 'x' } })).toEqual(['/flat', '/nested'])
    expect(changedPaths('{"a":1}', { a: 1 })).toEqual(['/'])
    fc.assert(fc.property(fc.jsonValue(), value => changedPaths(value, structuredClone(value)).length === 0))
    expect(changedPaths({}, Object.fromEntries(Array.from({ length: 100 }, (_, n) => [`k${n}`, n])))).toHaveLength(64)
  })
})
