// The proxy's fetch handler (`@flatmcp/runtime/proxy/fetch`) as a real Cloudflare Worker under
// workerd: examples/proxy-worker, bundled with esbuild as its build script bundles it, in front of
// real HTTP upstreams, the SDK 2.x server (stateless) and FastMCP (sessions, which pass through the
// stateless handler). Real SDK 2.x clients in both eras: the snapshot's flat list per profile route,
// calls repaired and read back, the upstream's own answers, resources, and a body over the bound refused.
import type { Client } from '@modelcontextprotocol/client'
import type { Listening } from './support/proxy'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { modelAnswer, TARGET_NAMES } from '@flatmcp/core'
import { SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { freePort, httpClient, listening, runCli, startListening, UPSTREAM_V2 } from './support/proxy'
import { PYTHON_DIR, pythonStack } from './support/python'
import { serveFetch } from './support/serve-fetch'
import { SLOW } from './support/timeouts'

type Result = { isError?: boolean, content: { type: string, text?: string }[] }
interface Listed { name: string, inputSchema: Record<string, unknown> }
interface SnapshotFile { tools: Listed[], runtime: Record<string, { profiles?: Record<string, { inputSchema: Record<string, unknown>, decode?: unknown, strict?: boolean }> }> }

/** The workerd binary itself, not the package's shim (a shell and a node wrapper around it): ending it ends the server. */
const WORKERD = (createRequire(import.meta.url)('workerd') as { default: string }).default
const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-workerd-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The handler bundled as a Worker module, with the snapshot in it; served by workerd on a free port. */
async function startWorker(name: string, snapshotFile: string, upstreamUrl: string | Record<string, string>): Promise<{ url: string, close: () => void, stderr: () => string }> {
  const dir = join(scratch, name)
  // The example's entry, bundled as its build script bundles it, with this snapshot in it.
  await build({
    entryPoints: [join(ROOT, 'examples/proxy-worker/src/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    outfile: join(dir, 'worker.mjs'),
    logLevel: 'error',
    plugins: [{ name: 'snapshot', setup: (bundler) => {
      bundler.onResolve({ filter: /upstream\.mcp\.json$/ }, () => ({ path: snapshotFile }))
    } }],
  })
  // The bundle needs no Node built-in and no SDK: what a Worker can load.
  expect(readFileSync(join(dir, 'worker.mjs'), 'utf8')).not.toMatch(/from ["'](node:|@modelcontextprotocol)/)
  const port = await freePort()
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "internet", network = (allow = ["public", "private", "local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.mjs", esModule = embed "worker.mjs") ],
  compatibilityDate = "2026-11-01",
  bindings = [ (name = "${typeof upstreamUrl === 'string' ? 'UPSTREAM' : 'UPSTREAMS'}", text = ${JSON.stringify(typeof upstreamUrl === 'string' ? upstreamUrl : JSON.stringify(upstreamUrl))}) ],
  globalOutbound = "internet",
);
`)
  const child = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  child.stdout.resume()
  await listening(port)
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => child.kill(), stderr: () => stderr }
}

const call = async (client: Client, name: string, args: unknown): Promise<Result> => await client.callTool({ name, arguments: args as Record<string, unknown> }) as Result

describe('the proxy\'s fetch handler as a Worker under workerd, in front of the SDK 2.x server', () => {
  let upstream: Listening
  let worker: Awaited<ReturnType<typeof startWorker>>
  let snapshot: SnapshotFile
  const clients: Client[] = []
  const connect = async (url: string, era: 'legacy' | 'modern' = 'legacy'): Promise<Client> => {
    const client = await httpClient(url, era)
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    upstream = await startListening(UPSTREAM_V2[0]!, [...UPSTREAM_V2.slice(1), '--http', '0'])
    const file = join(scratch, 'v2.mcp.json')
    const made = await runCli(['snapshot', '--out', file, upstream.url])
    expect(made.code, made.stderr).toBe(0)
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as SnapshotFile
    worker = await startWorker('v2', file, upstream.url)
  }, SLOW)

  afterAll(async () => {
    await Promise.all(clients.map(client => client.close().catch(() => {})))
    worker?.close()
    await upstream?.close()
  })

  it('serves the snapshot\'s list to both eras, each profile at its route, and reads each profile\'s model answers back to the direct call\'s output', async () => {
    const direct = await connect(upstream.url)
    for (const era of ['legacy', 'modern'] as const) {
      const client = await connect(worker.url, era)
      expect((await client.listTools()).tools).toEqual(snapshot.tools)
      expect((await call(client, 'send', { kind: 'album', urls: '["a","b"]' })).content).toEqual((await call(direct, 'send', { kind: 'album', urls: ['a', 'b'] })).content)
      expect((await call(client, 'page', { query: 'q', limit: '9' })).content).toEqual((await call(direct, 'page', { query: 'q', limit: 9 })).content)
    }
    for (const profile of TARGET_NAMES) {
      const client = await connect(`${worker.url}/${profile}`, 'modern')
      const advertised = (await client.listTools()).tools as unknown as Listed[]
      for (const [name, args] of [['send', { kind: 'message', text: 'hi' }], ['send', { kind: 'album', urls: ['a', 'b'] }], ['page', { query: 'q' }]] as const) {
        const form = snapshot.runtime[name]!.profiles![profile]!
        expect(advertised.find(tool => tool.name === name)!.inputSchema).toEqual(form.inputSchema)
        const written = modelAnswer(form.inputSchema, form.decode as never, args, { nullsForMissing: profile === 'openai-strict' && form.strict === true })
        expect((await call(client, name, written)).content, `${profile} ${name} ${JSON.stringify(written)}`).toEqual((await call(direct, name, args)).content)
      }
    }
  })

  it('serves the search surface: finds and describes from the snapshot, and a call_tool goes upstream as the call it names, read as a direct one, in both eras', async () => {
    const { createProxyHandler, profileOfPath } = await import('@flatmcp/runtime/proxy/fetch')
    const { Validator } = await import('@cfworker/json-schema')
    const handler = createProxyHandler({
      upstream: upstream.url,
      snapshot,
      surface: 'search',
      profile: ({ url }) => url ? profileOfPath(url.pathname) : undefined,
      // As the example Worker reads the upstream's schemas, so the reading a call needs is chosen.
      validator: (schema) => {
        const validator = new Validator(schema as never, '2020-12', false)
        return value => validator.validate(value as never).valid
      },
    })
    const port = await freePort()
    serveFetch('surface handler', port, handler.fetch)
    await listening(port)
    const direct = await connect(upstream.url)
    for (const era of ['legacy', 'modern'] as const) {
      const client = await connect(`http://127.0.0.1:${port}/mcp`, era)
      expect((await client.listTools()).tools.map(tool => tool.name)).toEqual(Object.values(SURFACE_TOOLS))
      expect((await call(client, 'find_tools', { query: 'send an album' })).content[0]!.text).toMatch(/^\[fit 1\.00\] send: /)
      const described = JSON.parse((await call(client, 'describe_tools', { names: ['send'] })).content[0]!.text!) as { tools: Listed[] }
      expect(described.tools.map(({ name, inputSchema }) => ({ name, inputSchema }))).toEqual(snapshot.tools.filter(tool => tool.name === 'send').map(({ name, inputSchema }) => ({ name, inputSchema })))
      expect((await call(client, 'call_tool', { name: 'send', arguments: { kind: 'album', urls: '["a","b"]' } })).content).toEqual((await call(direct, 'send', { kind: 'album', urls: ['a', 'b'] })).content)
      expect((await call(client, 'call_tool', { name: 'page', arguments: '{"query":"q","limit":"9"}' })).content).toEqual((await call(direct, 'page', { query: 'q', limit: 9 })).content)
      expect((await call(client, 'call_tool', { name: 'page', arguments: '{oops' })).content[0]!.text).toMatch(/not JSON text of an object/)
    }
    // The surface's tools in a batch are refused whole (MCP has had no batches since 2025-06-18).
    const batch = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'page', arguments: { query: 'q' } } }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'call_tool', arguments: { name: 'page', arguments: { query: 'q' } } } }]) })
    expect([batch.status, (await batch.json() as { error: { message: string } }).error.message]).toEqual([400, 'Send find_tools, describe_tools, call_tool on their own, not in a batch.'])
    // A strict profile's call_tool takes its arguments as JSON text, and its inverse reads them.
    const strict = await connect(`http://127.0.0.1:${port}/mcp/openai-strict`, 'modern')
    const listed = (await strict.listTools()).tools as unknown as Listed[]
    expect((listed.find(tool => tool.name === 'call_tool')!.inputSchema.properties as Record<string, { type: string }>).arguments!.type).toBe('string')
    const form = snapshot.runtime.page!.profiles!['openai-strict']!
    const written = modelAnswer(form.inputSchema, form.decode as never, { query: 'q' }, { nullsForMissing: form.strict === true })
    expect((await call(strict, 'call_tool', { name: 'page', arguments: JSON.stringify(written) })).content).toEqual((await call(direct, 'page', { query: 'q' })).content)
  })

  it('offers progressive disclosure: the handshake says so, tools/catalog and tools/describe answer from the snapshot with the hashes it records, in both eras', async () => {
    const loose = (await import('zod')).z.looseObject({})
    // The upstream does not offer it; the Worker's answer to initialize does (clients keep only the keys they know: read it raw).
    const handshake = async (url: string): Promise<Record<string, unknown>> => {
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }) })
      const text = await answer.text()
      const json = text.trimStart().startsWith('{') ? text : text.split('\n').find(line => line.startsWith('data:'))!.slice(5)
      return (JSON.parse(json) as { result: { capabilities: { tools: Record<string, unknown> } } }).result.capabilities.tools
    }
    expect(await handshake(upstream.url)).not.toHaveProperty('progressiveDisclosure')
    expect(await handshake(worker.url)).toMatchObject({ progressiveDisclosure: true })
    const recorded = JSON.parse(readFileSync(join(scratch, 'v2.mcp.json'), 'utf8')) as { runtime: Record<string, { schemaHash: Record<string, string> }> }
    for (const era of ['legacy', 'modern'] as const) {
      for (const profile of ['portable', 'openai-strict'] as const) {
        const client = await connect(profile === 'portable' ? worker.url : `${worker.url}/${profile}`, era)
        const listed = (await client.listTools()).tools
        const catalog = await client.request({ method: 'tools/catalog', params: {} } as never, loose) as unknown as { tools: { name: string, summary: string, schemaHash: string }[], nextCursor?: string }
        expect(catalog.tools.map(entry => entry.name)).toEqual(listed.map(tool => tool.name))
        expect(catalog.nextCursor).toBeUndefined()
        for (const entry of catalog.tools)
          expect(entry.schemaHash, `${era} ${profile} ${entry.name}`).toBe(recorded.runtime[entry.name]!.schemaHash[profile])
        const described = await client.request({ method: 'tools/describe', params: { names: ['page', 'send'] } } as never, loose) as unknown as { tools: unknown[] }
        expect(described.tools).toEqual(['page', 'send'].map(name => listed.find(tool => tool.name === name)))
        await expect(client.request({ method: 'tools/describe', params: { names: ['page', 'nope'] } } as never, loose)).rejects.toMatchObject({ code: -32002, data: { unknownNames: ['nope'] } })
      }
    }
  })

  it('passes the upstream\'s own answers and everything else through: an invalid call\'s error, resources, prompts', async () => {
    const [client, direct] = await Promise.all([connect(worker.url), connect(upstream.url)])
    expect(await call(client, 'send', { kind: 'album', urls: ['one'] })).toEqual(await call(direct, 'send', { kind: 'album', urls: ['one'] }))
    expect(await client.readResource({ uri: 'upstream://readme' })).toEqual(await direct.readResource({ uri: 'upstream://readme' }))
    expect(await client.getPrompt({ name: 'review', arguments: { code: 'x' } })).toEqual(await direct.getPrompt({ name: 'review', arguments: { code: 'x' } }))
  })

  it('refuses a body over 4 MiB before reading it (413, or workerd cuts the upload), and serves on', async () => {
    // The handler answers 413 without reading the body (the in-process test sees the status); workerd
    // then closes the connection, and a client still uploading may see its write cut instead.
    const { request } = await import('node:http')
    const outcome = await new Promise<string>((resolve) => {
      const sending = request(worker.url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' } }, (res) => {
        res.resume()
        resolve(String(res.statusCode))
      })
      sending.on('error', (error: NodeJS.ErrnoException) => setTimeout(() => resolve(error.code ?? error.message), 1000))
      sending.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'page', arguments: { query: 'x'.repeat(4.5 * 1024 * 1024) } } }))
    })
    expect(outcome).toMatch(/^(413|EPIPE|ECONNRESET)$/)
    const client = await connect(worker.url)
    expect((await call(client, 'page', { query: 'after' })).content[0]?.text).toBe('{"query":"after"}')
  })
})

const stack = pythonStack()

describe.skipIf('skipped' in stack)('the proxy\'s fetch handler under workerd in front of FastMCP over HTTP (its sessions pass through)', () => {
  let upstream: { close: () => void }
  let worker: Awaited<ReturnType<typeof startWorker>>
  let client: Client
  let direct: Client

  beforeAll(async () => {
    const port = await freePort()
    const child = spawn((stack as { python: string }).python, [join(PYTHON_DIR, 'serve.py'), 'fastmcp', '--http', String(port)], { cwd: PYTHON_DIR, stdio: 'ignore' })
    upstream = { close: () => child.kill() }
    await listening(port)
    const url = `http://127.0.0.1:${port}/mcp`
    const file = join(scratch, 'fastmcp.mcp.json')
    const made = await runCli(['snapshot', '--out', file, url])
    expect(made.code, made.stderr).toBe(0)
    worker = await startWorker('fastmcp', file, url)
    client = await httpClient(worker.url)
    direct = await httpClient(url)
  }, SLOW)

  afterAll(async () => {
    await Promise.all([client?.close().catch(() => {}), direct?.close().catch(() => {})])
    worker?.close()
    upstream?.close()
  })

  it('lists flat, repairs JSON text pydantic refuses, and passes the upstream\'s answers on', async () => {
    const tools = (await client.listTools()).tools
    expect(JSON.stringify(tools.map(tool => tool.inputSchema))).not.toMatch(/"oneOf"|"\$ref"|"title"/)
    const sent = { shape: '{"kind":"rect","w":1,"h":2}', tags: '["a"]' }
    expect((await call(direct, 'draw', sent)).isError).toBe(true)
    expect((await call(client, 'draw', sent)).content).toEqual((await call(direct, 'draw', { shape: { kind: 'rect', w: 1, h: 2 }, tags: ['a'] })).content)
    expect(await call(client, 'draw', { shape: { kind: 'rect', w: 1 } })).toEqual(await call(direct, 'draw', { shape: { kind: 'rect', w: 1 } }))
  })
})

describe.skipIf('skipped' in stack)('the fetch handler under workerd in front of many servers: FastMCP (sessions) and the SDK 2.x server, from a snapshot of the set', () => {
  let upstreams: { close: () => void }[] = []
  let worker: Awaited<ReturnType<typeof startWorker>>
  let direct: Record<string, Client>
  const clients: Client[] = []

  beforeAll(async () => {
    const port = await freePort()
    const child = spawn((stack as { python: string }).python, [join(PYTHON_DIR, 'serve.py'), 'fastmcp', '--http', String(port)], { cwd: PYTHON_DIR, stdio: 'ignore' })
    const chat = await startListening(UPSTREAM_V2[0]!, [...UPSTREAM_V2.slice(1), '--http', '0'])
    upstreams = [{ close: () => child.kill() }, { close: () => void chat.close() }]
    await listening(port)
    const urls = { py: `http://127.0.0.1:${port}/mcp`, chat: chat.url }
    const config = join(scratch, 'many.json')
    writeFileSync(config, JSON.stringify({ mcpServers: { py: { url: urls.py }, chat: { url: urls.chat } } }))
    const file = join(scratch, 'many.mcp.json')
    const made = await runCli(['snapshot', '--config', config, '--out', file])
    expect(made.code, made.stderr).toBe(0)
    worker = await startWorker('many', file, urls)
    direct = { py: await httpClient(urls.py), chat: await httpClient(urls.chat) }
  }, SLOW)

  afterAll(async () => {
    await Promise.all([...clients, ...Object.values(direct ?? {})].map(client => client.close().catch(() => {})))
    worker?.close()
    for (const upstream of upstreams)
      upstream.close()
  })

  it('lists every server\'s tools flat by NAME__tool, and each call reaches its own server in its session (2025) or as sent (2026-07-28), repaired', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const client = await httpClient(worker.url, era)
      clients.push(client)
      const names = (await client.listTools()).tools.map(tool => tool.name)
      expect(names).toContain('py__draw')
      expect(names).toContain('chat__page')
      expect((await call(client, 'chat__page', { query: 'q', limit: '9' })).content).toEqual((await call(direct.chat!, 'page', { query: 'q', limit: 9 })).content)
      if (era === 'legacy')
        expect((await call(client, 'py__draw', { shape: '{"kind":"rect","w":1,"h":2}', tags: '["a"]' })).content).toEqual((await call(direct.py!, 'draw', { shape: { kind: 'rect', w: 1, h: 2 }, tags: ['a'] })).content)
    }
  })
})
