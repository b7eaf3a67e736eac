// The benchmark's upstream: the catalogue's first `n` tools on a plain SDK 2.x McpServer (zod inputs,
// the SDK's own JSON Schema), over stdio, or over Streamable HTTP with `--http port` (stateless, one
// server per request, as the SDK's handler serves). `tsx bench/proxy-upstream.ts <n> [--http port]`.
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import type { z } from 'zod'
import { serveFetch } from '../test/support/serve-fetch'
import { toolAt } from './catalog'

const n = Number(process.argv[2] ?? 100)
const httpAt = process.argv.indexOf('--http')

function makeServer(): McpServer {
  const server = new McpServer({ name: 'bench-upstream', version: '1.0.0' }, { capabilities: { tools: {} } })
  for (let i = 0; i < n; i++) {
    const tool = toolAt(i)
    const answer = (input: unknown): { content: { type: 'text', text: string }[] } => ({ content: [{ type: 'text', text: JSON.stringify(input) }] })
    server.registerTool(tool.name, { description: tool.description ?? '', inputSchema: tool.input as z.ZodObject }, answer)
  }
  return server
}

if (httpAt < 0) {
  await makeServer().connect(new StdioServerTransport())
}
else {
  const handler = createMcpHandler(() => makeServer())
  serveFetch('bench upstream', Number(process.argv[httpAt + 1]), request => handler.fetch(request))
}
