// Every 2026-07-28 list flatmcp answers carries ttlMs and cacheScope (Claude Code 2.1.233+ refuses a
// tools/list without them): an author's server over HTTP and stdio (its list written ahead of time),
// empty or behind the search surface; the proxy's list, its search surface's, a paged upstream's; a
// gateway's list while one of its servers is down. Read raw: what is on the wire, not what a client
// makes of it.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { UpstreamClient } from '@flatmcp/runtime/proxy'
import type { Surface } from '../src/service/options'
import { PassThrough } from 'node:stream'
import { compileTool } from '@flatmcp/core'
import { attachCompiled, defineTool, toPrecomputed } from '@flatmcp/runtime'
import { createGateway, createProxy, serveProxy, SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { createMcpServer, StdioTransport } from '@flatmcp/runtime/server'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { freePort } from '../../../test/support/proxy'
import { serveFetch } from '../../../test/support/serve-fetch'

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'claude-code', version: '2.1.233' }, 'io.modelcontextprotocol/clientCapabilities': {} }
const HINTS = { ttlMs: expect.any(Number), cacheScope: expect.stringMatching(/^(public|private)$/) }

const list = (method = 'tools/list'): Request => new Request('http://list.test/mcp', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: ENVELOPE } }),
})

async function resultOf(answer: Response): Promise<{ tools: { name: string }[], ttlMs?: unknown, cacheScope?: unknown }> {
  const body = await answer.json() as { result?: never, error?: unknown }
  expect(body.error).toBeUndefined()
  return body.result!
}

const tool = defineTool({ name: 'echo', input: z.object({ text: z.string() }), handler: ({ text }) => text })
const echo = attachCompiled(tool, toPrecomputed(compileTool(tool)))

/** An upstream of data whose list comes in pages of one tool. */
function pagedUpstream(names: readonly string[]): UpstreamClient {
  return {
    request: async (message: { method: string, params?: { cursor?: string } }) => {
      if (message.method !== 'tools/list')
        return { content: [] }
      const page = Number(message.params?.cursor ?? 0)
      return { tools: names.slice(page, page + 1).map(name => ({ name, inputSchema: { type: 'object' } })), ...(page + 1 < names.length ? { nextCursor: String(page + 1) } : {}) }
    },
    notification: async () => {},
    getServerCapabilities: () => ({ tools: {} }),
    getServerVersion: () => ({ name: 'paged', version: '1' }),
    getInstructions: () => undefined,
    setNotificationHandler: () => {},
  } as unknown as UpstreamClient
}

/** The proxy over --http, asked for its list in 2026-07-28. */
async function proxiedList(upstream: UpstreamClient, surface?: Surface): Promise<Awaited<ReturnType<typeof resultOf>>> {
  const proxy = await createProxy(upstream, { log: () => {}, ...(surface ? { surface } : {}) })
  const served = await serveProxy(proxy, { http: { host: '127.0.0.1', port: 0 }, log: () => {} })
  try {
    const request = list()
    return await resultOf(await fetch(served.url!, { method: 'POST', headers: request.headers, body: await request.text() }))
  }
  finally {
    await served.close()
  }
}

describe('every 2026-07-28 list carries ttlMs and cacheScope', () => {
  it('an author\'s server over HTTP: its tools, none, and the search surface', async () => {
    for (const [tools, surface, names] of [[[echo], 'full', ['echo']], [[], 'full', []], [[echo], 'search', Object.values(SURFACE_TOOLS)]] as const) {
      const handler = createMcpHandler(request => createMcpServer([...tools], { name: 'author', version: '1' }, { request, surface }))
      const listed = await resultOf(await handler.fetch(list()))
      expect(listed, `${surface} ${names.join()}`).toMatchObject(HINTS)
      expect(listed.tools.map(tool => tool.name)).toEqual(names)
    }
  })

  it('an author\'s server over stdio, its list written ahead of time', async () => {
    for (const surface of ['full', 'search'] as const) {
      const input = new PassThrough()
      const output = new PassThrough()
      const session = serveStdio(request => createMcpServer([echo], { name: 'author', version: '1' }, { request, surface }), { transport: new StdioTransport(input, output) })
      const lines: string[] = []
      output.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)))
      for (let id = 1; id <= 2; id++)
        input.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: ENVELOPE } })}\n`)
      await expect.poll(() => lines.length).toBe(2)
      for (const line of lines)
        expect((JSON.parse(line) as { result: object }).result, surface).toMatchObject({ ...HINTS, resultType: 'complete' })
      await session.close()
    }
  })

  it('the proxy\'s list, its search surface\'s, and a list its upstream gave in pages (served on one)', async () => {
    expect(await proxiedList(pagedUpstream(['a', 'b', 'c']))).toMatchObject({ ...HINTS, tools: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] })
    expect(await proxiedList(pagedUpstream(['a', 'b']), 'search')).toMatchObject(HINTS)
    expect(await proxiedList(pagedUpstream([]))).toMatchObject({ ...HINTS, tools: [] })
  })

  it('a gateway\'s list while one of its servers is down', async () => {
    const up = createMcpHandler(() => {
      const server = new McpServer({ name: 'up', version: '1' })
      server.registerTool('ping', { inputSchema: z.object({}) }, () => ({ content: [{ type: 'text', text: 'pong' }] }))
      return server
    })
    const http: Server = serveFetch('up', 0, request => up.fetch(request))
    await new Promise(resolve => http.once('listening', resolve))
    const down = await freePort()
    const gateway = await createGateway([{ name: 'up', target: { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` } }, { name: 'down', target: { url: `http://127.0.0.1:${down}/mcp` } }], { log: () => {}, listMs: 2000 })
    try {
      await gateway.ready
      const served = await serveProxy(gateway, { http: { host: '127.0.0.1', port: 0 }, log: () => {} })
      try {
        const request = list()
        const listed = await resultOf(await fetch(served.url!, { method: 'POST', headers: request.headers, body: await request.text() }))
        expect(listed).toMatchObject(HINTS)
        expect(listed.tools.map(tool => tool.name)).toContain('up__ping')
      }
      finally {
        await served.close()
      }
    }
    finally {
      await gateway.close()
      http.close()
    }
  })
})
