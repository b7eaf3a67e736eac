// Named callers of `flatmcp proxy --http` (`--callers`), each limited on its own, and the audit
// trail (`--audit-log`): one JSON line per request sent upstream or refused, naming the caller's credential, never a value sent,
// a result or a token; the file rotated past its size.
import type { ProxiedCall } from '@flatmcp/runtime/proxy'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLine, auditLog } from '../packages/cli/src/proxy/audit-log'
import { readCallersFile } from '../packages/cli/src/proxy/callers-file'
import { connectStdioV2, ROOT } from './support/client'
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
      const answer = await refused.json() as { id: unknown, error: { message: string } }
      expect(answer.error.message).toMatch(/^Caller "ci" is at its limit \(3 calls a minute\); try again in \d+ s\.$/)
      expect(answer.id).toBe(1)
      // Alice's calls are hers alone: ci at its limit takes nothing from her.
      for (let n = 0; n < 10; n++)
        expect((await alice.callTool({ name: 'whoami', arguments: { n: String(515_150 + n) } })).isError).not.toBe(true)
      expect((await rawCall(served.url, 'nobody')).status).toBe(401)
      // Written behind the calls: all thirteen lines, soon after.
      await expect.poll(() => existsSync(audit) ? readFileSync(audit, 'utf8').split('\n').filter(Boolean).length : 0).toBe(15)
    }
    catch (error) {
      throw new Error(`${(error as Error).message}\n${served.stderr()}`, { cause: error })
    }
    finally {
      await Promise.all(clients.map(client => client.close().catch(() => {})))
      await served.close()
    }
    const all = readFileSync(audit, 'utf8').trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
    // The two refusals are audited too, each with its request id and the limit it met.
    const refusals = all.filter(line => line.outcome === 'refused')
    expect(refusals.map(line => Object.keys(line))).toEqual([0, 1].map(() => ['time', 'caller', 'id', 'method', 'tool', 'outcome', 'why']))
    expect(refusals.map(({ caller, id, method, tool, why }) => ({ caller, id, method, tool, why }))).toEqual([expect.objectContaining({ caller: 'ci', method: 'tools/call', tool: 'whoami', why: '3 calls a minute' }), { caller: 'ci', id: 1, method: 'tools/call', tool: 'whoami', why: '3 calls a minute' }])
    const lines = all.filter(line => line.outcome !== 'refused')
    expect(lines.map(line => line.caller)).toEqual([...Array.from({ length: 3 }, () => 'ci'), ...Array.from({ length: 10 }, () => 'alice')])
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(['time', 'caller', 'id', 'method', 'tool', 'upstream', 'outcome', 'durationMs', 'repaired'])
      expect(line).toMatchObject({ tool: 'whoami', upstream: 'replica-upstream', outcome: 'ok', repaired: ['/n'] })
      expect(Number.isNaN(Date.parse(line.time as string))).toBe(false)
    }
    const file = readFileSync(audit, 'utf8')
    for (const secret of ['424240', '515150', 'ci-secret-1', 'alice-secret-2'])
      expect(file).not.toContain(secret)
  })

  it('over stdio the client is limited by the entry named "stdio": past it, an MCP error with data.retryAfter, and nothing goes upstream; a file without one is refused', async () => {
    const callers = join(scratch, 'stdio-callers.json')
    writeFileSync(callers, JSON.stringify({ callers: { stdio: { callsPerMinute: 2 }, ci: { token: 'ci-secret-1' } } }))
    const audit = join(scratch, 'stdio.jsonl')
    const served = await connectStdioV2(process.execPath, [CLI, 'proxy', '--callers', callers, '--audit-log', audit, '--artifact', snapshot, '--', process.execPath, UPSTREAM])
    try {
      for (let n = 0; n < 2; n++)
        expect((await served.client.callTool({ name: 'whoami', arguments: { n: String(n) } })).isError).not.toBe(true)
      const refused = await served.client.callTool({ name: 'whoami', arguments: { n: '7' } }).then(() => undefined, (error: unknown) => error as { code: number, message: string, data?: { retryAfter?: number } })
      expect(refused?.code).toBe(-32000)
      const wait = Number(/The client is at its limit \(2 calls a minute\); try again in (\d+) s\./.exec(refused?.message ?? '')?.[1])
      expect(wait).toBeGreaterThanOrEqual(1)
      expect(wait).toBeLessThanOrEqual(30)
      expect(refused?.data?.retryAfter).toBe(wait)
      // The session goes on: the list is not a call.
      expect((await served.client.listTools()).tools.map(tool => tool.name)).toEqual(['whoami'])
      // The two calls, and the refusal.
      await expect.poll(() => existsSync(audit) ? readFileSync(audit, 'utf8').split('\n').filter(Boolean).length : 0).toBe(3)
      expect(readFileSync(audit, 'utf8').split('\n').filter(Boolean).map(line => (JSON.parse(line) as { outcome: string }).outcome)).toEqual(['ok', 'ok', 'refused'])
    }
    finally {
      await served.close()
    }
    writeFileSync(callers, JSON.stringify({ callers: { ci: { token: 'ci-secret-1', inFlight: 1 } } }))
    const run = spawnSync(process.execPath, [CLI, 'proxy', '--callers', callers, '--', process.execPath, UPSTREAM], { cwd: ROOT, encoding: 'utf8', input: '' })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(`--callers ${callers}: over stdio only the entry named "stdio" applies`)
  })

  it('limits and the audit cover every request that goes upstream: a resource read counts, past the limit it is refused (audited with its id and why) and never reaches the upstream, over stdio and HTTP', async () => {
    const callers = join(scratch, 'every-method.json')
    writeFileSync(callers, JSON.stringify({ callers: { stdio: { callsPerMinute: 2 }, ci: { token: 'ci-secret-9', callsPerMinute: 2 } } }))
    const audit = join(scratch, 'every-method.jsonl')
    const served = await connectStdioV2(process.execPath, [CLI, 'proxy', '--callers', callers, '--audit-log', audit, '--log-level', 'debug', '--env', 'RESOURCES=1', '--', process.execPath, UPSTREAM])
    try {
      expect((await served.client.callTool({ name: 'whoami', arguments: { n: 1 } })).isError).not.toBe(true)
      const client = served.client as unknown as Client
      expect((await client.readResource({ uri: 'mem://note' })).contents).toEqual([{ uri: 'mem://note', text: 'read 1' }])
      const refused = await client.readResource({ uri: 'mem://note' }).then(() => undefined, (error: unknown) => error as { code: number, message: string })
      expect(refused?.code).toBe(-32000)
      expect(refused?.message).toMatch(/^The client is at its limit \(2 calls a minute\)/)
      await expect.poll(() => existsSync(audit) ? readFileSync(audit, 'utf8').split('\n').filter(Boolean).length : 0).toBe(3)
      // The client is the caller its entry names: "stdio".
      await expect.poll(served.stderr).toMatch(/flatmcp proxy: resources\/read "mem:\/\/note" by stdio → refused \(2 calls a minute\)/)
      expect(served.stderr()).toMatch(/flatmcp proxy: resources\/read "mem:\/\/note" \(replica-upstream\) by stdio → ok in \d+ ms/)
    }
    finally {
      await served.close()
    }
    const lines = readFileSync(audit, 'utf8').trim().split('\n').map(line => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map(({ caller, method, tool, uri, outcome, why }) => ({ caller, method, tool, uri, outcome, why }))).toEqual([
      { caller: 'stdio', method: 'tools/call', tool: 'whoami', uri: undefined, outcome: 'ok', why: undefined },
      { caller: 'stdio', method: 'resources/read', tool: undefined, uri: 'mem://note', outcome: 'ok', why: undefined },
      { caller: 'stdio', method: 'resources/read', tool: undefined, uri: 'mem://note', outcome: 'refused', why: '2 calls a minute' },
    ])
    expect(lines.every(line => typeof line.id === 'number')).toBe(true)
    expect(lines[2]!.id).not.toBe(lines[1]!.id)

    const http = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--callers', callers, '--env', 'RESOURCES=1', '--', process.execPath, UPSTREAM], ROOT)
    try {
      const read = (id: unknown): Promise<Response> => fetch(http.url, {
        method: 'POST',
        headers: { 'authorization': 'Bearer ci-secret-9', 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify(Array.isArray(id) ? id.map(each => ({ jsonrpc: '2.0', id: each, method: 'resources/read', params: { uri: 'mem://note' } })) : { jsonrpc: '2.0', id, method: 'resources/read', params: { uri: 'mem://note' } }),
      })
      for (const id of ['a', 'b'])
        expect((await read(id)).status).toBe(200)
      const refused = await read('c')
      expect(refused.status).toBe(429)
      // The JSON-RPC error carries when to try again, as over stdio.
      const wait = Number(refused.headers.get('retry-after'))
      expect(await refused.json()).toMatchObject({ id: 'c', error: { code: -32000, data: { retryAfter: wait } } })
      const batch = await read(['d', 'e'])
      expect(batch.status).toBe(429)
      expect((await batch.json() as { id: unknown }[]).map(answer => answer.id)).toEqual(['d', 'e'])
      // A batch larger than the limit ever takes is told so, not to wait.
      const larger = await read(['f', 'g', 'h'])
      expect([larger.status, larger.headers.get('retry-after')]).toEqual([400, null])
      expect((await larger.json() as { error: unknown }[])[0]!.error).toEqual({ code: -32000, message: 'Caller "ci" sent a batch of 3 requests, more than its limit (2 calls a minute) ever lets through: send them in smaller batches.' })
    }
    finally {
      await http.close()
    }
  })

  it('a callers file that is off is refused naming the file and the JSON path', () => {
    const file = join(scratch, 'off.json')
    const refusal = (callers: unknown): string => {
      writeFileSync(file, JSON.stringify(callers))
      try {
        readCallersFile(file)
        return ''
      }
      catch (error) {
        return (error as Error).message
      }
    }
    expect(refusal({ callers: { ci: { token: 'a', callsPerMinut: 3 } } })).toBe(`--callers ${file}: .callers["ci"].callsPerMinut: is not a caller's key ("token", "callsPerMinute", "inFlight", "tools", "allow", "deny", "view")`)
    expect(refusal({ callers: { ci: { inFlight: 3 } } })).toMatch(/\.callers\["ci"\]\.token: is missing \(only the entries named "token", the unnamed tokens' limits, and "stdio", the stdio client's, have none\)$/)
    expect(refusal({ callers: { stdio: { token: 'a' } } })).toMatch(/\.callers\["stdio"\]\.token: the stdio client presents no token/)
    expect(refusal({ callers: { a: { token: 't' }, b: { token: 't' } } })).toMatch(/\.callers\["b"\]\.token: is another caller's token too$/)
    expect(refusal({ callers: { a: { token: 't', inFlight: 0 } } })).toMatch(/\.callers\["a"\]\.inFlight: must be a positive whole number \(it was 0\)$/)
    expect(refusal({ callers: { 'a b': { token: 't' } } })).toMatch(/a caller's name is 1 to 64 letters/)
    expect(refusal({ ci: { token: 't' } })).toMatch(/must be \{"callers"/)
    // Tools' limits: all callers' at the top, a caller's own in its entry, each path named.
    expect(refusal({ callers: { ci: { token: 't', tools: { send: { callsPerMinut: 3 } } } } })).toBe(`--callers ${file}: .callers["ci"].tools["send"].callsPerMinut: is not a tool limit's key ("callsPerMinute", "inFlight")`)
    expect(refusal({ callers: {}, tools: { send: { inFlight: -1 } } })).toMatch(/\.tools\["send"\]\.inFlight: must be a positive whole number \(it was -1\)$/)
    expect(refusal({ callers: {}, tools: { send: {} } })).toMatch(/\.tools\["send"\]: sets no limit/)
    expect(refusal({ callers: {}, tools: ['send'] })).toMatch(/\.tools: must be an object/)
    expect(refusal({ callers: {}, tools: { send: { callsPerMinute: 10 } }, rates: {} })).toMatch(/must be \{"callers"/)
    expect(refusal({ callers: { ci: { token: 'c', tools: { send: { callsPerMinute: 2 } } } }, tools: { send: { callsPerMinute: 10, inFlight: 1 } } })).toBe('')
    expect(readCallersFile(file)).toEqual({ callers: [{ name: 'ci', token: 'c' }], limits: { ci: { tools: { send: { callsPerMinute: 2 } } } }, tools: { send: { callsPerMinute: 10, inFlight: 1 } }, rules: { callers: {} } })
    expect(refusal({ callers: { stdio: { inFlight: 2 }, token: { callsPerMinute: 5 }, ci: { token: 't' } } })).toBe('')
    expect(readCallersFile(file)).toEqual({ callers: [{ name: 'ci', token: 't' }], limits: { stdio: { inFlight: 2 }, token: { callsPerMinute: 5 } }, rules: { callers: {} } })
    // The rules: each entry's patterns and view, and the file's default.
    expect(refusal({ callers: { ci: { token: 't', allow: 'github__*' } } })).toMatch(/\.callers\["ci"\]\.allow: must be a list of tool names/)
    expect(refusal({ callers: { ci: { token: 't', deny: ['a', ''] } } })).toMatch(/\.callers\["ci"\]\.deny\[1\]: must be a non-empty tool name or pattern \(it was ""\)$/)
    expect(refusal({ callers: { ci: { token: 't', view: 3 } } })).toMatch(/\.callers\["ci"\]\.view: must name a view of the overrides file \(it was 3\)$/)
    expect(refusal({ default: 'block', callers: {} })).toMatch(/\.default: must be "allow" .* or "deny" \(none\) \(it was "block"\)$/)
    expect(refusal({ default: 'deny', callers: { ci: { token: 't', allow: ['github__*'], deny: ['*delete*'] }, stdio: { view: 'triage' } } })).toBe('')
    expect(readCallersFile(file).rules).toEqual({ default: 'deny', callers: { ci: { allow: ['github__*'], deny: ['*delete*'] }, stdio: { view: 'triage' } } })
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

  it('an audit log the disk cannot take loses its lines and says so once, and the proxy serves on; one in a folder that does not exist stops it at start in one line naming the path', async () => {
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--audit-log', '/dev/full', '--artifact', snapshot, '--', process.execPath, UPSTREAM], ROOT)
    const client = await clientWith(served.url, '', 'modern')
    try {
      for (let n = 0; n < 5; n++)
        expect(JSON.parse(((await client.callTool({ name: 'whoami', arguments: { n } })).content as { text: string }[])[0]!.text).n).toBe(n)
      await expect.poll(() => served.stderr()).toContain('the audit log /dev/full cannot be written (ENOSPC)')
      expect(served.child.exitCode).toBe(null)
    }
    finally {
      await client.close().catch(() => {})
      await served.close()
    }
    expect(served.stderr().split('cannot be written').length).toBe(2)
    const missing = join(scratch, 'no-such-folder', 'audit.jsonl')
    const run = spawnSync(process.execPath, [CLI, 'proxy', '--audit-log', missing, '--artifact', snapshot, '--', process.execPath, UPSTREAM], { cwd: ROOT, encoding: 'utf8', input: '' })
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(`flatmcp: --audit-log ${missing}: its folder does not exist\n`)
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
