// Callers' limits counted in Redis (`--limits-store`), as operators run replicas: with three replicas
// of `flatmcp proxy --http` and one store, a caller's limit is its limit, not three times it; per-tool
// limits (all callers together, and a caller's own) hold across them too; and a store that goes away
// mid-run refuses calls with limits (503, said once in the operator log) or lets them through
// (`--limits-store-down admit`), as docs/proxy.md says, and counts again once it is back.
import type { Listening } from './support/proxy'
import type { RunningRedis } from './support/redis'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPLICA_UPSTREAM, replicaSnapshot } from './support/replica-snapshot'
import { limitsStoreOf } from '../packages/cli/src/proxy/limits-store'
import { redisCount } from '../packages/runtime/src/proxy/serve/redis-limits'
import { CLI, startListening } from './support/proxy'
import { ensureRedis, startRedis } from './support/redis'

let scratch = ''
let snapshot = ''
let remove = (): void => {}
const installed = ensureRedis()
let redis: RunningRedis | undefined

beforeAll(async () => {
  ({ scratch, snapshot, remove } = await replicaSnapshot())
  if ('binary' in installed)
    redis = await startRedis(installed.binary)
})
afterAll(async () => {
  await redis?.stop()
  remove()
})

/** Three replicas of the proxy, each counting in the store, with the callers file given. */
async function replicas(callers: unknown, extra: string[] = []): Promise<Listening[]> {
  const file = join(scratch, `callers-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(file, JSON.stringify(callers))
  return Promise.all([0, 1, 2].map(() => startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--callers', file, '--limits-store', redis!.url, ...extra, '--artifact', snapshot, '--', process.execPath, REPLICA_UPSTREAM])))
}

const call = (url: string, token: string, id: number): Promise<Response> => fetch(url, {
  method: 'POST',
  headers: { 'authorization': `Bearer ${token}`, 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'whoami', arguments: { n: id } } }),
})

/** `count` calls by `token`, spread over the replicas in turn: each one's status, and the refusals' messages. */
async function spread(served: Listening[], token: string, count: number): Promise<{ statuses: number[], messages: string[] }> {
  const statuses: number[] = []
  const messages: string[] = []
  for (let n = 0; n < count; n++) {
    const answer = await call(served[n % served.length]!.url, token, n)
    statuses.push(answer.status)
    const body = await answer.text()
    if (answer.status !== 200)
      messages.push((JSON.parse(body) as { error: { message: string } }).error.message)
  }
  return { statuses, messages }
}

const closeAll = (served: Listening[]): Promise<unknown> => Promise.all(served.map(replica => replica.close()))

describe('limits counted in Redis across replicas', () => {
  it.skipIf('missing' in installed)(`three replicas, one store: a caller's 6 calls a minute are 6 across all three, not 18; the store gone, calls are refused with 503 and the log says so once, and counted again once it is back (${'missing' in installed ? installed.missing : 'installed'})`, async () => {
    const served = await replicas({ callers: { ci: { token: 'ci-secret', callsPerMinute: 6 } } })
    try {
      const { statuses, messages } = await spread(served, 'ci-secret', 18)
      expect(statuses.filter(status => status === 200)).toHaveLength(6)
      expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200])
      expect(statuses.slice(6)).toEqual(Array.from({ length: 12 }, () => 429))
      expect(messages[0]).toMatch(/^Caller "ci" is at its limit \(6 calls a minute\); try again in \d+ s\.$/)

      await redis!.stop()
      const down = await Promise.all(served.map((replica, n) => call(replica.url, 'ci-secret', 100 + n)))
      expect(down.map(answer => answer.status)).toEqual([503, 503, 503])
      expect(down[0]!.headers.get('retry-after')).toBe('1')
      expect((await down[0]!.json() as { error: { message: string } }).error.message).toBe('The proxy cannot count caller "ci"\'s limits now (its limits store does not answer); try again in 1 s.')
      // Refused again while it is down, and said once.
      expect((await call(served[0]!.url, 'ci-secret', 200)).status).toBe(503)
      const said = served[0]!.stderr().split('\n').filter(line => line.includes('limits store'))
      expect(said).toEqual([`flatmcp proxy: the limits store redis://127.0.0.1:${redis!.port}/0 is unreachable (connect ECONNREFUSED 127.0.0.1:${redis!.port}); calls with limits are refused (503) until it answers`])

      // Back, and empty (it saved nothing): the caller's calls count afresh, past the second the store is left alone.
      await redis!.start()
      await new Promise(resolve => setTimeout(resolve, 1100))
      const again = await spread(served, 'ci-secret', 9)
      expect(again.statuses.filter(status => status === 200)).toHaveLength(6)
      await expect.poll(() => served[0]!.stderr()).toContain(`the limits store redis://127.0.0.1:${redis!.port}/0 answers again; calls are counted there`)
    }
    catch (error) {
      throw new Error(`${(error as Error).message}\n${served.map(replica => replica.stderr()).join('\n')}`, { cause: error })
    }
    finally {
      await closeAll(served)
    }
  })

  it.skipIf('missing' in installed)('per-tool limits across replicas: a tool\'s limit for all callers together and a caller\'s own limit of it, each refusal naming it; with --limits-store-down admit, a store gone lets calls through', async () => {
    const served = await replicas({
      callers: { alice: { token: 'alice-secret' }, bob: { token: 'bob-secret', tools: { whoami: { callsPerMinute: 2 } } } },
      tools: { whoami: { callsPerMinute: 5 } },
    }, ['--limits-store-down', 'admit'])
    try {
      const bob = await spread(served, 'bob-secret', 4)
      expect(bob.statuses).toEqual([200, 200, 429, 429])
      expect(bob.messages[0]).toMatch(/^Caller "bob" is at its limit \(2 calls a minute of "whoami"\); try again in \d+ s\.$/)
      // Bob's two calls count against the tool's five too.
      const alice = await spread(served, 'alice-secret', 6)
      expect(alice.statuses).toEqual([200, 200, 200, 429, 429, 429])
      expect(alice.messages[0]).toMatch(/^Caller "alice" is at its limit \(5 calls a minute of "whoami", all callers together\); try again in \d+ s\.$/)

      await redis!.stop()
      const down = await spread(served, 'alice-secret', 3)
      expect(down.statuses).toEqual([200, 200, 200])
      expect(served[0]!.stderr()).toContain('calls are let through uncounted until it answers')
    }
    catch (error) {
      throw new Error(`${(error as Error).message}\n${served.map(replica => replica.stderr()).join('\n')}`, { cause: error })
    }
    finally {
      await closeAll(served)
      await redis!.start()
    }
  })
})

describe('the store itself', () => {
  it.skipIf('missing' in installed)('calls at once are shared by two counts of one store (two replicas), and a release frees a place in both', async () => {
    const store = { ...limitsStoreOf(redis!.url, 'refuse', {}), log: () => {} }
    const [a, b] = [redisCount(store), redisCount(store)]
    const charge = [{ key: 'c:flight-test', limit: { inFlight: 2 }, count: 1, of: '' }]
    try {
      const first = await a.take(charge) as { release: () => void }
      expect(await b.take(charge)).toHaveProperty('release')
      expect(await a.take(charge)).toEqual({ retryAfter: 1, why: '2 calls at once' })
      first.release()
      await expect.poll(() => b.take(charge).then(taken => 'release' in taken)).toBe(true)
    }
    finally {
      a.close()
      b.close()
    }
  })

  it('a store URL: a password in it is refused (FLATMCP_LIMITS_STORE_PASSWORD holds it), the log names it without one', () => {
    expect(() => limitsStoreOf('redis://u:pw@h:1', 'refuse', {})).toThrow(/a password in the URL is readable in the process list; give it in FLATMCP_LIMITS_STORE_PASSWORD/)
    expect(() => limitsStoreOf('http://h', 'refuse', {})).toThrow(/speaks redis:\/\//)
    expect(() => limitsStoreOf('redis://h/x', 'refuse', {})).toThrow(/database is a whole number/)
    expect(limitsStoreOf('redis://ops@h/2', 'admit', { FLATMCP_LIMITS_STORE_PASSWORD: 'pw' })).toEqual({ host: 'h', port: 6379, user: 'ops', password: 'pw', db: 2, timeoutMs: 500, whenDown: 'admit', name: 'redis://h/2' })
  })
})
