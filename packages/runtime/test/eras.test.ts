// Serving both protocol eras on the MCP SDK 2.x: 2025 sessions (stdio, stateful HTTP), stateless 2025
// HTTP requests and MCP 2026-07-28 requests (stdio, HTTP), each with a real 2.x client negotiating it.
// Every caller gets one list by default; a chosen profile reads the calls made from its list.
import type { ToolDefinition } from '@flatmcp/runtime'
import type { ProfileChoice } from '@flatmcp/runtime/server'
import { randomUUID } from 'node:crypto'
import { compileTool } from '@flatmcp/core'
import { attachCompiled, defineTool, toPrecomputed } from '@flatmcp/runtime'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { CLIENT_INFO_META_KEY, createMcpHandler, InMemoryTransport, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { rejectedBy } from '../../../test/support/validators'

/** Two tools as a build with `profiles: ['portable', 'openai-strict', 'gemini']` leaves them. */
function builtTools(): ToolDefinition[] {
  const tools = [
    defineTool({
      name: 'send',
      input: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('message'), text: z.string() }),
        z.object({ kind: z.literal('album'), media: z.array(z.object({ id: z.string() })).min(1) }),
      ]),
      handler: input => input.kind === 'album' ? `sent ${input.media.length}` : `said ${input.text}`,
    }),
    // A string or an object: `gemini` advertises JSON text, which the base profile reads as the string it is.
    defineTool({ name: 'note', input: z.object({ body: z.union([z.string(), z.object({ a: z.number() })]) }), handler: input => JSON.stringify(input.body) }),
  ]
  return tools.map(tool => attachCompiled(tool, toPrecomputed(compileTool(tool), (['openai-strict', 'gemini'] as const).map(profile => compileTool(tool, { profile })))))
}

const info = { name: 'eras', version: '1.0.0' }
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const
const LEGACY = { versionNegotiation: { mode: 'legacy' } } as const

interface Way {
  /** A connected client of the given name; `headers` go on every HTTP request. */
  connect: (tools: ToolDefinition[], profile: ProfileChoice | undefined, name: string, headers?: Record<string, string>) => Promise<Client>
  era: 'legacy' | 'modern'
  /** One server instance per request: nothing but the request itself tells which list a call came from. */
  perRequest: boolean
}

const viaFetch = (fetch: (request: Request) => Promise<Response>, headers: Record<string, string> = {}, path = '/mcp'): StreamableHTTPClientTransport =>
  new StreamableHTTPClientTransport(new URL(`http://eras.test${path}`), { requestInit: { headers }, fetch: (url, init) => fetch(new Request(url, init)) })

/** The SDK's own stdio entry on an in-memory pipe: one instance pinned per connection, either era. */
function stdio(era: 'legacy' | 'modern'): Way {
  return {
    era,
    perRequest: false,
    async connect(tools, profile, name) {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      serveStdio(request => createMcpServer(tools, info, { profile, request }), { transport: serverSide })
      const client = new Client({ name, version: '1.0.0' }, era === 'modern' ? MODERN : LEGACY)
      await client.connect(clientSide)
      return client
    },
  }
}

/** `createMcpHandler`: a server per request, 2026-07-28 or stateless 2025. */
function perRequest(era: 'legacy' | 'modern'): Way {
  return {
    era,
    perRequest: true,
    async connect(tools, profile, name, headers) {
      const handler = createMcpHandler(request => createMcpServer(tools, info, { profile, request }))
      const client = new Client({ name, version: '1.0.0' }, era === 'modern' ? MODERN : LEGACY)
      await client.connect(viaFetch(request => handler.fetch(request), headers))
      return client
    },
  }
}

/** A 2025 stateful session over Streamable HTTP: one server for the session. */
const statefulHttp: Way = {
  era: 'legacy',
  perRequest: false,
  async connect(tools, profile, name, headers) {
    const server = createMcpServer(tools, info, { profile })
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() })
    await server.connect(transport)
    const client = new Client({ name, version: '1.0.0' }, LEGACY)
    await client.connect(viaFetch(request => transport.handleRequest(request), headers))
    return client
  },
}

const ways: [string, Way][] = [
  ['stdio, a 2025 session', stdio('legacy')],
  ['stdio, 2026-07-28', stdio('modern')],
  ['Streamable HTTP, stateless 2025', perRequest('legacy')],
  ['Streamable HTTP, a 2025 stateful session', statefulHttp],
  ['Streamable HTTP, 2026-07-28', perRequest('modern')],
]

const text = (result: unknown): string => ((result as { content: { text: string }[] }).content[0]?.text ?? '')
const bodyOf = async (client: Client): Promise<unknown> => (await client.listTools()).tools.find(t => t.name === 'note')!.inputSchema.properties!.body
const byClientInfo: ProfileChoice = ({ clientInfo }) => clientInfo?.name === 'gemini-agent' ? 'gemini' : undefined
/** A call that carries no clientInfo (2026-07-28 clients only SHOULD send it). */
const anonymous = { _meta: { [CLIENT_INFO_META_KEY]: undefined } }

afterEach(() => {
  vi.restoreAllMocks()
})

describe.each(ways)('%s', (_name, way) => {
  it('every client name gets the same list by default, the base profile', async () => {
    const tools = builtTools()
    const lists = new Set<string>()
    for (const name of ['gemini-cli-mcp-client', 'claude-code', 'codex-mcp-client']) {
      const client = await way.connect(tools, undefined, name)
      const listed = await client.listTools()
      lists.add(JSON.stringify(listed.tools))
      expect(listed).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' })
      await client.close()
    }
    expect(lists.size).toBe(1)
    expect(JSON.parse([...lists][0]!)[1].inputSchema.properties.body.type).toEqual(['object', 'string'])
  })

  it('a list chosen by clientInfo reads its calls, with and without clientInfo on the call', async () => {
    const client = await way.connect(builtTools(), byClientInfo, 'gemini-agent')
    const listedGemini = (await bodyOf(client) as { type: unknown }).type === 'string'
    // A stateless 2025 request never sees `initialize`: its list is the base one, and so is the reading.
    expect(listedGemini).toBe(!(way.era === 'legacy' && way.perRequest))
    expect((await client.listTools()).cacheScope).toBe('private')
    const note = { name: 'note', arguments: { body: '{"a":1}' } }
    expect(text(await client.callTool(note))).toBe(listedGemini ? '{"a":1}' : '"{\\"a\\":1}"')
    const album = { name: 'send', arguments: { kind: 'album', media: '[{"id":"x"},{"id":"y"}]' } }
    if (way.era === 'modern') {
      // Where the call's own request is all there is, a call without clientInfo is served only when every list reads it alike.
      const unsure = await client.callTool({ ...note, ...anonymous })
      if (way.perRequest) {
        expect(unsure.isError).toBe(true)
        expect(text(unsure)).toContain('does not say which one it came from (it carries no clientInfo)')
      }
      else {
        expect(text(unsure)).toBe('{"a":1}')
      }
      expect(text(await client.callTool({ ...album, ...anonymous }))).toBe('sent 2')
    }
    expect(text(await client.callTool(album))).toBe('sent 2')
    await client.close()
  })
})

interface TreeNode { name: string, children: TreeNode[] }
const Node: z.ZodType<TreeNode> = z.object({ name: z.string(), get children() { return z.array(Node) } })

/** Tools whose outputs clients meet in every shape: a union of objects, an array, a scalar, a recursive array, and one that fails. */
function outputTools(): ToolDefinition[] {
  const Shape = z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number() })])
  const tools = [
    defineTool({ name: 'shape', input: z.object({ kind: z.enum(['circle', 'square']) }), output: Shape, handler: ({ kind }) => kind === 'circle' ? { kind, r: 1 } : { kind, side: 2 } }),
    defineTool({ name: 'list', input: z.object({}), output: z.array(z.string()), handler: () => ['a', 'b'] }),
    defineTool({ name: 'count', input: z.object({}), output: z.number().int(), handler: () => 3 }),
    // A recursive array: its definitions stay at the root the wrapper makes, where its $refs point.
    defineTool({ name: 'tree', input: z.object({}), output: z.array(Node), handler: () => [{ name: 'a', children: [{ name: 'b', children: [] }] }] }),
    defineTool({ name: 'refuse', input: z.object({}), output: z.array(z.string()), handler: () => ({ isError: true, content: [{ type: 'text' as const, text: 'no' }], structuredContent: { result: [] } }) as never }),
  ]
  return tools.map(tool => attachCompiled(tool, toPrecomputed(compileTool(tool))))
}

describe.each(ways)('outputs, %s', (_name, way) => {
  it('each output schema is a root object without a combinator, the structuredContent of each call passes it under every client validator, and an error result carries none', async () => {
    const client = await way.connect(outputTools(), undefined, 'outputs')
    const { tools } = await client.listTools()
    const schemaOf = (name: string): Record<string, unknown> => tools.find(tool => tool.name === name)!.outputSchema as Record<string, unknown>
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' })
      expect(Object.keys(tool.outputSchema!).filter(key => ['anyOf', 'oneOf', 'allOf', '$schema'].includes(key)), tool.name).toEqual([])
    }
    expect(schemaOf('list')).toEqual({ type: 'object', properties: { result: { type: 'array', items: { type: 'string' } } }, required: ['result'] })
    const calls: [string, Record<string, unknown>, unknown][] = [
      ['shape', { kind: 'circle' }, { kind: 'circle', r: 1 }],
      ['shape', { kind: 'square' }, { kind: 'square', side: 2 }],
      ['list', {}, { result: ['a', 'b'] }],
      ['count', {}, { result: 3 }],
      ['tree', {}, { result: [{ name: 'a', children: [{ name: 'b', children: [] }] }] }],
    ]
    for (const [name, args, structured] of calls) {
      const result = await client.callTool({ name, arguments: args })
      expect(result.structuredContent, name).toEqual(structured)
      expect(rejectedBy(schemaOf(name), result.structuredContent), name).toEqual([])
      // The text block says the value itself, unwrapped.
      expect(JSON.parse(text(result))).toEqual(name === 'shape' ? structured : (structured as { result: unknown }).result)
    }
    const refused = await client.callTool({ name: 'refuse', arguments: {} })
    expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no' }] })
    expect(refused.structuredContent).toBeUndefined()
    await client.close()
  })
})

describe.each(ways)('client hints, %s', (_name, way) => {
  it('alwaysLoad and searchHint reach the list a real client reads as _meta, and a top-level key the definition adds does not', async () => {
    const kept = defineTool({ name: 'send_message', description: 'Sends a message to a chat. Long text follows.', alwaysLoad: true, searchHint: true, input: z.object({ chatId: z.string(), kind: z.enum(['text', 'photo']) }), handler: () => 'ok' })
    const found = defineTool({ name: 'archive', alwaysLoad: false, searchHint: ' old chats, cleanup ', input: z.object({}), handler: () => 'ok' })
    // defineTool refuses a key no tool has; a definition written without it may still carry one.
    expect(() => defineTool({ name: 'plain', input: z.object({}), handler: () => 'ok', defer_loading: true } as never)).toThrow('"defer_loading"')
    const plain = { name: 'plain', input: z.object({}), handler: () => 'ok', defer_loading: true } as never as ToolDefinition
    const tools = [kept, found, plain].map(tool => attachCompiled(tool, toPrecomputed(compileTool(tool), [compileTool(tool, { profile: 'gemini' })])))
    const client = await way.connect(tools, undefined, 'hints')
    const listed = (await client.listTools()).tools
    expect(listed.find(tool => tool.name === 'send_message')!._meta).toEqual({ 'anthropic/alwaysLoad': true, 'anthropic/searchHint': 'send message sends chat id text photo' })
    expect(listed.find(tool => tool.name === 'archive')!._meta).toEqual({ 'anthropic/alwaysLoad': false, 'anthropic/searchHint': 'old chats, cleanup' })
    const bare = listed.find(tool => tool.name === 'plain')!
    expect(bare._meta).toBeUndefined()
    expect(Object.keys(bare)).not.toContain('defer_loading')
    await client.close()
  })
})

describe('a profile chosen by what every request carries', () => {
  const byHeader: ProfileChoice = ({ headers }) => headers?.get('x-flatmcp-profile') ?? undefined
  const ways: [string, Way][] = [['2026-07-28', perRequest('modern')], ['stateless 2025', perRequest('legacy')]]

  it.each(ways)('a header serves two profiles side by side (%s), each call read with its own list\'s inverse', async (_name, way) => {
    const tools = builtTools()
    const gemini = await way.connect(tools, byHeader, 'one', { 'x-flatmcp-profile': 'gemini' })
    const strict = await way.connect(tools, byHeader, 'two', { 'x-flatmcp-profile': 'openai-strict' })
    const plain = await way.connect(tools, byHeader, 'three')
    expect(await bodyOf(gemini)).toMatchObject({ type: 'string' })
    const strictSend = (await strict.listTools()).tools.find(t => t.name === 'send')!.inputSchema
    expect(strictSend.required).toEqual(['kind', 'text', 'media'])
    expect(text(await gemini.callTool({ name: 'note', arguments: { body: '{"a":1}' } }))).toBe('{"a":1}')
    // A strict model writes null for the keys it does not mean; this list's inverse drops them.
    expect(text(await strict.callTool({ name: 'send', arguments: { kind: 'message', text: 'hi', media: null } }))).toBe('said hi')
    expect(text(await plain.callTool({ name: 'note', arguments: { body: '{"a":1}' } }))).toBe('"{\\"a\\":1}"')
    await Promise.all([gemini.close(), strict.close(), plain.close()])
  })

  it('so does the authorization the transport validated: a list per principal, its calls read alike', async () => {
    const tools = builtTools()
    const handler = createMcpHandler(request => createMcpServer(tools, info, {
      request,
      profile: ({ authInfo }) => (authInfo as { clientId?: string } | undefined)?.clientId === 'gemini-tenant' ? 'gemini' : undefined,
    }))
    const as = async (clientId: string): Promise<Client> => {
      const client = new Client({ name: 'x', version: '1.0.0' }, MODERN)
      await client.connect(viaFetch(request => handler.fetch(request, { authInfo: { token: 't', clientId, scopes: [] } })))
      return client
    }
    const [tenant, other] = [await as('gemini-tenant'), await as('someone')]
    expect(await bodyOf(tenant)).toMatchObject({ type: 'string' })
    expect((await bodyOf(other) as { type: unknown }).type).toEqual(['object', 'string'])
    const note = { name: 'note', arguments: { body: '{"a":1}' } }
    expect([text(await tenant.callTool(note)), text(await other.callTool(note))]).toEqual(['{"a":1}', '"{\\"a\\":1}"'])
    await Promise.all([tenant.close(), other.close()])
  })

  it('a path chooses too; a choice that throws, names an inherited key or a profile the build lacks gets the base profile', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    const tools = builtTools()
    const handler = createMcpHandler(request => createMcpServer(tools, info, {
      request,
      profile: ({ url }) => {
        const name = url?.pathname.split('/')[2]
        if (name === 'boom')
          throw new Error('secret-token-123')
        return name
      },
    }))
    const bodies: Record<string, unknown> = {}
    for (const path of ['/mcp/gemini', '/mcp', '/mcp/boom', '/mcp/constructor', '/mcp/anthropic-strict']) {
      const client = new Client({ name: 'x', version: '1.0.0' }, MODERN)
      await client.connect(viaFetch(request => handler.fetch(request), {}, path))
      bodies[path] = (await bodyOf(client) as { type: unknown }).type
      const answer = await client.callTool({ name: 'note', arguments: { body: 'plain' } })
      expect(text(answer)).toBe('"plain"')
      expect(JSON.stringify(answer)).not.toContain('secret')
      await client.close()
    }
    expect(bodies).toEqual({ '/mcp/gemini': 'string', '/mcp': ['object', 'string'], '/mcp/boom': ['object', 'string'], '/mcp/constructor': ['object', 'string'], '/mcp/anthropic-strict': ['object', 'string'] })
    const log = stderr.mock.calls.map(call => String(call[0])).join('')
    expect(log).toContain('the profile choice failed (secret-token-123); serving the base profile (said once).')
    expect(log).toContain('a request asked for profile "anthropic-strict"')
  })
})
