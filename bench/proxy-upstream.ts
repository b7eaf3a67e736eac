// The benchmark's upstream: the catalogue's first `n` tools on a plain SDK 2.x McpServer (zod inputs,
// the SDK's own JSON Schema), over stdio, or over Streamable HTTP with `--http port` (stateless, one
// server per request, as the SDK's handler serves). `tsx bench/proxy-upstream.ts <n> [--http port]`.
import { createServer } from 'node:http'
import { Readable } from 'node:stream'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import type { z } from 'zod'
import { toolAt } from './catalog'

const n = Number(process.argv[2] ?? 100)
const httpAt = process.argv.indexOf('--http')

function makeServer(): McpServer {
  const server = new McpServer({ name: 'bench-upstream', version: '1.0.0' }, { capabilities: { tools: {} } })
  for (let i = 0; i < n; i++) {
    const tool = toolAt(i)
    const answer = (input: unknown): { content: { type: 'text', text: string }[] } => ({ content: [{ type: 'text', text: JSON.stringify(input) }] })
    server.registerTool(tool.name, { description: tool.description ?? '', inputSchema: tool.input as z.ZodObject }, answer)
  }
  return server
}

if (httpAt < 0) {
  await makeServer().connect(new StdioServerTransport())
}
else {
  const handler = createMcpHandler(() => makeServer())
  const http = createServer((req, res) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
        headers.append(name, item)
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    void handler.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}) } as RequestInit)).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers))
      if (response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
          res.write(chunk)
      }
      res.end()
    })
  })
  http.listen(Number(process.argv[httpAt + 1]), '127.0.0.1', () => {
    const address = http.address()
    process.stderr.write(`bench upstream listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp\n`)
  })
}
