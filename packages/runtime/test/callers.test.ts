// Who called what: the guard names the credential a request presents (never its token), each named
// caller's limits are its own (a bucket of calls a minute, calls at once), and a call's repair is
// said as the JSON paths it changed.
import { callerLimits, httpGuard } from '@flatmcp/runtime/proxy'
import fc from 'fast-check'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { PassThrough } from 'node:stream'
import { StdioTransport } from '../src/host/stdio-transport'
import { limitStdio } from '../src/proxy/serve/stdio-limits'
import { refusalOf } from '../src/proxy/serve/caller-limits'
import { toolCalled } from '../src/proxy/serve/limit-charges'
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

  it('per-tool limits: a tool\'s for all callers together and a caller\'s own of it, each refusal naming it; a refused call takes from no limit; behind the search surface the tool call_tool names is the one counted', () => {
    const take = callerLimits({ bob: { tools: { send: { callsPerMinute: 1 } } }, ci: { callsPerMinute: 10 } }, {}, () => 0, { send: { callsPerMinute: 3 }, slow: { inFlight: 1 } })
    const send = [{ tool: 'send' }]
    expect('release' in take('bob', send)).toBe(true)
    expect(take('bob', send)).toEqual({ retryAfter: 60, why: '1 call a minute of "send"' })
    // Another tool, and a call of no tool, pass: the limit is of send alone.
    expect('release' in take('bob', [{ tool: 'read' }, {}])).toBe(true)
    expect('release' in take('ci', send)).toBe(true)
    expect('release' in take('alice', send)).toBe(true)
    expect(take('ci', send)).toEqual({ retryAfter: 20, why: '3 calls a minute of "send", all callers together' })
    const held = take('alice', [{ tool: 'slow' }]) as { release: () => void }
    expect(take('ci', [{ tool: 'slow' }])).toEqual({ retryAfter: 1, why: '1 call at once of "slow", all callers together' })
    held.release()
    expect('release' in take('ci', [{ tool: 'slow' }])).toBe(true)
    // ci's refusals took none of its own ten: 2 of 10 spent.
    expect(take('ci', Array.from({ length: 8 }, () => ({ tool: 'read' })))).toHaveProperty('release')
    expect(take('ci', [{ tool: 'read' }])).toMatchObject({ why: '10 calls a minute' })
    expect(take('bob', [{ tool: 'send' }, { tool: 'send' }])).toEqual({ over: 2, why: '1 call a minute of "send"' })
    expect(toolCalled({ method: 'tools/call', params: { name: 'call_tool', arguments: { name: 'send', arguments: {} } } })).toBe('send')
    expect(toolCalled({ method: 'tools/call', params: { name: 'send' } })).toBe('send')
    expect(toolCalled({ method: 'resources/read', params: { uri: 'x' } })).toBe(undefined)
  })

  it('a batch larger than a limit is refused for good, not told to wait; one call is "1 call"', () => {
    const take = callerLimits({ bot: { inFlight: 2 }, ci: { callsPerMinute: 1, inFlight: 1 } })
    expect(take('bot', 3)).toEqual({ over: 3, why: '2 calls at once' })
    expect(refusalOf('Caller "bot"', { over: 3, why: '2 calls at once' })).toEqual({ message: 'Caller "bot" sent a batch of 3 requests, more than its limit (2 calls at once) ever lets through: send them in smaller batches.' })
    // Nothing was taken by it: the two still pass.
    expect('release' in take('bot', 2)).toBe(true)
    expect('release' in take('ci', 1)).toBe(true)
    expect(take('ci', 1)).toMatchObject({ why: '1 call a minute' })
    expect(take('ci', 2)).toEqual({ over: 2, why: '1 call a minute' })
  })

  it('over stdio, a call at once past the limit is answered at once with data.retryAfter, never passed on; an answer or a cancellation frees its place', async () => {
    const output = new PassThrough()
    const written: { id?: unknown, error?: { code: number, message: string, data: unknown } }[] = []
    output.on('data', (chunk: Buffer) => written.push(...chunk.toString().trim().split('\n').map(line => JSON.parse(line) as never)))
    const transport = new StdioTransport(new PassThrough(), output)
    const passed: unknown[] = []
    transport.onmessage = message => passed.push((message as { id?: unknown }).id)
    limitStdio(transport, { inFlight: 2 })
    const call = (id: number): void => transport.onmessage!({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't' } })
    call(1)
    call(2)
    call(3)
    transport.onmessage!({ jsonrpc: '2.0', id: 4, method: 'tools/list' })
    await new Promise(resolve => setImmediate(resolve))
    expect(passed).toEqual([1, 2, 4])
    expect(written).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'The client is at its limit (2 calls at once); try again in 1 s.', data: { retryAfter: 1 } } }])
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} })
    call(5)
    call(6)
    transport.onmessage!({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } })
    call(7)
    await new Promise(resolve => setImmediate(resolve))
    expect(passed).toEqual([1, 2, 4, 5, undefined, 7])
    expect(written.map(message => [message.id, message.error?.code])).toEqual([[3, -32000], [1, undefined], [6, -32000]])
  })

  it('over stdio every request sent upstream counts, a resource read as a tool call, and an id sent again while its request runs counts again', async () => {
    const transport = new StdioTransport(new PassThrough(), new PassThrough())
    const written: { id?: unknown, error?: { code: number } }[] = []
    transport.send = async (message) => {
      written.push(message as never)
    }
    const passed: unknown[] = []
    transport.onmessage = message => passed.push((message as { id?: unknown }).id)
    const refused: unknown[] = []
    limitStdio(transport, { inFlight: 1 }, refusal => refused.push(refusal))
    transport.onmessage!({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } })
    transport.onmessage!({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } })
    transport.onmessage!({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///a' } })
    transport.onmessage!({ jsonrpc: '2.0', id: 3, method: 'ping' })
    await new Promise(resolve => setImmediate(resolve))
    expect(passed).toEqual([1, 3])
    expect(written.map(message => [message.id, message.error?.code])).toEqual([[1, -32000], [2, -32000]])
    expect(refused).toEqual([
      expect.objectContaining({ id: 1, method: 'tools/call', tool: 't', outcome: 'refused', why: '1 call at once' }),
      expect.objectContaining({ id: 2, method: 'resources/read', tool: 'file:///a', outcome: 'refused', why: '1 call at once' }),
    ])
  })

  it('changed paths are JSON Pointers of what differs, keys escaped, and none for equal values', () => {
    expect(changedPaths({ n: '7', a: { 'b/c': [1, 2] }, same: 1 }, { n: 7, a: { 'b/c': [1, 3] }, same: 1 })).toEqual(['/n', '/a/b~1c/1'])
    expect(changedPaths({ flat: 'x' }, { nested: { flat: 'x' } })).toEqual(['/flat', '/nested'])
    expect(changedPaths('{"a":1}', { a: 1 })).toEqual(['/'])
    fc.assert(fc.property(fc.jsonValue(), value => changedPaths(value, structuredClone(value)).length === 0))
    expect(changedPaths({}, Object.fromEntries(Array.from({ length: 100 }, (_, n) => [`k${n}`, n])))).toHaveLength(64)
    // Any two values: no path twice, each names a place the two differ, and none where they are equal.
    const at = (value: unknown, pointer: string): unknown => pointer === '/'
      ? value
      : pointer.slice(1).split('/').map(part => part.replaceAll('~1', '/').replaceAll('~0', '~')).reduce<unknown>((into, key) => typeof into === 'object' && into !== null && Object.hasOwn(into, key) ? (into as Record<string, unknown>)[key] : undefined, value)
    const similar = fc.letrec(tie => ({ value: fc.oneof({ depthSize: 'small' }, fc.constantFrom(0, 1, 'a', '~/', null, true), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', '~', '/', 'a/b~'), tie('value'), { maxKeys: 3, noNullPrototype: true })) })).value
    fc.assert(fc.property(similar, similar, (before, after) => {
      const paths = changedPaths(before, after)
      expect(new Set(paths).size).toBe(paths.length)
      expect(paths.length === 0).toBe(isDeepStrictEqual(before, after))
      for (const path of paths)
        expect(isDeepStrictEqual(at(before, path), at(after, path)), path).toBe(false)
    }), { numRuns: 500 })
  })
})
