// `flatmcp proxy` in front of a server written as most servers on npm are (the SDK 1.x's low-level
// `Server`, raw JSON Schema: test/support/upstream-outputs.ts), run from the built CLI with real SDK
// 2.x clients: the environment a client's config hands the proxy reaches the server, output schemas
// are compiled and results shaped to them, the server is offered only what the client can do, and
// its roots question at start-up reaches the client.
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import type { Socket } from 'node:net'
import { createConnection } from 'node:net'
import { join } from 'node:path'
import { SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI, INITIALIZE, runCli, startListening, UPSTREAM_OUTPUTS } from './support/proxy'
import { SLOW } from './support/timeouts'

const ROOTS = [{ uri: 'file:///work/project', name: 'project' }]

interface Opened { client: Client, stderr: () => string }
const opened: Opened[] = []
// Closed after the file, not after each test: the clients `plainPair` shares.
const kept: Opened[] = []
const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-proxy-sdk1-'))
afterAll(async () => {
  await Promise.all(kept.splice(0).map(({ client }) => client.close()))
  rmSync(scratch, { recursive: true, force: true })
})
afterEach(async () => {
  await Promise.all(opened.splice(0).map(({ client }) => client.close()))
})

/** A real SDK 2.x client over stdio, offering `capabilities` (its roots answered), to the proxy or the server itself. */
async function open(command: string[], capabilities: Record<string, unknown> = {}, env: Record<string, string> = {}, until = opened): Promise<Opened> {
  const client = new Client({ name: 'flatmcp-test', version: '1' }, { capabilities, versionNegotiation: { mode: 'legacy' } })
  if ('roots' in capabilities)
    client.setRequestHandler('roots/list', async () => ({ roots: ROOTS }))
  if ('sampling' in capabilities)
    client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'mock' }))
  const transport = new StdioClientTransport({ command: command[0]!, args: command.slice(1), cwd: ROOT, env: { ...process.env, ...env } as Record<string, string>, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  await client.connect(transport)
  const connection = { client, stderr: () => stderr }
  until.push(connection)
  return connection
}

// The server itself and a proxy in front of it, each to a client that offers nothing: started at
// first use and shared by the tests that list and call tools that keep no state.
let plain: Promise<{ direct: Opened, through: Opened }> | undefined
function plainPair(): Promise<{ direct: Opened, through: Opened }> {
  plain ??= Promise.all([open(UPSTREAM_OUTPUTS, {}, {}, kept), open(proxied(), {}, {}, kept)]).then(([direct, through]) => ({ direct, through }))
  return plain
}

const proxied = (...flags: string[]): string[] => [process.execPath, CLI, 'proxy', ...flags, '--', ...UPSTREAM_OUTPUTS]
const textOf = (result: unknown): string => ((result as { content: { text: string }[] }).content[0]!.text)

describe('flatmcp proxy in front of an SDK 1.x server configured and written as npm servers are', () => {
  it('the upstream runs with the proxy\'s whole environment, --env added to it, ${NAME} read from the environment; its command needs no -- before it', async () => {
    // The command given without `--`, as a client config's args array often does.
    const { client } = await open([process.execPath, CLI, 'proxy', '--env', 'GREETING=hello ${SECRET_TOKEN}', ...UPSTREAM_OUTPUTS], {}, { MEMORY_FILE_PATH: '/data/memory.json', SECRET_TOKEN: 's3cret' })
    const env = async (name: string): Promise<string> => textOf(await client.callTool({ name: 'env', arguments: { name } }))
    expect(await env('MEMORY_FILE_PATH')).toBe('/data/memory.json')
    expect(await env('SECRET_TOKEN')).toBe('s3cret')
    expect(await env('GREETING')).toBe('hello s3cret')
  })

  it('an 11 MB result (past the SDK\'s stdio limit, which ended the whole proxy) is passed on whole, and the proxy serves on', async () => {
    const child = spawn(process.execPath, [CLI, 'proxy', '--', ...UPSTREAM_OUTPUTS], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] })
    try {
      const answers = new Map<number, number>()
      let buffer = ''
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString()
        for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
          const line = buffer.slice(0, end)
          buffer = buffer.slice(end + 1)
          const message = JSON.parse(line) as { id?: number }
          if (typeof message.id === 'number')
            answers.set(message.id, line.length)
        }
      })
      const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`)
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
      await expect.poll(() => answers.has(1), { timeout: 30_000 }).toBe(true)
      send({ jsonrpc: '2.0', method: 'notifications/initialized' })
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'big', arguments: { megabytes: 11 } } })
      await expect.poll(() => answers.get(2), { timeout: 60_000 }).toBeGreaterThan(11 * 1024 * 1024)
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'env', arguments: { name: 'PATH' } } })
      await expect.poll(() => answers.has(3), { timeout: 30_000 }).toBe(true)
    }
    finally {
      child.kill()
    }
  })

  it('the proxy\'s own credentials never reach the upstream: its variables and any that holds a caller token are left out, and an --env that names or holds one stops it', async () => {
    const { client } = await open(proxied(), {}, { FLATMCP_PROXY_TOKEN: 'caller-token-0123456789', FLATMCP_OAUTH_CLIENT_SECRET: 'oauth-secret-0123456789', KEPT: 'kept' })
    const env = async (name: string): Promise<string> => textOf(await client.callTool({ name: 'env', arguments: { name } }))
    expect(await env('FLATMCP_PROXY_TOKEN')).toBe('(unset)')
    expect(await env('FLATMCP_OAUTH_CLIENT_SECRET')).toBe('(unset)')
    expect(await env('KEPT')).toBe('kept')
    // Over HTTP the callers' tokens are the proxy's: a variable that holds one is left out too.
    const tokens = join(mkdtempSync(join(tmpdir(), 'flatmcp-tokens-')), 'tokens.txt')
    writeFileSync(tokens, 'file-token-0123456789\n')
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--auth-token-file', tokens, '--', ...UPSTREAM_OUTPUTS], ROOT, { SHARED_TOKEN: 'file-token-0123456789', KEPT: 'kept' })
    try {
      const call = async (name: string): Promise<string> => {
        const response = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'authorization': 'Bearer file-token-0123456789' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'env', arguments: { name } } }) })
        return /"text":"([^"]*)"/.exec(await response.text())![1]!
      }
      expect(await call('SHARED_TOKEN')).toBe('(unset)')
      expect(await call('KEPT')).toBe('kept')
    }
    finally {
      await served.close()
    }
    const named = await runCli(['proxy', '--env', 'LEAK=${FLATMCP_PROXY_TOKEN}', '--', ...UPSTREAM_OUTPUTS], ROOT, 60_000, INITIALIZE, { FLATMCP_PROXY_TOKEN: 'caller-token-0123456789' })
    expect(named.code).toBe(2)
    expect(named.stderr).toContain('the upstream\'s variable "LEAK" names ${FLATMCP_PROXY_TOKEN}, the proxy\'s own credential, which never goes upstream')
    expect(named.stderr).not.toContain('caller-token-0123456789')
    const held = await runCli(['proxy', '--http', '0', '--auth-token-file', tokens, '--env', 'LEAK=Bearer file-token-0123456789', '--', ...UPSTREAM_OUTPUTS], ROOT, 60_000)
    expect(held.code).toBe(2)
    expect(held.stderr).toContain('the upstream\'s variable "LEAK" holds a credential of the proxy\'s own (a caller\'s token, or its OAuth client secret), which never goes upstream')
  })

  it('a variable that is not set is said in a line, before anything runs (exit 2)', async () => {
    const run = await runCli(['proxy', '--env', 'TOKEN=${FLATMCP_TEST_UNSET}', '--', ...UPSTREAM_OUTPUTS], ROOT, 60_000, INITIALIZE)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('the upstream\'s variable "TOKEN" names ${FLATMCP_TEST_UNSET}, which is not set in the environment')
  })

  it('a 2026-07-28 client in front of this 2025-only server: the list comes with the cache hints that era requires, and calls are served', async () => {
    const client = new Client({ name: 'flatmcp-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StdioClientTransport({ command: process.execPath, args: proxied().slice(1), cwd: ROOT, stderr: 'ignore' }))
    opened.push({ client, stderr: () => '' })
    const list = await client.listTools()
    expect(list.ttlMs).toBeTypeOf('number')
    expect(['public', 'private']).toContain(list.cacheScope)
    expect(list.tools.map(tool => tool.name)).toContain('forecast')
    expect(textOf(await client.callTool({ name: 'env', arguments: { name: 'PATH' } }))).toBe(process.env.PATH)
  })

  it('the upstream is offered what the client offers, no more: it lists the tools it would list that client directly', async () => {
    for (const capabilities of [{}, { sampling: {} }, { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } }]) {
      const { direct, through } = Object.keys(capabilities).length === 0 ? await plainPair() : { direct: await open(UPSTREAM_OUTPUTS, capabilities), through: await open(proxied(), capabilities) }
      const names = async ({ client }: Opened): Promise<string[]> => (await client.listTools()).tools.map(tool => tool.name)
      expect(await names(through), JSON.stringify(capabilities)).toEqual(await names(direct))
    }
  })

  it('the upstream\'s roots question at start-up reaches the client, as directly', async () => {
    const direct = await open(UPSTREAM_OUTPUTS, { roots: {} })
    const through = await open(proxied(), { roots: {} })
    // The server asks once it is initialized; its answer arrives by the first call.
    await through.client.listTools()
    expect(JSON.parse(textOf(await through.client.callTool({ name: 'roots', arguments: {} })))).toEqual(ROOTS)
    expect(JSON.parse(textOf(await direct.client.callTool({ name: 'roots', arguments: {} })))).toEqual(ROOTS)
  })

  it('the roots question reaches a 2026-07-28 client too, in the rounds of its first call, and the call sees them', async () => {
    const client = new Client({ name: 'flatmcp-test', version: '1' }, { capabilities: { roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
    client.setRequestHandler('roots/list', async () => ({ roots: ROOTS }))
    await client.connect(new StdioClientTransport({ command: process.execPath, args: proxied().slice(1), cwd: ROOT, stderr: 'ignore' }))
    opened.push({ client, stderr: () => '' })
    await client.listTools()
    expect(JSON.parse(textOf(await client.callTool({ name: 'roots', arguments: {} })))).toEqual(ROOTS)
  })

  it('output schemas are listed compiled (a root object; no $schema, $ref, definitions or union), and results pass the client\'s own check against them', async () => {
    const { direct, through } = await plainPair()
    const listed = (await through.client.listTools()).tools
    const forecast = listed.find(tool => tool.name === 'forecast')!
    expect(forecast.outputSchema!.type).toBe('object')
    for (const tool of listed.filter(t => t.outputSchema))
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toMatch(/"(\$schema|\$ref|definitions|\$defs|anyOf|oneOf)"/)
    const own = (await direct.client.listTools()).tools.find(tool => tool.name === 'forecast')!
    expect(JSON.stringify(own.outputSchema)).toMatch(/"\$schema".*"definitions"/)
    const args = { city: 'Oslo', days: 3 }
    const result = await through.client.callTool({ name: 'forecast', arguments: args })
    expect(result.structuredContent).toEqual({ city: 'Oslo', days: [{ kind: 'sun', high: 20 }, { kind: 'rain', mm: 1 }, { kind: 'sun', high: 22 }] })
    expect(result.structuredContent).toEqual((await direct.client.callTool({ name: 'forecast', arguments: args })).structuredContent)
  })

  it('a server that breaks its own output schema: its result goes on as it came, the schema is no longer listed, said once, and later calls pass; --outputs unlisted lists none', async () => {
    const through = await open(proxied())
    await through.client.listTools()
    await expect(through.client.callTool({ name: 'echo', arguments: { word: 'hi' } })).rejects.toThrow(/does not match the tool's output schema/)
    await expect.poll(() => through.stderr()).toContain('tool "echo" answered with structuredContent its output schema does not take; its output schema is no longer listed')
    expect((await through.client.listTools()).tools.find(tool => tool.name === 'echo')!.outputSchema).toBeUndefined()
    expect((await through.client.callTool({ name: 'echo', arguments: { word: 'hi' } })).structuredContent).toEqual({ echo: 5 })
    expect(through.stderr().match(/answered with structuredContent/g)).toHaveLength(1)
    // With --outputs unlisted no output schema is listed: the first call passes too.
    const unlisted = await open(proxied('--outputs', 'unlisted'))
    expect((await unlisted.client.listTools()).tools.filter(tool => tool.outputSchema)).toEqual([])
    expect((await unlisted.client.callTool({ name: 'echo', arguments: { word: 'hi' } })).structuredContent).toEqual({ echo: 5 })
  })

  it('every fallback is said: by flatmcp snapshot, which records it, by a proxy serving that snapshot, by inspect and by the probe', async () => {
    const file = join(scratch, 'outputs.mcp.json')
    const made = await runCli(['snapshot', '--out', file, '--', ...UPSTREAM_OUTPUTS])
    expect(made.code, made.stderr).toBe(0)
    const fallback = 'tool "search" served as portable, not anthropic-strict: 30 optional parameters (Anthropic takes 24 per request)'
    expect(made.stderr).toContain(`flatmcp snapshot: ${fallback}`)
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { runtime: Record<string, { profiles: Record<string, { strict?: boolean }> }>, diagnostics: { tool: string, code: string }[] }
    expect(snapshot.runtime.search!.profiles['anthropic-strict']!.strict).toBe(false)
    expect(snapshot.diagnostics).toContainEqual(expect.objectContaining({ tool: 'search', code: 'strict-fallback' }))
    const served = await open([process.execPath, CLI, 'proxy', '--artifact', file, '--', ...UPSTREAM_OUTPUTS])
    await served.client.listTools()
    await expect.poll(() => served.stderr()).toContain(`flatmcp proxy: ${fallback}`)
    const inspected = await runCli(['inspect', file, '--tool', 'search', '--profile', 'anthropic-strict'])
    expect(inspected.code, inspected.stderr).toBe(0)
    expect(inspected.stdout).toContain('served as portable: not strict')
    expect(inspected.stdout).toContain('fallback: served as portable, not anthropic-strict: 30 optional parameters')
    const probed = await runCli(['probe', file, '--samples', '20'])
    expect(probed.stdout).toContain('search: served as portable, not anthropic-strict: 30 optional parameters')
    expect(probed.code, probed.stdout).toBe(0)
  })
})

describe('how the proxy ends, in front of a server that does not exit when its input ends', () => {
  const LINGERING = [process.execPath, 'test/support/lingering-upstream.mjs']
  /** Whether a process runs (a zombie waiting for its parent does not). */
  const alive = (pid: number): boolean => {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
    }
    catch {
      return false
    }
  }
  const pidsOf = (text: string): { server: number, helper: number } => JSON.parse(JSON.parse(text).result.content[0].text)
  /** The proxy started by hand: its answers by id, and what ends it. */
  function started(flags: string[] = []): { child: ReturnType<typeof spawn>, answers: Map<number, string>, send: (message: object) => void } {
    const child = spawn(process.execPath, [CLI, 'proxy', ...flags, '--', ...LINGERING], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] })
    const answers = new Map<number, string>()
    let buffer = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end)
        buffer = buffer.slice(end + 1)
        const id = (JSON.parse(line) as { id?: unknown }).id
        if (typeof id === 'number')
          answers.set(id, line)
      }
    })
    return { child, answers, send: message => child.stdin!.write(`${JSON.stringify(message)}\n`) }
  }
  const hello = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' }

  it('a client that closes it (its input, then SIGTERM 2 s later): the server and what it started end with the proxy', async () => {
    const client = new Client({ name: 'flatmcp-test', version: '1' })
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--', ...LINGERING], cwd: ROOT, stderr: 'ignore' }))
    const { server, helper } = JSON.parse(textOf(await client.callTool({ name: 'pids', arguments: {} }))) as { server: number, helper: number }
    expect([alive(server), alive(helper)]).toEqual([true, true])
    await client.close()
    await expect.poll(() => [alive(server), alive(helper)], { timeout: 15_000 }).toEqual([false, false])
  })

  it('Ctrl-C (SIGINT) or SIGTERM ends the server and what it started at once', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const proxy = started()
      proxy.send(hello)
      await expect.poll(() => proxy.answers.has(1), { timeout: 30_000 }).toBe(true)
      proxy.send(initialized)
      proxy.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'pids', arguments: {} } })
      await expect.poll(() => proxy.answers.has(2), { timeout: 30_000 }).toBe(true)
      const { server, helper } = pidsOf(proxy.answers.get(2)!)
      const exited = new Promise(resolve => proxy.child.once('exit', resolve))
      proxy.child.kill(signal)
      await exited
      await expect.poll(() => [alive(server), alive(helper)], { timeout: 5_000 }).toEqual([false, false])
    }
  })

  it('a request the client cancelled, one whose id is past 2^53, one that also carries an error: none holds the proxy once its input ends', async () => {
    const proxy = started()
    proxy.send(hello)
    proxy.send(initialized)
    proxy.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'pids', arguments: {} } })
    proxy.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } })
    proxy.child.stdin!.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n')
    proxy.send({ jsonrpc: '2.0', id: 7, method: 'ping', error: { code: 1, message: 'x' } })
    proxy.child.stdin!.end()
    const code = await new Promise(resolve => proxy.child.once('exit', resolve))
    expect(code).toBe(0)
    expect(JSON.parse(proxy.answers.get(7)!).error.code).toBe(-32600)
  })

  it('requests written before the end of input are answered before the proxy ends, and the server ends with it', async () => {
    const proxy = started()
    proxy.send(hello)
    proxy.send(initialized)
    proxy.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
    proxy.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'pids', arguments: {} } })
    proxy.child.stdin!.end()
    const code = await new Promise(resolve => proxy.child.once('exit', resolve))
    expect(code).toBe(0)
    expect([...proxy.answers.keys()].sort()).toEqual([1, 2, 3])
    expect(JSON.parse(proxy.answers.get(2)!).result.tools.map((tool: { name: string }) => tool.name)).toEqual(['pids'])
    const { server, helper } = pidsOf(proxy.answers.get(3)!)
    await expect.poll(() => [alive(server), alive(helper)], { timeout: 5_000 }).toEqual([false, false])
  })
})

describe('what the proxy says it serves', () => {
  it('--always-load of a tool named as one of the search surface\'s own says the surface\'s is listed, and the upstream\'s is reached through call_tool', async () => {
    const { client, stderr } = await open([process.execPath, CLI, 'proxy', '--surface', 'search', '--always-load', 'call_tool', '--', process.execPath, 'test/support/lingering-upstream.mjs', 'call_tool'])
    expect((await client.listTools()).tools.map(tool => tool.name)).toEqual(Object.values(SURFACE_TOOLS))
    await expect.poll(stderr, { timeout: 30_000 }).toContain('flatmcp proxy: serving 1 tool of')
    expect(stderr()).toContain('(--always-load call_tool: the search surface\'s own tool of that name is listed; the upstream\'s is reached through call_tool)')
    expect(stderr()).not.toContain('and call_tool listed beside them')
  })
})

describe('flatmcp proxy --http under load', () => {
  it('40 clients that never read a 9 MB answer and 500 calls at once: every call answered (or refused at once as busy), the readers dropped and counted, memory bounded', async () => {
    const proxy = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--', ...UPSTREAM_OUTPUTS])
    const readers: Socket[] = []
    try {
      const { port } = new URL(proxy.url)
      const residentMiB = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proxy.child.pid}/status`, 'utf8'))![1]) / 1024
      const post = (id: number, name: string, args: Record<string, unknown>): string => {
        const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })
        return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
      }
      // Each asks for 9 MB and reads nothing (they held 566 MB before answers were written as read).
      for (let i = 0; i < 40; i++) {
        const reader = createConnection(Number(port), '127.0.0.1')
        reader.on('error', () => {})
        reader.pause()
        reader.write(post(i, 'big', { megabytes: 9 }))
        readers.push(reader)
      }
      const dropped = (): number => Math.max(0, ...[...proxy.stderr().matchAll(/did not read its answer \([^)]*\); (\d+) so far/g)].map(match => Number(match[1])))
      for (let waited = 0; dropped() < 16 && waited < 600; waited++)
        await new Promise(resolve => setTimeout(resolve, 100))
      // At most 64 MiB waits for readers: of 40 answers of 9 MB, at least 16 were dropped (counted at 1, 2, 4, 8, 16…).
      expect(dropped()).toBeGreaterThanOrEqual(16)
      expect(proxy.stderr()).not.toContain('megabytes')
      const answers = await Promise.all(Array.from({ length: 500 }, async (_, n) => {
        const response = await fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'env', arguments: { name: 'HOME' } } }) })
        return `${response.status} ${/"text":"([^"]*)"/.exec(await response.text())?.[1]}`
      }))
      const busy = answers.filter(answer => answer.includes('its limit; try again shortly'))
      expect(answers.filter(answer => !busy.includes(answer))).toEqual(Array.from({ length: 500 - busy.length }, () => `200 ${process.env.HOME}`))
      expect(busy.every(answer => answer.startsWith('200 '))).toBe(true)
      expect(residentMiB()).toBeLessThan(480)
      expect(proxy.child.exitCode).toBe(null)
    }
    finally {
      readers.forEach(reader => reader.destroy())
      await proxy.close()
    }
  }, SLOW)
})
