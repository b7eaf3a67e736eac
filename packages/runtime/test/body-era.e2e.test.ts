// The HTTP faces read a request's era from its body where the Mcp-Protocol-Version header names
// another (Claude Code through claude.ai connectors sends a 2025-11-25 header with a 2026-07-28 body),
// say so once, and refuse what is malformed as before; the guard and the callers' limits still hold.
import type { UpstreamClient } from '@flatmcp/runtime/proxy'
import { createProxy, serveProxy } from '@flatmcp/runtime/proxy'
import { createProxyHandler } from '@flatmcp/runtime/proxy/fetch'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { headedByBody } from '../src/proxy/http/body-era'

const upstream = {
  request: async (message: { method: string, params?: { arguments?: unknown } }) => message.method === 'tools/list'
    ? { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }] }
    : { content: [{ type: 'text', text: JSON.stringify(message.params?.arguments) }] },
  notification: async () => {},
  getServerCapabilities: () => ({ tools: {} }),
  getServerVersion: () => ({ name: 'fake', version: '1' }),
  getInstructions: () => undefined,
  setNotificationHandler: () => {},
} as unknown as UpstreamClient

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'claude-code', version: '2.1.233' }, 'io.modelcontextprotocol/clientCapabilities': {} }

/** A 2026-07-28 request as claude.ai connectors send it: its header names 2025-11-25. */
function mismatched(url: string, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-method': method, ...typeof params.name === 'string' ? { 'mcp-name': params.name } : {}, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } }),
  })
}

async function served(http: { tokens?: string[], limits?: Record<string, { callsPerMinute: number }> } = {}): Promise<{ url: string, lines: string[], close: () => Promise<void> }> {
  const lines: string[] = []
  const proxy = await createProxy(upstream, { log: () => {} })
  const serving = await serveProxy(proxy, { http: { host: '127.0.0.1', port: 0, ...http }, log: line => lines.push(line) })
  return { url: serving.url!, lines, close: serving.close }
}

describe('flatmcp proxy --http, a header and a body of different eras', () => {
  it('serves a 2026-07-28 body under a 2025-11-25 header in the body\'s era (its list with ttlMs and cacheScope), said once with both versions', async () => {
    const { url, lines, close } = await served()
    try {
      const listed = await fetch(mismatched(url, 'tools/list'))
      expect(listed.status).toBe(200)
      const list = (await listed.json() as { result: { tools: { name: string }[], ttlMs: number, cacheScope: string, resultType?: string } }).result
      expect(list.tools.map(tool => tool.name)).toEqual(['echo'])
      expect(list.ttlMs).toBeTypeOf('number')
      expect(['public', 'private']).toContain(list.cacheScope)
      const called = await fetch(mismatched(url, 'tools/call', { name: 'echo', arguments: { n: 3 } }))
      expect(await called.json()).toMatchObject({ result: { content: [{ type: 'text', text: '{"n":3}' }] } })
      expect(lines).toEqual(['flatmcp proxy: a client sent Mcp-Protocol-Version "2025-11-25" with a body of protocol version "2026-07-28"; served in the body\'s (said once)'])
    }
    finally {
      await close()
    }
  })

  it('still refuses what is malformed: an Mcp-Method or Mcp-Name the body does not name, a 2026-07-28 header on a body without its envelope', async () => {
    const { url, close } = await served()
    try {
      const method = await fetch(mismatched(url, 'tools/list', {}, { 'mcp-method': 'tools/call' }))
      expect([method.status, (await method.json() as { error: { code: number } }).error.code]).toEqual([400, -32020])
      const name = await fetch(mismatched(url, 'tools/call', { name: 'echo', arguments: {} }, { 'mcp-name': 'other' }))
      expect([name.status, (await name.json() as { error: { code: number } }).error.code]).toEqual([400, -32020])
      const bare = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) })
      expect(bare.status).toBe(400)
    }
    finally {
      await close()
    }
  })

  it('opens no way around the guard or the caller\'s limits: without the credential refused, with it served, past the limit 429', async () => {
    const { url, close } = await served({ tokens: ['caller-token'], limits: { token: { callsPerMinute: 1 } } })
    const call = (): Request => mismatched(url, 'tools/call', { name: 'echo', arguments: { n: 1 } }, { authorization: 'Bearer caller-token' })
    try {
      expect((await fetch(mismatched(url, 'tools/list'))).status).toBe(401)
      expect((await fetch(mismatched(url, 'tools/list', {}, { authorization: 'Bearer caller-token' }))).status).toBe(200)
      expect(await (await fetch(call())).json()).toMatchObject({ result: { content: [{ text: '{"n":1}' }] } })
      expect((await fetch(call())).status).toBe(429)
    }
    finally {
      await close()
    }
  })

  it('a real SDK 2.x client in the 2026-07-28 era, its header rewritten to 2025-11-25 on the way, lists and calls', async () => {
    const { url, lines, close } = await served()
    try {
      const rewrite = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const headers = new Headers(init?.headers)
        if (headers.has('mcp-protocol-version'))
          headers.set('mcp-protocol-version', '2025-11-25')
        return fetch(input, { ...init, headers })
      }
      const client = new Client({ name: 'claude-code', version: '2.1.233' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: rewrite }))
      const list = await client.listTools()
      expect(list.tools.map(tool => tool.name)).toEqual(['echo'])
      expect([typeof list.ttlMs, list.cacheScope]).toEqual(['number', 'public'])
      expect(await client.callTool({ name: 'echo', arguments: { n: 4 } })).toMatchObject({ content: [{ text: '{"n":4}' }] })
      expect(lines.filter(line => line.includes('Mcp-Protocol-Version'))).toHaveLength(1)
      await client.close()
    }
    finally {
      await close()
    }
  })
})

describe('the proxy\'s fetch handler, a header and a body of different eras', () => {
  it('answers the list from its snapshot and sends a call on under the body\'s version, said once', async () => {
    const snapshot = (await createProxy(upstream, { log: () => {} })).snapshot('flatmcp@test')
    const sent: (string | null)[] = []
    const lines: string[] = []
    const handler = createProxyHandler({ upstream: 'http://upstream.test/mcp', snapshot, log: line => lines.push(line), fetch: async (request) => {
      sent.push(request.headers.get('mcp-protocol-version'))
      return Response.json({ jsonrpc: '2.0', id: 1, result: { content: [] } })
    } })
    const listed = await handler.fetch(mismatched('http://proxy.test/mcp', 'tools/list'))
    expect(await listed.json()).toMatchObject({ result: { tools: [{ name: 'echo' }], ttlMs: expect.any(Number), cacheScope: 'public' } })
    for (let i = 0; i < 2; i++)
      expect((await handler.fetch(mismatched('http://proxy.test/mcp', 'tools/call', { name: 'echo', arguments: { n: 1 } }))).status).toBe(200)
    expect(sent).toEqual(['2026-07-28', '2026-07-28'])
    expect(lines).toEqual(['flatmcp proxy: a client sent Mcp-Protocol-Version "2025-11-25" with a body of protocol version "2026-07-28"; served in the body\'s (said once)'])
  })
})

describe('the proxy\'s fetch handler, a body nested too deeply to write anew', () => {
  it('refuses it with 400 and -32600, sending nothing upstream, rather than throwing', async () => {
    const snapshot = (await createProxy(upstream, { log: () => {} })).snapshot('flatmcp@test')
    let sent = 0
    const handler = createProxyHandler({ upstream: 'http://upstream.test/mcp', snapshot, log: () => {}, fetch: async () => {
      sent++
      return Response.json({ jsonrpc: '2.0', id: 1, result: { content: [] } })
    } })
    const depth = 1_000_000
    const request = mismatched('http://proxy.test/mcp', 'tools/call', { name: 'echo' })
    const body = (await request.text()).replace('"params":{', `"params":{"arguments":{"n":${'['.repeat(depth)}${']'.repeat(depth)}},`)
    const answer = await handler.fetch(new Request(request.url, { method: 'POST', headers: request.headers, body }))
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ error: { code: -32600 } })
    expect(sent).toBe(0)
  })
})

describe('the line a mismatch is said in', () => {
  it('holds what a caller sent escaped and cut short, on one line, said once whatever comes after; a body version in no version\'s shape is left to the handler', () => {
    const lines: string[] = []
    const log = (line: string): void => {
      lines.push(line)
    }
    const sent = (header: string): Request => new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'mcp-protocol-version': header } })
    const body = (version: string): object => ({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': version } } })
    const forged = sent('2025-11-25')
    expect(headedByBody(forged, body('2026-07-28\nflatmcp proxy: forged'), log)).toBe(forged)
    expect(lines).toEqual([])
    const headed = headedByBody(sent(`"2025" ${'x'.repeat(500)}`), body('2026-07-28'), log)
    expect(headed.headers.get('mcp-protocol-version')).toBe('2026-07-28')
    for (let i = 0; i < 100; i++)
      headedByBody(sent(`v${i}`), body('2026-07-28'), log)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('Mcp-Protocol-Version "\\"2025\\" xxx')
    expect(lines[0]!.length).toBeLessThan(250)
  })
})
