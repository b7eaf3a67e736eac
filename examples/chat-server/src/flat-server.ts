// src/flat-server.ts: the MCP SDK 2.x McpServer with a flat() input schema.
import { McpServer } from '@modelcontextprotocol/server'
import { sendInput } from './flat.tools'

export function createFlatServer(): McpServer {
  const server = new McpServer({ name: 'chat-v2', version: '0.1.0' }, { capabilities: { tools: {} } })
  server.registerTool('send', { description: 'Send a message', inputSchema: sendInput }, async input => ({
    // `input` has the original's type: narrowing on kind works.
    content: [{ type: 'text', text: input.kind === 'text' ? input.text : `sent ${input.media.length} files` }],
  }))
  return server
}
