// src/stdio.ts: the server over stdio (stdout carries the protocol; logs go to stderr).
import { createMcpServer, StdioTransport } from '@flatmcp/runtime/sdk'
import { tools } from './tools'

const server = createMcpServer(tools, { name: 'chat-example', version: '0.1.0' })
await server.connect(new StdioTransport())
