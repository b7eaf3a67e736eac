// The example server over Streamable HTTP (stateless): `tsx src/http.ts [port]`, then POST /mcp.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createMcpServer } from '@flatmcp/runtime/sdk'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { listen } from './listen'
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

listen('chat-example', handle)
