// The upstream stage alone (connectUpstream over each transport), against real processes and a real
// HTTP server on 127.0.0.1: a command that ends before its handshake, an upstream that asks for
// OAuth, and one that loses the session, whose request goes once more on a fresh one.
import type { Server } from 'node:http'
import { createServer } from 'node:http'
import { Readable } from 'node:stream'
import { connectUpstream, ProxySetupError } from '@flatmcp/runtime/proxy'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { commandName } from '../src/proxy/upstream/command-name'

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
