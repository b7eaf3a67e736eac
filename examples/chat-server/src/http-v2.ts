// The example server on the MCP SDK 2.x over Streamable HTTP (stateless): `tsx src/http-v2.ts [port]`,
// then POST /mcp. The SDK's handler is fetch-shaped; node:http requests and responses are converted.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { createMcpServer } from '@flatmcp/runtime/server'
import { createMcpHandler } from '@modelcontextprotocol/server'
import { listen } from './listen'
import { tools } from './tools'

// A server per request: cheap, since the schemas are precomputed.
const handler = createMcpHandler(() => createMcpServer(tools, { name: 'chat-example', version: '0.1.0' }))

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url !== '/mcp') {
    res.writeHead(404).end()
    return
  }
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, item)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
  const response = await handler.fetch(request)
  res.writeHead(response.status, Object.fromEntries(response.headers))
  if (response.body) {
    for await (const chunk of response.body)
      res.write(chunk)
  }
  res.end()
}

listen('chat-example (SDK 2.x)', handle)
