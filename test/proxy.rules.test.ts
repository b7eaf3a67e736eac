// Which caller is served which tools, through `flatmcp proxy --callers` (its entries' `allow`, `deny`
// and `view`, and the file's `default`): over HTTP with callers of their own and over stdio, the
// lists, the search surface and the calls keep to each caller's rule, a denied tool is answered as a
// name no tool has, and a rule that names no tool served stops the proxy at start.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { afterAll, describe, expect, it } from 'vitest'
import { connectStdioV2 } from './support/client'
import { CLI, runCli, startListening, UPSTREAM_V2 } from './support/proxy'

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-proxy-rules-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function file(name: string, content: unknown): string {
  const path = join(scratch, name)
  writeFileSync(path, JSON.stringify(content))
  return path
}

async function clientWith(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'caller', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return client
}

/** One JSON-RPC request as a caller sends it, and the body answered. */
async function posted(url: string, token: string, method: string, params: unknown): Promise<{ error?: { code: number, message: string }, result?: unknown }> {
  const response = await fetch(url, { method: 'POST', headers: { 'authorization': `Bearer ${token}`, 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) })
  const text = await response.text()
  return JSON.parse(text.trimStart().startsWith('{') ? text : text.split('\n').find(line => line.startsWith('data:'))!.slice(5)) as never
}

const names = async (client: Client): Promise<string[]> => (await client.listTools()).tools.map(tool => tool.name).sort()
const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content.map(part => part.text).join('\n')
/** An answer with the tool name it is about made one placeholder: what is left is what a caller could tell apart. */
const without = (answer: unknown, name: string): string => JSON.stringify(answer).replaceAll(name, 'NAME')

describe('flatmcp proxy --callers rules', () => {
  it('over HTTP each caller is listed, found and called only what its rule admits (default deny, a pinned view its boundary), and a denied tool is answered byte for byte as a name no tool has', async () => {
    const callers = file('callers.json', { default: 'deny', callers: {
      ci: { token: 'ci-token-1', allow: ['page', 'filter', 'c*'], deny: ['cancelled'] },
      bot: { token: 'bot-token-2', view: 'pager' },
      nobody: { token: 'nobody-token-3' },
    } })
    const overrides = file('overrides.json', { tools: {}, views: { pager: { tools: ['page', 'send'] }, lean: { surface: 'search' } } })
    const proxy = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--callers', callers, '--overrides', overrides, '--', ...UPSTREAM_V2])
    const clients: Client[] = []
    const connect = async (url: string, token: string): Promise<Client> => {
      const client = await clientWith(url, token)
      clients.push(client)
      return client
    }
    try {
      const ci = await connect(proxy.url, 'ci-token-1')
      expect(await names(ci)).toEqual(['count', 'filter', 'page'])
      expect(textOf(await ci.callTool({ name: 'page', arguments: { query: 'q', limit: '2' } }))).toBe('{"query":"q","limit":2}')
      await expect(ci.callTool({ name: 'send', arguments: { kind: 'message', text: 'hi' } })).rejects.toThrow(/Unknown tool "send"/)
      // A tool denied (send, cancelled), a name no tool has, one the allow pattern matches that no tool has: one answer.
      const probes = await Promise.all(['send', 'cancelled', 'sned', 'cxyz'].map(async name => without(await posted(proxy.url, 'ci-token-1', 'tools/call', { name, arguments: {} }), name)))
      expect(new Set(probes).size).toBe(1)
      expect(probes[0]).toBe('{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown tool \\"NAME\\"."}}')
      // The search surface (a view that asks for it) finds, describes and calls only the caller's tools.
      const lean = await connect(`${proxy.url}?view=lean`, 'ci-token-1')
      expect(await names(lean)).toEqual(Object.values(SURFACE_TOOLS).sort())
      const found = textOf(await lean.callTool({ name: 'find_tools', arguments: { query: 'send a message' } }))
      expect(found).toMatch(/^page: /m)
      expect(found).not.toMatch(/^(send|cancelled|shout|ask): /m)
      const described = await Promise.all(['send', 'sned'].map(async name => without(await lean.callTool({ name: 'describe_tools', arguments: { names: [name] } }), name)))
      expect(described[0]).toBe(described[1])
      const viaCallTool = await Promise.all(['send', 'sned'].map(async name => lean.callTool({ name: 'call_tool', arguments: { name, arguments: { kind: 'message', text: 'hi' } } })))
      expect(viaCallTool[0]!.isError).toBe(true)
      expect(without(viaCallTool[0], 'send')).toBe(without(viaCallTool[1], 'sned'))
      expect(textOf(await lean.callTool({ name: 'call_tool', arguments: { name: 'page', arguments: { query: 'q' } } }))).toBe('{"query":"q"}')
      // Pinned to its view: whatever view it asks for, the view's tools only.
      const bot = await connect(`${proxy.url}?view=lean`, 'bot-token-2')
      expect(await names(bot)).toEqual(['page', 'send'])
      await expect(bot.callTool({ name: 'filter', arguments: { query: 'q' } })).rejects.toThrow(/Unknown tool "filter"\.$/)
      // No allow of its own and no view, under the default deny: nothing.
      const nobody = await connect(proxy.url, 'nobody-token-3')
      expect(await names(nobody)).toEqual([])
      expect(without(await posted(proxy.url, 'nobody-token-3', 'tools/call', { name: 'page', arguments: { query: 'q' } }), 'page')).toBe(probes[0])
    }
    catch (error) {
      throw new Error(`${(error as Error).message}\n${proxy.stderr()}`, { cause: error })
    }
    finally {
      await Promise.all(clients.map(client => client.close().catch(() => {})))
      await proxy.close()
    }
  })

  it('over stdio the client is held by the entry named "stdio": its list and calls keep to its rule', async () => {
    const callers = file('stdio.json', { callers: { stdio: { deny: ['s*', 'ask'] } } })
    const served = await connectStdioV2(process.execPath, [CLI, 'proxy', '--callers', callers, '--', ...UPSTREAM_V2])
    try {
      const listed = (await served.client.listTools()).tools.map(tool => tool.name)
      expect(listed).toContain('page')
      expect(listed.filter(name => name.startsWith('s') || name === 'ask')).toEqual([])
      expect(textOf(await served.client.callTool({ name: 'page', arguments: { query: 'q' } }))).toBe('{"query":"q"}')
      await expect(served.client.callTool({ name: 'shout', arguments: { line: 'x' } })).rejects.toThrow(/^.*Unknown tool "shout"\.$/)
    }
    finally {
      await served.close()
    }
  })

  it('a rule naming a tool no server serves, or a view the overrides lack, stops the proxy at start with the file and the JSON path (exit 2, never listening)', async () => {
    const callers = file('typo.json', { callers: { ci: { token: 'ci-token-1', allow: ['pgae', 'zz*'] }, bot: { token: 'bot-token-2', view: 'pagr' } } })
    const run = await runCli(['proxy', '--http', '0', '--callers', callers, '--', ...UPSTREAM_V2])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`--callers ${callers}: .callers["ci"].allow[0]: no tool served is named "pgae"`)
    expect(run.stderr).toContain(`--callers ${callers}: .callers["bot"].view: the overrides name no view "pagr" (they name none)`)
    expect(run.stderr).not.toContain('listening on')
  })
})
