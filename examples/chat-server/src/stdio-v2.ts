// src/stdio-v2.ts: the same tools on the MCP SDK 2.x (`@modelcontextprotocol/server`), over stdio,
// in both protocol eras: the SDK's `serveStdio` answers a 2025 `initialize` and 2026-07-28 requests
// alike, from one factory. Every client gets the build's base profile; the operator may serve
// another to every caller by naming it: `node dist/vite/server-v2.mjs gemini`.
import { createMcpServer, StdioTransport } from '@flatmcp/runtime/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { tools } from './tools'

const profile = process.argv[2]
serveStdio(request => createMcpServer(tools, { name: 'chat-example', version: '0.1.0' }, { request, ...(profile ? { profile } : {}) }), { transport: new StdioTransport() })
