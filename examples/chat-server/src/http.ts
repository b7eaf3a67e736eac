// The example server over Streamable HTTP (stateless): `tsx src/http.ts [port]`, then POST /mcp.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:http'
import { createMcpServer } from '@flatmcp/runtime/sdk'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { tools } from './tools'

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url !== '/mcp') {
    res.writeHead(404).end()
    return
  }
  // Stateless: a server and a transport per request. Cheap, since the schemas are precomputed.
  const server = createMcpServer(tools, { name: 'chat-example', version: '0.1.0' })
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
  res.on('close', () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  await transport.handleRequest(req, res)
}

const port = Number(process.argv[2] ?? 3000)
const http = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error)
    if (!res.headersSent)
      res.writeHead(500).end()
  })
})
http.listen(port, '127.0.0.1', () => {
  const address = http.address()
  console.error(`chat-example listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/mcp`)
})
