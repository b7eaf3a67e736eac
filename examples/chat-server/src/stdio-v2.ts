// src/stdio-v2.ts: the same tools on the MCP SDK 2.x (`@modelcontextprotocol/server`), over stdio.
// Every client gets the build's base profile; the operator may serve another to every caller by
// naming it: `node dist/vite/server-v2.mjs gemini`.
import { createMcpServer, StdioTransport } from '@flatmcp/runtime/server'
import { tools } from './tools'

const profile = process.argv[2]
const server = createMcpServer(tools, { name: 'chat-example', version: '0.1.0' }, profile ? { profile } : {})
await server.connect(new StdioTransport())
