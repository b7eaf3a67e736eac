// End to end: the example chat server run as a real process, a real SDK client over stdio and over
// Streamable HTTP.
import type { Connected } from './support/client'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Upstream } from './support/upstream-builds'
import { connectHttp, connectHttpV2, connectStdio, connectStdioV2, ROOT } from './support/client'
import { upstreamCommand } from './support/upstream-builds'

const text = (result: unknown): string => ((result as { content: { text: string }[] }).content[0]?.text ?? '')

/** An example server's command and arguments: its bundle (test/support/upstream-builds.ts). */
async function example(name: Upstream, ...args: string[]): Promise<[string, string[]]> {
  const [command, ...rest] = await upstreamCommand(name)
  return [command!, [...rest, ...args]]
}

/** A session opened before a describe block's tests and closed after them. */
function connectedFor(connect: () => Promise<Connected>): () => Connected {
  let session: Connected | undefined
  beforeAll(async () => {
    session = await connect()
  })
  afterAll(async () => {
    await session?.close()
  })
  return () => session!
}

const transports: [string, () => Promise<Connected>][] = [
  ['stdio', async () => connectStdio(...await example('exampleStdio'))],
  ['stdio on the MCP SDK 2.x (server and client)', async () => connectStdioV2(...await example('exampleStdioV2'))],
  ['Streamable HTTP', async () => connectHttp(...await example('exampleHttp', '0'))],
  ['Streamable HTTP on the MCP SDK 2.x (server and client)', async () => connectHttpV2(...await example('exampleHttpV2', '0'))],
  // The same two servers, and a client that speaks MCP 2026-07-28: no initialize, identity per request.
  ['stdio on the MCP SDK 2.x, 2026-07-28', async () => connectStdioV2(...await example('exampleStdioV2'), ROOT, 'flatmcp-test', 'modern')],
  ['Streamable HTTP on the MCP SDK 2.x, 2026-07-28', async () => connectHttpV2(...await example('exampleHttpV2', '0'), ROOT, 'modern')],
]

describe.each(transports)('the example server over %s', (_name, connect) => {
  const session = connectedFor(connect)

  it('lists flat schemas: no oneOf/anyOf anywhere', async () => {
    const { tools } = await session().client.listTools()
    expect(tools.map(t => t.name).sort()).toEqual(['get_chat', 'send_batch', 'send_message', 'update_chat'])
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object')
      expect(JSON.stringify(tool.inputSchema)).not.toMatch(/"(oneOf|anyOf|allOf)"/)
    }
    const send = tools.find(t => t.name === 'send_message')!
    expect((send.inputSchema.properties as any).media.type).toEqual(['object', 'array'])
  })

  it('repairs a double-serialized nested argument and hands the handler the union value', async () => {
    const media = JSON.stringify([{ url: 'https://x.test/a.png' }, JSON.stringify({ url: 'https://x.test/b.png' })])
    const result = await session().client.callTool({ name: 'send_message', arguments: { kind: 'mediaGroup', media } })
    expect(result.isError).toBeFalsy()
    expect(text(result)).toBe('sent 2 files')
    const batch = await session().client.callTool({ name: 'send_batch', arguments: { items: JSON.stringify([{ type: 'poll', question: 'q', options: JSON.stringify(['a', 'b']) }]) } })
    expect(text(batch)).toBe('1 sent')
  })

  it('repairs a whole arguments object sent as a JSON string', async () => {
    const result = await session().client.callTool({ name: 'update_chat', arguments: JSON.stringify({ chatId: 'c2', action: 'mute' }) as never })
    expect(text(result)).toBe('mute c2')
  })

  it('answers a wrong call with a variant-aware error', async () => {
    const result = await session().client.callTool({ name: 'send_message', arguments: { kind: 'mediaGroup', media: [{ url: 'https://x.test/a.png' }] } })
    expect(result.isError).toBe(true)
    expect(text(result)).toContain('with kind "mediaGroup"')
    const wrongTag = await session().client.callTool({ name: 'update_chat', arguments: { chatId: 'c', action: 'delete' } })
    expect(text(wrongTag)).toContain('action: must be one of "rename", "mute", "unmute" (got "delete")')
  })

  it('passes params and input to the handler separately', async () => {
    const result = await session().client.callTool({ name: 'update_chat', arguments: { chatId: 'c9', action: 'rename', title: 'New' } })
    expect(text(result)).toBe('rename c9')
  })
})

describe('one list for every client, and a profile the operator names (the example server, SDK 2.x, stdio)', () => {
  const geminiCli = connectedFor(async () => connectStdioV2(...await example('exampleStdioV2'), ROOT, 'gemini-cli-mcp-client'))
  const other = connectedFor(async () => connectStdioV2(...await example('exampleStdioV2')))
  const gemini = connectedFor(async () => connectStdioV2(...await example('exampleStdioV2', 'gemini'), ROOT, 'any-client'))

  it('by default every client name gets the same list, byte for byte; a server started with a profile serves it to every caller', async () => {
    const listOf = async (session: Connected): Promise<{ name: string, inputSchema: { properties?: Record<string, unknown> } }[]> => (await session.client.listTools()).tools
    const mediaOf = async (session: Connected): Promise<unknown> => (await listOf(session)).find(t => t.name === 'send_message')!.inputSchema.properties!.media
    const [first, second] = [JSON.stringify(await listOf(geminiCli())), JSON.stringify(await listOf(other()))]
    const at = [...first].findIndex((char, i) => char !== second[i])
    expect(second, `the lists differ from character ${at}: ${first.slice(at - 80, at + 80)} / ${second.slice(at - 80, at + 80)}`).toBe(first)
    expect(await mediaOf(geminiCli())).toMatchObject({ type: ['object', 'array'] })
    expect(await mediaOf(gemini())).toMatchObject({ type: 'string' })
  })

  it('each one\'s model-shaped call succeeds: Gemini\'s JSON text is parsed back', async () => {
    const call = { name: 'send_message', arguments: { chatId: 'c1', kind: 'mediaGroup', media: '[{"url":"https://a.example/1.png"},{"url":"https://a.example/2.png"}]' } }
    expect(text(await gemini().client.callTool(call))).toBe('sent 2 files')
    expect(text(await other().client.callTool({ ...call, arguments: { ...call.arguments, media: JSON.parse(call.arguments.media) } }))).toBe('sent 2 files')
  })
})

describe('a profile the path picks (the example server, SDK 2.x, Streamable HTTP, both eras)', () => {
  const modern = connectedFor(async () => connectHttpV2(...await example('exampleHttpV2', '0'), ROOT, 'modern', '/gemini'))
  const legacy = connectedFor(async () => connectHttpV2(...await example('exampleHttpV2', '0'), ROOT, 'legacy', '/gemini'))

  it('/mcp/gemini lists JSON text and reads each call with that list\'s inverse, in each era', async () => {
    for (const session of [modern(), legacy()]) {
      const send = (await session.client.listTools()).tools.find(t => t.name === 'send_message')!
      expect((send.inputSchema.properties as any).media).toMatchObject({ type: 'string' })
      const call = { name: 'send_message', arguments: { chatId: 'c1', kind: 'mediaGroup', media: '[{"url":"https://a.example/1.png"},{"url":"https://a.example/2.png"}]' } }
      expect(text(await session.client.callTool(call))).toBe('sent 2 files')
    }
  })
})

describe('the example server over stdio, raw lines', () => {
  it('answers an 11 MB line with an error and serves the next call', async () => {
    const child = spawn(...await example('exampleStdio'), { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] })
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
    const answer = async (): Promise<any> => JSON.parse((await lines.next()).value as string)
    const send = (message: object): boolean => child.stdin!.write(`${JSON.stringify(message)}\n`)
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
      expect((await answer()).id).toBe(1)
      send({ jsonrpc: '2.0', method: 'notifications/initialized' })
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'update_chat', arguments: { chatId: 'x'.repeat(11 * 1024 * 1024), action: 'mute' } } })
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'update_chat', arguments: { chatId: 'c1', action: 'mute' } } })
      expect(await answer()).toMatchObject({ id: 2, error: { code: -32600 } })
      expect(await answer()).toMatchObject({ id: 3, result: { content: [{ text: 'mute c1' }] } })
    }
    finally {
      child.kill()
      await once(child, 'exit')
    }
  })
})

const flatServers: [string, () => Promise<Connected>][] = [
  ['the MCP SDK 2.x McpServer over stdio', async () => connectStdioV2(...await example('exampleFlatV2'))],
  ['the MCP SDK 2.x McpServer over Streamable HTTP', async () => connectHttpV2(...await example('exampleFlatHttpV2', '0'))],
  ['tmcp (another Standard Schema framework) over stdio', async () => connectStdioV2(...await example('exampleFlatTmcp'))],
  ['fastmcp (on the MCP SDK 1.x) over stdio', async () => connectStdioV2(...await example('exampleFlatFastmcp'))],
  ['mcp-handler (a fetch handler on the SDK 2.x) over Streamable HTTP', async () => connectHttpV2(...await example('exampleFlatMcpHandler', '0'))],
]

describe.each(flatServers)('flat() served by %s, a real 2.x client', (_name, connect) => {
  const session = connectedFor(connect)

  it('lists the flat schema: no combinator, as flat() gives it', async () => {
    const { tools } = await session().client.listTools()
    expect(JSON.stringify(tools[0]!.inputSchema)).not.toMatch(/"(oneOf|anyOf|allOf)"/)
    expect(tools[0]!.inputSchema).toMatchObject({ type: 'object', properties: { kind: { enum: ['text', 'mediaGroup'] } } })
  })

  it('serves a double-serialized call', async () => {
    const media = JSON.stringify([{ url: 'https://x.test/a.png' }, JSON.stringify({ url: 'https://x.test/b.png' })])
    expect(text(await session().client.callTool({ name: 'send', arguments: { kind: 'mediaGroup', media } }))).toBe('sent 2 files')
  })

  it('answers a wrong call with text naming the variant and the missing key', async () => {
    // fastmcp answers with a JSON-RPC error (-32602) where the others answer a tool error: the text is flat()'s either way.
    const result = await session().client.callTool({ name: 'send', arguments: { kind: 'mediaGroup' } })
      .catch((error: Error) => ({ isError: true, content: [{ type: 'text' as const, text: error.message }] }))
    expect(result.isError).toBe(true)
    // tmcp answers with the issues as JSON, so the quotes in the message may come escaped.
    expect(text(result)).toMatch(/missing required key \\?"media\\?".*kind \\?"mediaGroup\\?"/s)
  })
})
