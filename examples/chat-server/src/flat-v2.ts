// src/flat-v2.ts: the MCP SDK 2.x McpServer with a flat() input schema, over stdio.
import { flat } from '@flatmcp/runtime'
import { McpServer } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import { z } from 'zod'

const Send = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('mediaGroup'), media: z.array(z.object({ url: z.string() })).min(1) }),
])
export const sendInput = flat(Send, { name: 'send' })

const server = new McpServer({ name: 'chat-v2', version: '0.1.0' }, { capabilities: { tools: {} } })
server.registerTool('send', { description: 'Send a message', inputSchema: sendInput }, async input => ({
  // `input` has the original's type: narrowing on kind works.
  content: [{ type: 'text', text: input.kind === 'text' ? input.text : `sent ${input.media.length} files` }],
}))
await server.connect(new StdioServerTransport())
