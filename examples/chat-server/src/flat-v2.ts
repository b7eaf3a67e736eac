// src/flat-v2.ts: the MCP SDK 2.x McpServer with a flat() input schema, over stdio.
import { McpServer } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import { sendInput } from './flat.tools'

const server = new McpServer({ name: 'chat-v2', version: '0.1.0' }, { capabilities: { tools: {} } })
server.registerTool('send', { description: 'Send a message', inputSchema: sendInput }, async input => ({
  // `input` has the original's type: narrowing on kind works.
  content: [{ type: 'text', text: input.kind === 'text' ? input.text : `sent ${input.media.length} files` }],
}))
await server.connect(new StdioServerTransport())
