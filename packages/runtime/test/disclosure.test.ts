// Progressive disclosure (tools/catalog, tools/describe): views of the session's tools/list answer
// for a client that asks, with the proposal's capability, entries, hashes and errors; tools/list
// unchanged for a client that does not.
import type { ToolDefinition } from '@flatmcp/runtime'
import { defineTool } from '@flatmcp/runtime'
import { SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { createMcpServer } from '@flatmcp/runtime/sdk'
import { createMcpServer as createMcpServerV2 } from '@flatmcp/runtime/server'
import { Client as ClientV2 } from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server'
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { canonicalJson } from '../src/service/schema-hash'

const TOOLS: ToolDefinition[] = [
  defineTool({
    name: 'send_message',
    description: 'Sends a message or a group of media to a chat. The chat must exist.',
    annotations: { destructiveHint: false },
    input: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('text'), chat: z.string(), text: z.string() }),
      z.object({ kind: z.literal('album'), chat: z.string(), media: z.array(z.object({ url: z.string() })).min(1) }),
    ]),
    handler: input => `sent ${input.kind}`,
  }),
  ...Array.from({ length: 120 }, (_, i) => defineTool({ name: `tool_${i}`, description: `Counts ${i} sheep.`, input: z.object({ n: z.number() }), handler: () => 'ok' })),
]

type Options = Parameters<typeof createMcpServer>[2]
/** A client of either SDK major that can send any request, read with a loose result schema. */
interface Asking {
  listTools: () => Promise<{ tools: { name: string }[] }>
  ask: (method: string, params: object) => Promise<Record<string, unknown>>
  /** What the server's initialize answer offered, as it went on the wire (clients keep only the keys they know). */
  capabilities: () => Record<string, unknown> | undefined
  /** The code the SDK sends for names it cannot describe: 2.x writes every -32002 as -32602 (the 2026-07-28 spec retired -32002). */
  notAvailable: number
}

/** Keeps what a server transport sends. */
function recorded<T extends { send: (message: never, options?: never) => Promise<void> }>(transport: T): () => Record<string, unknown> | undefined {
  const sent: { result?: { capabilities?: Record<string, unknown> } }[] = []
  const send = transport.send.bind(transport)
  transport.send = ((message: never, options?: never) => {
    sent.push(message)
    return send(message, options)
  }) as T['send']
  return () => sent.find(message => message.result?.capabilities)?.result?.capabilities
}

async function connect(major: '1.x' | '2.x', options?: Options): Promise<Asking> {
  const loose = z.looseObject({})
  if (major === '2.x') {
    const server = createMcpServerV2(TOOLS, { name: 'test', version: '1.0.0' }, options)
    const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair()
    const capabilities = recorded(serverSide)
    await server.connect(serverSide)
    const client = new ClientV2({ name: 'test-client', version: '1.0.0' })
    await client.connect(clientSide)
    return { listTools: () => client.listTools(), ask: (method, params) => client.request({ method, params } as never, loose) as never, capabilities, notAvailable: -32602 }
  }
  const server = createMcpServer(TOOLS, { name: 'test', version: '1.0.0' }, options)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const capabilities = recorded(serverSide)
  await server.connect(serverSide)
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  await client.connect(clientSide)
  return { listTools: () => client.listTools(), ask: (method, params) => client.request({ method, params } as never, loose) as never, capabilities, notAvailable: -32002 }
}

const hexOf = (tool: unknown): string => createHash('sha256').update(canonicalJson(tool)).digest('hex')

describe.each(['1.x', '2.x'] as const)('progressive disclosure on the MCP SDK %s', (major) => {
  it('offers the capability, and a catalog of every listed tool in pages: summary, annotations and the JCS schemaHash of the tool as listed', async () => {
    const client = await connect(major)
    expect((client.capabilities()?.tools as Record<string, unknown>).progressiveDisclosure).toBe(true)
    const { tools } = await client.listTools()
    const first = await client.ask('tools/catalog', {})
    expect(first.tools).toHaveLength(100)
    expect(first.nextCursor).toBe('100')
    const second = await client.ask('tools/catalog', { cursor: first.nextCursor })
    expect(second.nextCursor).toBeUndefined()
    const entries = [...first.tools as object[], ...second.tools as object[]] as { name: string, schemaHash: string }[]
    expect(entries.map(entry => entry.name)).toEqual(tools.map(tool => tool.name))
    expect(entries[0]).toEqual({ name: 'send_message', summary: 'Sends a message or a group of media to a chat.', annotations: { destructiveHint: false }, schemaHash: hexOf(tools[0]) })
    for (const [i, entry] of entries.entries())
      expect(entry.schemaHash).toBe(hexOf(tools[i]))
    await expect(client.ask('tools/catalog', { cursor: 'x' })).rejects.toMatchObject({ code: -32602 })
  })

  it('offers tools/manifest (SEP-2636): every tool the session lists, each with the sha256 digest of its RFC 8785 form and that form\'s UTF-8 bytes, no schema; the list\'s cache hints; every name describable', async () => {
    const client = await connect(major)
    expect((client.capabilities()?.tools as Record<string, unknown>).manifest).toEqual({})
    const { tools } = await client.listTools()
    const first = await client.ask('tools/manifest', {})
    const second = await client.ask('tools/manifest', { cursor: first.nextCursor })
    const entries = [...first.tools as object[], ...second.tools as object[]] as { name: string, digest: string, size: number }[]
    expect(entries.map(entry => entry.name)).toEqual(tools.map(tool => tool.name))
    expect(first).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' })
    expect(entries[0]).toEqual({ name: 'send_message', digest: `sha256:${hexOf(tools[0])}`, size: Buffer.byteLength(canonicalJson(tools[0])), annotations: { destructiveHint: false } })
    for (const [i, entry] of entries.entries()) {
      expect(entry.digest).toMatch(/^sha256:[0-9a-f]{64}$/)
      expect(entry.digest).toBe(`sha256:${hexOf(tools[i])}`)
      expect(entry).not.toHaveProperty('inputSchema')
    }
    const described = await client.ask('tools/describe', { names: entries.slice(0, 100).map(entry => entry.name) })
    expect((described.tools as unknown[]).length).toBe(100)
    await expect(client.ask('tools/describe', { names: entries.map(entry => entry.name) })).rejects.toMatchObject({ code: -32602, data: { maxNames: 100 } })
    await expect(client.ask('tools/manifest', { cursor: 'x' })).rejects.toMatchObject({ code: -32602 })
  })

  it('answers a query with the tools it finds, a subset of the catalog', async () => {
    const client = await connect(major)
    const found = await client.ask('tools/catalog', { query: 'send media to a chat' }) as { tools: { name: string }[] }
    expect(found.tools[0]!.name).toBe('send_message')
    expect(found.tools.length).toBeLessThanOrEqual(20)
  })

  it('describes the named tools in their order, exactly as tools/list gives them; unknown names are -32002 with every one of them', async () => {
    const client = await connect(major, { profile: 'openai-strict' })
    const { tools } = await client.listTools()
    const described = await client.ask('tools/describe', { names: ['tool_3', 'send_message'] })
    expect(described.tools).toEqual([tools.find(tool => tool.name === 'tool_3'), tools[0]])
    await expect(client.ask('tools/describe', { names: ['send_message', 'nope', 'gone'] })).rejects.toMatchObject({ code: client.notAvailable, data: { unknownNames: ['nope', 'gone'] } })
    await expect(client.ask('tools/describe', { names: [] })).rejects.toMatchObject({ code: -32602 })
  })

  it('leaves tools/list as it was for a client that does not ask, and refuses other unknown methods as before', async () => {
    const client = await connect(major)
    const { tools } = await client.listTools()
    expect(tools).toHaveLength(121)
    expect(tools[0]).not.toHaveProperty('schemaHash')
    await expect(client.ask('tools/nothing', {})).rejects.toMatchObject({ code: -32601 })
  })

  it('is a view of the session\'s list: with the search surface, the three tools and those loaded always', async () => {
    const client = await connect(major, { surface: 'search', alwaysLoad: ['tool_7'] })
    const entries = (await client.ask('tools/catalog', {})).tools as { name: string }[]
    expect(entries.map(entry => entry.name)).toEqual([...Object.values(SURFACE_TOOLS), 'tool_7'])
    await expect(client.ask('tools/describe', { names: ['tool_8'] })).rejects.toMatchObject({ code: client.notAvailable, data: { unknownNames: ['tool_8'] } })
  })
})
