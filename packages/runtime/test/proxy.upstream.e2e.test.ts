// The upstream stage alone (connectUpstream over each transport), against real processes and a real
// HTTP server on 127.0.0.1: a command that ends before its handshake, an upstream that asks for
// OAuth, and one that loses the session, whose request goes once more on a fresh one; an answer that
// never ends, read no further once its call is given up on, and refused past the bound of one message.
import type { Server } from 'node:http'
import { createServer } from 'node:http'
import { Readable } from 'node:stream'
import { connectUpstream, createProxy, ProxySetupError } from '@flatmcp/runtime/proxy'
import { Client } from '@modelcontextprotocol/client'
import { createMcpHandler, InMemoryTransport, McpServer } from '@modelcontextprotocol/server'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import fc from 'fast-check'
import { commandName } from '../src/proxy/upstream/command-name'
import { messageBytes } from '../src/proxy/upstream/http-bounds'

const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } }
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map(server => new Promise(resolve => server.close(resolve))))
})

/** A fetch handler served on 127.0.0.1 at a free port; resolves with its /mcp URL. */
async function serve(fetch: (request: Request) => Promise<Response>): Promise<string> {
  const server = createServer((req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    void fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}) } as RequestInit)).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers))
      res.end(Buffer.from(await response.arrayBuffer()))
    })
  })
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`
}

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'plain', version: '1.0.0' })
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text }] }))
  return server
}

describe('connectUpstream', () => {
  it('a command that ends before its handshake is a set-up error naming it and how it ended', async () => {
    // Its handshake waits for what the client behind the proxy offers, which has not come yet.
    const offer = new Promise<object>(resolve => setTimeout(resolve, 30_000, {}))
    const error = await connectUpstream({ command: [process.execPath, '-e', 'process.exit(3)'] }, { offer }).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ProxySetupError)
    expect((error as Error).message).toMatch(/^could not connect to the upstream \S*node: it ended \(.*3.*\) before its handshake/)
  })

  it('an upstream that answers 401 is told to be given credentials, the way to give them said', async () => {
    const url = await serve(async () => new Response('{"error":"unauthorized"}', { status: 401, headers: { 'content-type': 'application/json' } }))
    const error = await connectUpstream({ url: `${url}?token=hunter2` }).catch((thrown: unknown) => thrown) as Error
    expect(error).toBeInstanceOf(ProxySetupError)
    // Where it is is said without the query, which may hold a credential.
    expect(error.message).toContain(`could not connect to the upstream ${url}:`)
    expect(error.message).not.toContain('token=')
    expect(error.message).toContain('It asks for OAuth: give the proxy client credentials')
  })

  it('over HTTP, a request the upstream refuses for a lost session goes once more on a fresh one, said once', async () => {
    const handler = createMcpHandler(mcpServer)
    let loseNext = false
    const url = await serve(async (request) => {
      if (loseNext && request.method === 'POST') {
        loseNext = false
        return new Response('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}', { status: 404, headers: { 'content-type': 'application/json' } })
      }
      return handler.fetch(request)
    })
    const lines: string[] = []
    const upstream = await connectUpstream({ url }, { asks: false, log: line => lines.push(line) })
    try {
      expect(upstream.where).toBe(url)
      loseNext = true
      const listed = await upstream.client.request({ method: 'tools/list' }, ANY) as { tools: { name: string }[] }
      expect(listed.tools.map(tool => tool.name)).toEqual(['echo'])
      expect(lines).toEqual([`flatmcp proxy: ${url} lost the session (it restarted?); connected anew`])
      // The handlers the proxy set hold on the new connection too.
      expect(upstream.client.getServerVersion()?.name).toBe('plain')
    }
    finally {
      await upstream.close()
    }
  })
})

/**
 * An HTTP upstream whose answer to a call never ends (one JSON body, or one event of a stream, that
 * keeps growing): poured as fast as the connection drains, or 64 KiB every 20 ms (`slow`).
 */
async function endlessUpstream(kind: 'json' | 'event-stream', pace: 'fast' | 'slow'): Promise<{ url: string, closed: () => boolean }> {
  let closed = false
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST')
      return void res.writeHead(405).end()
    let text = ''
    for await (const chunk of req)
      text += String(chunk)
    const message = JSON.parse(text) as { id?: number, method: string, params?: { protocolVersion?: string } }
    if (message.id === undefined)
      return void res.writeHead(202).end()
    const answer = (result: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }))
    if (message.method === 'initialize')
      return answer({ protocolVersion: message.params!.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'endless', version: '1' } })
    if (message.method === 'tools/list')
      return answer({ tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] })
    if (message.method !== 'tools/call')
      return answer({})
    res.on('close', () => void (closed = true))
    res.writeHead(200, { 'content-type': kind === 'json' ? 'application/json' : 'text/event-stream' })
    res.write(`${kind === 'json' ? '' : 'event: message\ndata: '}{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`)
    const chunk = 'x'.repeat(pace === 'fast' ? 1024 * 1024 : 64 * 1024)
    const pour = (): void => {
      while (!res.destroyed && res.write(chunk) && pace === 'fast');
      if (res.destroyed)
        return
      if (pace === 'fast')
        res.once('drain', pour)
      else
        setTimeout(pour, 20)
    }
    pour()
  })
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`, closed: () => closed }
}

/** What a call through a proxy in front of `url` comes to (its error's text, or its result's), held by `check` while the proxy still runs. */
async function callThrough(url: string, timeoutMs: number, check: (text: string) => Promise<void>): Promise<void> {
  const proxy = await createProxy(url, { timeoutMs, log: () => {} })
  const client = new Client({ name: 'endless', version: '1' })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await proxy.server().connect(serverSide)
  await client.connect(clientSide)
  try {
    const text = await client.callTool({ name: 'echo', arguments: { text: 'hi' } }, { timeout: 600_000 }).then(
      result => (result as { content: { text: string }[] }).content.map(part => part.text).join(''),
      (error: unknown) => (error as Error).message,
    )
    await check(text)
  }
  finally {
    await client.close()
    await proxy.close()
  }
}

describe('the size of one message of an HTTP answer', () => {
  it('is an event stream\'s bytes since its last blank line (LF or CRLF), a JSON body\'s whole, wherever the chunks split it', () => {
    const line = fc.constantFrom('data: {"a":1}', 'id: 7', 'event: message', '', 'data: x')
    fc.assert(fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), fc.array(fc.nat(), { maxLength: 10 }), (lines, eol, cuts) => {
      const bytes = new TextEncoder().encode(lines.map(each => `${each}${eol}`).join(''))
      const points = [...new Set(cuts.map(cut => cut % (bytes.length + 1)))].sort((a, b) => a - b)
      const chunks = [0, ...points].map((start, i) => bytes.subarray(start, [...points, bytes.length][i])).filter(chunk => chunk.length > 0)
      const text = new TextDecoder().decode(bytes)
      const blank = text.lastIndexOf(`${eol}${eol}`)
      const expected = blank < 0 ? bytes.length : bytes.length - (blank + 2 * eol.length)
      for (const [stream, whole] of [[true, expected], [false, bytes.length]] as const) {
        const size = messageBytes(stream)
        expect(chunks.reduce((_, chunk) => size(chunk), 0)).toBe(whole)
      }
    }), { numRuns: 1000 })
  })
})

describe('an HTTP upstream\'s answer that never ends', () => {
  for (const kind of ['json', 'event-stream'] as const) {
    it(`(${kind}) is read no further once its call timed out: its connection closes`, async () => {
      const upstream = await endlessUpstream(kind, 'slow')
      await callThrough(upstream.url, 1000, async (text) => {
        expect(text).toMatch(/timed out/i)
        await expect.poll(upstream.closed, { timeout: 30_000 }).toBe(true)
      })
    })

    it(`(${kind}) is refused past 256 MiB in one message, said, and its connection closes`, async () => {
      const upstream = await endlessUpstream(kind, 'fast')
      await callThrough(upstream.url, 600_000, async (text) => {
        expect(text).toContain(`the upstream ${upstream.url} answered with over 256 MiB in one message; it was refused`)
        await expect.poll(upstream.closed, { timeout: 30_000 }).toBe(true)
      })
    })
  }
})

describe('what the proxy calls an upstream command', () => {
  it('names the package a runner fetches, the script an interpreter runs, else the command', () => {
    const cases: [string[], string][] = [
      [['npx', '-y', '@sentry/mcp-server@latest'], '@sentry/mcp-server@latest'],
      [['npx', '-p', '@scope/pkg', 'serve'], '@scope/pkg'],
      [['npx.cmd', '--package=@scope/pkg', 'serve'], '@scope/pkg'],
      [['pnpm', 'dlx', 'tavily-mcp'], 'tavily-mcp'],
      [['uvx', 'mcp-server-fetch'], 'mcp-server-fetch'],
      [['/usr/local/bin/node', '--import', 'tsx', '/srv/app/server.ts'], 'server.ts'],
      [['node', './dist/index.js', '--port', '3'], 'dist/index.js'],
      [['python3', '-m', 'weather_server'], 'weather_server'],
      [['/opt/bin/kubernetes-mcp-server', '--kubeconfig', 'k'], 'kubernetes-mcp-server'],
      [['node'], 'node'],
    ]
    for (const [command, name] of cases)
      expect(commandName(command), command.join(' ')).toBe(name)
  })
})
