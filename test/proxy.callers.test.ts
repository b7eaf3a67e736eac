// Named callers of `flatmcp proxy --http` (`--callers`), each limited on its own, and the audit
// trail (`--audit-log`): one JSON line per call naming the caller's credential, never a value sent,
// a result or a token; the file rotated past its size.
import type { ProxiedCall } from '@flatmcp/runtime/proxy'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLine, auditLog } from '../packages/cli/src/proxy/audit-log'
import { ROOT } from './support/client'
import { REPLICA_UPSTREAM, replicaSnapshot } from './support/replica-snapshot'
import { CLI, startListening } from './support/proxy'

const UPSTREAM = REPLICA_UPSTREAM
let scratch = ''
let snapshot = ''
let remove = (): void => {}

beforeAll(async () => {
  ({ scratch, snapshot, remove } = await replicaSnapshot())
})
afterAll(() => remove())

async function clientWith(url: string, token: string, era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client({ name: 'caller', version: '1' }, { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return client
}

const rawCall = (url: string, token: string): Promise<Response> => fetch(url, {
  method: 'POST',
  headers: { 'authorization': `Bearer ${token}`, 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: { n: '5' } } }),
})

describe('named callers and the audit trail', () => {
  it('two callers with different limits are limited each on its own (429 with Retry-After), and every call that ran is one audit line naming its caller, with no value sent and no token', async () => {
    const callers = join(scratch, 'callers.json')
    writeFileSync(callers, JSON.stringify({ callers: { ci: { token: 'ci-secret-1', callsPerMinute: 3 }, alice: { token: '${ALICE_TOKEN}', callsPerMinute: 100 } } }))
    const audit = join(scratch, 'audit.jsonl')
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--callers', callers, '--audit-log', audit, '--artifact', snapshot, '--', process.execPath, UPSTREAM], ROOT, { ALICE_TOKEN: 'alice-secret-2' })
    const clients: Client[] = []
    try {
      const ci = await clientWith(served.url, 'ci-secret-1', 'modern')
      const alice = await clientWith(served.url, 'alice-secret-2', 'legacy')
      clients.push(ci, alice)
      for (let n = 0; n < 3; n++)
        expect(JSON.parse(((await ci.callTool({ name: 'whoami', arguments: { n: String(424_240 + n) } })).content as { text: string }[])[0]!.text).n).toBe(424_240 + n)
      await expect(ci.callTool({ name: 'whoami', arguments: { n: '1' } })).rejects.toThrow(/429|limit/)
      const refused = await rawCall(served.url, 'ci-secret-1')
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect((await refused.json() as { error: { message: string } }).error.message).toMatch(/^Caller "ci" is at its limit \(3 calls a minute\); try again in \d+ s\.$/)
      // Alice's calls are hers alone: ci at its limit takes nothing from her.
      for (let n = 0; n < 10; n++)
        expect((await alice.callTool({ name: 'whoami', arguments: { n: String(515_150 + n) } })).isError).not.toBe(true)
      expect((await rawCall(served.url, 'nobody')).status).toBe(401)
      // Written behind the calls: all thirteen lines, soon after.
      await expect.poll(() => existsSync(audit) ? readFileSync(audit, 'utf8').split('\n').filter(Boolean).length : 0).toBe(13)
    }
    catch (error) {
      throw new Error(`${(error as Error).message}\n${served.stderr()}`, { cause: error })
    }
    finally {
      await Promise.all(clients.map(client => client.close().catch(() => {})))
      await served.close()
    }
    const lines = readFileSync(audit, 'utf8').trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map(line => line.caller)).toEqual([...Array.from({ length: 3 }, () => 'ci'), ...Array.from({ length: 10 }, () => 'alice')])
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(['time', 'caller', 'tool', 'upstream', 'outcome', 'durationMs', 'repaired'])
      expect(line).toMatchObject({ tool: 'whoami', upstream: 'replica-upstream', outcome: 'ok', repaired: ['/n'] })
      expect(Number.isNaN(Date.parse(line.time as string))).toBe(false)
    }
    const file = readFileSync(audit, 'utf8')
    for (const secret of ['424240', '515150', 'ci-secret-1', 'alice-secret-2'])
      expect(file).not.toContain(secret)
  })

  it('an upstream that ends stops the proxy, and the audit lines held are written first', async () => {
    const audit = join(scratch, 'ended.jsonl')
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--audit-log', audit, '--artifact', snapshot, '--', process.execPath, UPSTREAM], ROOT, { EXIT_AFTER_CALL: '1' })
    const client = await clientWith(served.url, '', 'modern')
    try {
      await client.callTool({ name: 'whoami', arguments: { n: 9 } })
      if (served.child.exitCode === null)
        await new Promise(resolve => served.child.once('exit', resolve))
    }
    finally {
      await client.close().catch(() => {})
      await served.close()
    }
    expect(served.stderr()).toContain('flatmcp proxy: the upstream server ended; stopping')
    expect(readFileSync(audit, 'utf8').trim().split('\n').map(line => (JSON.parse(line) as { tool: string }).tool)).toEqual(['whoami'])
  })

  it('the file is rotated past its size (FILE.1, the one before dropped), and lines that would fall too far behind the disk are dropped and said', async () => {
    const file = join(scratch, 'rotated.jsonl')
    const said: string[] = []
    const call: ProxiedCall = { time: new Date(0).toISOString(), tool: 'whoami', upstream: 'u', outcome: 'ok', durationMs: 1, repaired: [] }
    const bytes = Buffer.byteLength(auditLine(call))
    const log = auditLog(file, line => said.push(line), { fileBytes: bytes * 10, behindBytes: 2 ** 20 })
    for (let n = 0; n < 25; n++) {
      log.write(call)
      await new Promise(resolve => setImmediate(resolve))
    }
    await log.close()
    const lines = (name: string): number => readFileSync(name, 'utf8').split('\n').filter(Boolean).length
    expect(lines(`${file}.1`)).toBe(10)
    expect(lines(file)).toBe(5)
    expect(said).toEqual([])
    const slow = auditLog(join(scratch, 'behind.jsonl'), line => said.push(line), { fileBytes: 2 ** 30, behindBytes: bytes * 3 })
    for (let n = 0; n < 20; n++)
      slow.write(call)
    await slow.close()
    expect(lines(join(scratch, 'behind.jsonl'))).toBeLessThan(20)
    expect(said[0]).toMatch(/^flatmcp proxy: the audit log .*behind\.jsonl fell behind the calls \(over \d+ bytes waiting for the disk\); 1 line dropped so far$/)
  })
})
