// One snapshot served both ways: by createProxy (over a connected upstream) and by the fetch handler
// (stateless, over HTTP), in front of the same real SDK 2.x server. What the operator's overrides mean
// when served is written once (serve/served-overrides.ts); here every list and every answer a client
// gets is compared, with and without the search surface, in each profile, so the two cannot drift.
import type { ProfileName } from '@flatmcp/core'
import { createProxy, readOverrides, SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { createProxyHandler } from '@flatmcp/runtime/proxy/fetch'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createMcpHandler, InMemoryTransport, McpServer } from '@modelcontextprotocol/server'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

/** The upstream: each tool answers with the arguments it received. */
function upstreamServer(): McpServer {
  const server = new McpServer({ name: 'parity', version: '1.0.0' })
  const echo = (args: unknown): { content: { type: 'text', text: string }[] } => ({ content: [{ type: 'text', text: JSON.stringify(args) }] })
  server.registerTool('search_code', { description: 'Searches code in an organization.', inputSchema: z.object({ q: z.string(), org: z.enum(['acme', 'other']), debug: z.boolean().optional() }) }, echo)
  server.registerTool('delete_repo', { description: 'Deletes a repository.', inputSchema: z.object({ repo: z.string() }) }, echo)
  server.registerTool('draw_shape', { description: 'Draws a shape on the canvas.', inputSchema: z.object({ shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number() })]) }) }, echo)
  server.registerTool('read_file', { description: 'Reads a file from disk.', inputSchema: z.object({ path: z.string(), range: z.object({ from: z.number().int(), to: z.number().int() }).optional() }) }, echo)
  return server
}

const OVERRIDES = readOverrides({
  tools: {
    search_code: { alwaysLoad: true, searchHint: 'grep source', params: { org: { fix: 'acme' }, debug: { hide: true } } },
    delete_repo: { hide: true },
    read_file: { description: 'Reads one file of the project.' },
  },
})
const PROFILES: ProfileName[] = ['openai-strict', 'gemini']

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true })
const validator = (schema: object) => {
  const validate = ajv.compile(schema)
  return (value: unknown) => validate(value) as boolean
}

/** What a client meets: each list, and the answer (or the error) of each call. */
async function session(client: Client, calls: readonly { name: string, arguments: Record<string, unknown> }[]): Promise<unknown[]> {
  const seen: unknown[] = [(await client.listTools()).tools]
  for (const call of calls)
    seen.push(await client.callTool(call).catch((error: Error) => ({ thrown: error.message })))
  return seen
}

const FULL_CALLS = [
  { name: 'search_code', arguments: { q: 'x', org: 'other', debug: true } },
  { name: 'delete_repo', arguments: { repo: 'r' } },
  { name: 'draw_shape', arguments: { shape: '{"kind":"circle","r":2}' } },
  { name: 'read_file', arguments: { path: 'a.txt', range: { from: '1', to: 3 } } },
  { name: 'no_such_tool', arguments: {} },
]
const SEARCH_CALLS = [
  { name: 'find_tools', arguments: { query: 'grep' } },
  { name: 'find_tools', arguments: { query: 'draw a circle' } },
  { name: 'find_tools', arguments: { query: 'delete repository' } },
  { name: 'describe_tools', arguments: { names: ['draw_shape', 'read_file', 'delete_repo'] } },
  { name: 'call_tool', arguments: { name: 'draw_shape', arguments: { shape: { kind: 'square', side: 1 } } } },
  { name: 'call_tool', arguments: { name: 'delete_repo', arguments: { repo: 'r' } } },
  { name: 'call_tool', arguments: { name: 'search_code', arguments: { q: 'y', org: 'other' } } },
  { name: 'call_tool', arguments: { name: 'no_such_tool', arguments: {} } },
  { name: 'call_tool', arguments: { name: 'read_file', arguments: '{"path":"b.txt"}' } },
  ...FULL_CALLS,
]

describe('one snapshot, served by createProxy and by the fetch handler', () => {
  it('gives every client the same lists and answers, overrides and search surface included, in each profile', async () => {
    const upstream = createMcpHandler(upstreamServer)
    const upstreamFetch = (request: Request): Promise<Response> => upstream.fetch(request)
    const connectUpstream = async (): Promise<Client> => {
      const client = new Client({ name: 'proxy', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL('http://upstream.test/mcp'), { fetch: (url, init) => upstreamFetch(new Request(url, init)) }))
      return client
    }
    const made = await createProxy(await connectUpstream(), { overrides: OVERRIDES, validator, profiles: PROFILES, log: () => {} })
    const snapshot = JSON.parse(JSON.stringify(made.snapshot('flatmcp@test'))) as unknown
    for (const surface of ['full', 'search'] as const) {
      for (const profile of ['portable', ...PROFILES] as const) {
        const proxy = await createProxy(await connectUpstream(), { snapshot, surface, profile, validator, log: () => {} })
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
        await proxy.server().connect(serverSide)
        const viaProxy = new Client({ name: 'caller', version: '1' })
        await viaProxy.connect(clientSide)
        const handler = createProxyHandler({ upstream: 'http://upstream.test/mcp', snapshot, surface, profile, validator, fetch: upstreamFetch, log: () => {} })
        const viaHandler = new Client({ name: 'caller', version: '1' })
        await viaHandler.connect(new StreamableHTTPClientTransport(new URL('http://proxy.test/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }))
        const calls = surface === 'search' ? SEARCH_CALLS : FULL_CALLS
        const [a, b] = [await session(viaProxy, calls), await session(viaHandler, calls)]
        expect(b, `${surface}, ${profile}`).toEqual(a)
        // What was compared says what the overrides mean: the tool marked alwaysLoad listed beside the three, the hidden one nowhere.
        const names = (a[0] as { name: string }[]).map(tool => tool.name)
        expect(names).toEqual(surface === 'search' ? [...Object.values(SURFACE_TOOLS), 'search_code'] : ['search_code', 'draw_shape', 'read_file'])
        await viaProxy.close()
        await viaHandler.close()
        await proxy.close()
      }
    }
  })
})
