// The fetch handler in front of many servers, from a snapshot of the whole set: real HTTP upstreams
// (an SDK 1.x server that keeps 2025 sessions, SDK 2.x servers that serve both eras statelessly, two
// replicas folded), the snapshot made by the gateway, and the real SDK 2.x client in both eras.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { createGateway, SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { createProxyHandler } from '@flatmcp/runtime/proxy/fetch'
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { freePort } from './support/proxy'
import { serveFetch } from './support/serve-fetch'

const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text

async function listen(name: string, fetch: (request: Request) => Promise<Response>): Promise<{ url: string, server: Server }> {
  const server = serveFetch(name, 0, fetch)
  await new Promise(resolve => server.once('listening', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server }
}

/** An SDK 1.x server that keeps a session per client (2025 era only): each session its own transport. */
function notesServer(open: Set<string>): (request: Request) => Promise<Response> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>()
  return async (request) => {
    const id = request.headers.get('mcp-session-id')
    if (id !== null)
      return sessions.get(id)?.handleRequest(request) ?? new Response('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}', { status: 404 })
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (made) => {
        sessions.set(made, transport)
        open.add(made)
      },
      onsessionclosed: (closed) => {
        sessions.delete(closed)
        open.delete(closed)
      },
    })
    const server = new McpServerV1({ name: 'notes', version: '1.0.0' })
    server.registerTool('add_note', { inputSchema: { note: z.object({ title: z.string(), tags: z.array(z.string()) }) } }, args => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }))
    await server.connect(transport)
    return transport.handleRequest(request)
  }
}

/** An SDK 2.x server, stateless in both eras: a union-taking search, or a region's metrics. */
function v2Server(name: string, region?: string): (request: Request) => Promise<Response> {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name, version: '1.0.0' })
    if (region === undefined) {
      server.registerTool('find', { inputSchema: z.object({ by: z.discriminatedUnion('kind', [z.object({ kind: z.literal('text'), q: z.string() }), z.object({ kind: z.literal('id'), id: z.number() })]) }) }, args => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }))
    }
    else {
      server.registerTool('cpu', { inputSchema: z.object({ host: z.string() }) }, ({ host }) => ({ content: [{ type: 'text', text: `${region}:${host}` }] }))
    }
    return server
  })
  return request => handler.fetch(request)
}

const open = new Set<string>()
const servers: Server[] = []
const urls: Record<string, string> = {}
let snapshot: unknown

beforeAll(async () => {
  for (const [name, fetch] of [['notes', notesServer(open)], ['search', v2Server('search')], ['eu', v2Server('metrics', 'eu')], ['us', v2Server('metrics', 'us')]] as const) {
    const { url, server } = await listen(name, fetch)
    urls[name] = url
    servers.push(server)
  }
  const gateway = await createGateway(Object.entries(urls).map(([name, url]) => ({ name, target: { url } })), { replicas: { metrics: ['eu', 'us'] }, log: () => {} })
  try {
    await gateway.ready
    snapshot = gateway.snapshot('flatmcp@test')
  }
  finally {
    await gateway.close()
  }
})
afterAll(() => {
  for (const server of servers)
    server.close()
})

async function connected(handler: { fetch: (request: Request) => Promise<Response> }, mode: 'legacy' | { pin: '2026-07-28' } = 'legacy', seen?: string[], url = 'http://proxy.test/mcp'): Promise<Client> {
  const client = new Client({ name: 'caller', version: '1' }, { versionNegotiation: { mode } })
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (url, init) => {
      const answer = await handler.fetch(new Request(url, init))
      seen?.push(answer.headers.get('mcp-session-id') ?? '')
      return answer
    },
  })
  await client.connect(transport)
  return client
}

describe('the fetch handler in front of many servers', () => {
  it('a snapshot of the set records where each served tool comes from; a folded tool names its replicas', () => {
    const runtime = (snapshot as { runtime: Record<string, { origin?: unknown }> }).runtime
    expect(runtime.notes__add_note!.origin).toEqual({ server: 'notes', name: 'add_note' })
    expect(runtime.metrics__cpu!.origin).toEqual({ server: 'metrics', name: 'cpu', replicas: ['eu', 'us'] })
  })

  it('a 2025 session is one session with each server: every call reaches its own (JSON text and a stringified number repaired, a replica by target), and ending it ends theirs', async () => {
    const ajv = new Ajv2020({ strict: false })
    const handler = createProxyHandler({ upstreams: urls, snapshot, log: () => {}, validator: schema => ajv.compile(schema as object) as (value: unknown) => boolean })
    const seen: string[] = []
    const before = new Set(open)
    const client = await connected(handler, 'legacy', seen)
    try {
      expect(Object.keys(client.getServerCapabilities()!)).toEqual(['tools'])
      expect(open.size).toBe(before.size + 1)
      const tools = (await client.listTools()).tools
      expect(tools.map(tool => tool.name).sort()).toEqual(['metrics__cpu', 'notes__add_note', 'search__find'])
      expect(JSON.stringify(tools.find(tool => tool.name === 'search__find')!.inputSchema)).not.toMatch(/anyOf|oneOf/)
      expect(JSON.parse(textOf(await client.callTool({ name: 'notes__add_note', arguments: { note: '{"title":"t","tags":["a"]}' } })))).toEqual({ note: { title: 't', tags: ['a'] } })
      expect(JSON.parse(textOf(await client.callTool({ name: 'search__find', arguments: { by: { kind: 'id', id: '7' } } })))).toEqual({ by: { kind: 'id', id: 7 } })
      expect(textOf(await client.callTool({ name: 'metrics__cpu', arguments: { host: 'h1', target: 'us' } }))).toBe('us:h1')
      expect(textOf(await client.callTool({ name: 'metrics__cpu', arguments: { host: 'h1', target: 'eu' } }))).toBe('eu:h1')
      const wrong = await client.callTool({ name: 'metrics__cpu', arguments: { host: 'h1', target: 'ap' } })
      expect(wrong.isError).toBe(true)
      expect(textOf(wrong)).toBe('"target" must name one of "eu", "us" (it was "ap").')
      expect(seen.find(id => id.startsWith('flatmcp1.'))).toBeDefined()
    }
    finally {
      await (client.transport as StreamableHTTPClientTransport).terminateSession()
      await client.close()
    }
    expect(open).toEqual(before)
  })

  it('a 2026-07-28 client is served with no session: its calls go to each server as it sent them, its discover and list carry ttlMs and cacheScope', async () => {
    const handler = createProxyHandler({ upstreams: urls, snapshot, log: () => {} })
    const client = await connected(handler, { pin: '2026-07-28' })
    try {
      expect(JSON.parse(textOf(await client.callTool({ name: 'search__find', arguments: { by: '{"kind":"text","q":"x"}' } })))).toEqual({ by: { kind: 'text', q: 'x' } })
      expect(textOf(await client.callTool({ name: 'metrics__cpu', arguments: { host: 'h2', target: 'eu' } }))).toBe('eu:h2')
    }
    finally {
      await client.close()
    }
    // Read raw: the SDK client takes a discover without them (Claude Code 2.1.233+ refuses a list without them).
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
    for (const method of ['server/discover', 'tools/list']) {
      const answer = await handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: envelope } }) }))
      expect((await answer.json() as { result: object }).result, method).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'public' })
    }
  })

  it('a server that does not answer when a session begins: its tools answer with an error naming it, the others serve; said once', async () => {
    const lines: string[] = []
    const handler = createProxyHandler({ upstreams: { ...urls, search: `http://127.0.0.1:${await freePort()}/mcp` }, snapshot, log: line => lines.push(line) })
    const client = await connected(handler)
    try {
      const down = await client.callTool({ name: 'search__find', arguments: { by: { kind: 'id', id: 1 } } })
      expect(down.isError).toBe(true)
      expect(textOf(down)).toBe('The server "search" behind this proxy did not answer when this session began; start a new session to reach its tools.')
      expect(textOf(await client.callTool({ name: 'metrics__cpu', arguments: { host: 'h3', target: 'us' } }))).toBe('us:h3')
      expect(lines).toEqual([expect.stringContaining('flatmcp proxy: server "search" could not be reached'), 'flatmcp proxy: server "search" did not answer initialize (HTTP 502); this session reaches its tools with an error naming it'])
    }
    finally {
      await client.close()
    }
  })

  it('a caller\'s view (?view=) holds: its list and surface are its own, a tool outside it is no tool to a direct call or to call_tool, and none of those reaches its server', async () => {
    const viewed = structuredClone(snapshot) as { overrides?: { file: unknown, fixed: object } }
    viewed.overrides = { file: { tools: {}, views: { metrics: { tools: ['metrics__cpu'] }, lean: { tools: ['metrics__cpu'], surface: 'search' } } }, fixed: {} }
    const reached: string[] = []
    const handler = createProxyHandler({ upstreams: urls, snapshot: viewed, log: () => {}, fetch: async (request) => {
      reached.push(new URL(request.url).port)
      return fetch(request)
    } })
    const as = async (view: string): Promise<Client> => connected(handler, { pin: '2026-07-28' }, undefined, `http://proxy.test/mcp?view=${view}`)
    const [metrics, lean] = [await as('metrics'), await as('lean')]
    try {
      expect((await metrics.listTools()).tools.map(tool => tool.name)).toEqual(['metrics__cpu'])
      expect((await lean.listTools()).tools.map(tool => tool.name)).toEqual(Object.values(SURFACE_TOOLS))
      await expect(metrics.callTool({ name: 'search__find', arguments: { by: { kind: 'id', id: 1 } } })).rejects.toThrow('Unknown tool "search__find".')
      const viaSurface = await lean.callTool({ name: 'call_tool', arguments: { name: 'search__find', arguments: { by: { kind: 'id', id: 1 } } } })
      expect(viaSurface.isError).toBe(true)
      expect(textOf(viaSurface)).toBe('Unknown tool "search__find".')
      expect(reached).toEqual([])
      expect(textOf(await metrics.callTool({ name: 'metrics__cpu', arguments: { host: 'h4', target: 'eu' } }))).toBe('eu:h4')
      expect(reached).toHaveLength(1)
    }
    finally {
      await metrics.close()
      await lean.close()
    }
  })

  it('callers held to rules (the credential names the caller): each lists and calls only what its rule admits, a denied tool answered as a name no tool has, and none of it reaches a server', async () => {
    const reached: string[] = []
    const handler = createProxyHandler({ upstreams: urls, snapshot, log: () => {}, callers: [{ name: 'ops', token: 'ops-token' }, { name: 'reader', token: 'reader-token' }], rules: { default: 'deny', callers: { ops: { allow: ['metrics__*', 'search__*'], deny: ['search__*'] }, reader: { allow: ['notes__*'] } } }, fetch: async (request) => {
      reached.push(new URL(request.url).port)
      return fetch(request)
    } })
    const as = async (token: string): Promise<Client> => {
      const client = new Client({ name: 'caller', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
      await client.connect(new StreamableHTTPClientTransport(new URL('http://proxy.test/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: async (url, init) => handler.fetch(new Request(url, init)) }))
      return client
    }
    const [ops, reader] = [await as('ops-token'), await as('reader-token')]
    try {
      expect((await ops.listTools()).tools.map(tool => tool.name)).toEqual(['metrics__cpu'])
      expect((await reader.listTools()).tools.map(tool => tool.name)).toEqual(['notes__add_note'])
      const refused = async (client: Client, name: string): Promise<string> => client.callTool({ name, arguments: {} }).then(() => 'answered', (error: Error) => error.message.replace(name, 'NAME'))
      expect(await refused(ops, 'search__find')).toBe(await refused(ops, 'search__fnid'))
      expect(await refused(ops, 'notes__add_note')).toMatch(/Unknown tool "NAME"\.$/)
      expect(reached).toEqual([])
      expect(textOf(await ops.callTool({ name: 'metrics__cpu', arguments: { host: 'h5', target: 'eu' } }))).toBe('eu:h5')
    }
    finally {
      await ops.close()
      await reader.close()
    }
  })

  it('what it does not serve is said: prompts are not found, a session it did not make is unknown, a batch and a GET are refused', async () => {
    const handler = createProxyHandler({ upstreams: urls, snapshot, log: () => {} })
    const post = async (body: unknown, headers: Record<string, string> = {}): Promise<Response> => handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) }))
    const prompts = await (await post({ jsonrpc: '2.0', id: 1, method: 'prompts/list' })).json() as { error: { code: number, message: string } }
    expect(prompts.error).toEqual({ code: -32601, message: 'Method not found: "prompts/list" (this proxy serves the tools of the servers behind it; their prompts and resources are served by flatmcp proxy --config).' })
    const forged = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'notes__add_note', arguments: { note: { title: 't', tags: [] } } } }, { 'mcp-session-id': 'flatmcp1.bm90IGpzb24' })
    expect(forged.status).toBe(404)
    expect((await post([{ jsonrpc: '2.0', id: 3, method: 'ping' }])).status).toBe(400)
    expect((await handler.fetch(new Request('http://proxy.test/mcp'))).status).toBe(405)
  })

  it('refuses at creation a snapshot of one server, or servers the upstreams give no endpoint for, naming them', () => {
    expect(() => createProxyHandler({ upstreams: { notes: urls.notes! }, snapshot })).toThrow('upstreams gives no endpoint for "search", "eu", "us", whose tools the snapshot holds')
    expect(() => createProxyHandler({ upstreams: { ...urls, eu: 'not a url' }, snapshot })).toThrow('upstreams["eu"]: "not a url" is not a URL')
    const one = structuredClone(snapshot) as { runtime: Record<string, { origin?: unknown }> }
    delete one.runtime.search__find!.origin
    expect(() => createProxyHandler({ upstreams: urls, snapshot: one })).toThrow('the snapshot does not say which server tool "search__find" comes from: make it with flatmcp snapshot --config, or give the handler one upstream')
  })
})
