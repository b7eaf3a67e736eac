// src/flat-mcp-handler.ts: the same flat() schema behind mcp-handler's fetch handler (a Next.js route
// exports it as GET and POST), here on node:http: `tsx src/flat-mcp-handler.ts [port]`.
import { createMcpHandler } from 'mcp-handler'
import { sendInput } from './flat.tools'
import { listenFetch } from './listen'

const handler = createMcpHandler((server) => {
  server.registerTool('send', { description: 'Send a message', inputSchema: sendInput }, async input => ({
    content: [{ type: 'text', text: input.kind === 'text' ? input.text : `sent ${input.media.length} files` }],
  }))
})
listenFetch('chat flat() (mcp-handler)', handler)
