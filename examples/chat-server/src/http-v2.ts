// The example server on the MCP SDK 2.x over Streamable HTTP (stateless): `tsx src/http-v2.ts [port]`,
// then POST /mcp, through the SDK's fetch-shaped handler.
import { createMcpServer } from '@flatmcp/runtime/server'
import { createMcpHandler } from '@modelcontextprotocol/server'
import { listenFetch } from './listen'
import { tools } from './tools'

// A server per request: cheap, since the schemas are precomputed.
const handler = createMcpHandler(() => createMcpServer(tools, { name: 'chat-example', version: '0.1.0' }))
listenFetch('chat-example (SDK 2.x)', request => handler.fetch(request))
