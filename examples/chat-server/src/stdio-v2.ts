// src/stdio-v2.ts: the same tools on the MCP SDK 2.x (`@modelcontextprotocol/server`), over stdio.
import { createMcpServer, StdioTransport } from '@flatmcp/runtime/server'
import { tools } from './tools'

const server = createMcpServer(tools, { name: 'chat-example', version: '0.1.0' })
await server.connect(new StdioTransport())
