// The example server on the MCP SDK 2.x over Streamable HTTP: `tsx src/http-v2.ts [port]`, then
// POST /mcp. The SDK's fetch-shaped handler serves 2026-07-28 requests and stateless 2025 ones,
// each with a server of its own (cheap: the schemas are precomputed). The path picks the profile,
// which every request carries: /mcp serves the build's base profile, /mcp/gemini the `gemini` one.
import { createMcpServer } from '@flatmcp/runtime/server'
import { createMcpHandler } from '@modelcontextprotocol/server'
import { listenFetch } from './listen'
import { tools } from './tools'

const handler = createMcpHandler(request => createMcpServer(tools, { name: 'chat-example', version: '0.1.0' }, {
  request,
  profile: ({ url }) => url?.pathname.split('/')[2],
}))
listenFetch('chat-example (SDK 2.x)', request => handler.fetch(request))
