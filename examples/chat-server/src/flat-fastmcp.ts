// src/flat-fastmcp.ts: the same flat() schema served by fastmcp, over stdio.
import { FastMCP } from 'fastmcp'
import { sendInput } from './flat.tools'

const server = new FastMCP({ name: 'chat-fastmcp', version: '0.1.0' })
server.addTool({ name: 'send', description: 'Send a message', parameters: sendInput, execute: async input => input.kind === 'text' ? input.text : `sent ${input.media.length} files` })
await server.start({ transportType: 'stdio' })
