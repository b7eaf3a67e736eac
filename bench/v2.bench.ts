// tools/list through a real client in one process (in-memory transport), at 100 union-bearing tools:
// on the MCP SDK 2.x, the SDK's McpServer with plain zod schemas, the same McpServer with flat()
// schemas, createMcpServer, and a low-level Server returning a prebuilt list (the limit); on 1.x,
// createMcpServer against its own limit.
import type { ToolDefinition } from '@flatmcp/runtime'
import { compileTool } from '@flatmcp/core'
import { attachCompiled, attachFlat, flat, toPrecomputed } from '@flatmcp/runtime'
import { createMcpServer as createMcpServerV1 } from '@flatmcp/runtime/sdk'
import { createMcpServer as createMcpServerV2 } from '@flatmcp/runtime/server'
import { Client as ClientV2 } from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js'
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { InMemoryTransport as InMemoryV2, McpServer, Server as ServerV2 } from '@modelcontextprotocol/server'
import type { z } from 'zod'
import { toolAt } from './catalog'
import { measure } from './measure'

export const V2_TOOLS = 100

export interface V2Results {
  v2: { zod: number, flat: number, createMcpServer: number, limit: number }
  v1: { createMcpServer: number, limit: number }
}

/** The input a framework registers: params merged into an object input (as the SDK benchmark does). */
function registeredInput(tool: ToolDefinition): z.ZodType {
  return (tool.params ? (tool.params as z.ZodObject).extend((tool.input as z.ZodObject).shape) : tool.input) as z.ZodType
}

/** Milliseconds per tools/list through a client connected in memory to `server`. */
async function listTime(connect: () => Promise<{ listTools: () => Promise<unknown>, close: () => Promise<void> }>): Promise<number> {
  const client = await connect()
  try {
    return await measure(() => client.listTools(), { budgetMs: 2000, min: 20, max: 400 })
  }
  finally {
    await client.close()
  }
}

async function viaV2(server: { connect: (transport: never) => Promise<void> }): Promise<ClientV2> {
  const [clientSide, serverSide] = InMemoryV2.createLinkedPair()
  await server.connect(serverSide as never)
  const client = new ClientV2({ name: 'bench', version: '1' })
  await client.connect(clientSide)
  return client
}

async function viaV1(server: ServerV1): Promise<ClientV1> {
  const [clientSide, serverSide] = InMemoryV1.createLinkedPair()
  await server.connect(serverSide)
  const client = new ClientV1({ name: 'bench', version: '1' })
  await client.connect(clientSide)
  return client
}

export async function runV2(log: (line: string) => void): Promise<V2Results> {
  const tools = Array.from({ length: V2_TOOLS }, (_, i) => toolAt(i) as ToolDefinition)
  const precomputed = tools.map(tool => toPrecomputed(compileTool(tool)))
  const prebuilt = { tools: precomputed.map(p => p.tool) }
  const handler = async () => ({ content: [] })

  log('SDK 2.x tools/list: McpServer with zod')
  const zod = await listTime(() => {
    const server = new McpServer({ name: 'zod', version: '1' }, { capabilities: { tools: {} } })
    for (const tool of tools)
      server.registerTool(tool.name, { description: tool.description, inputSchema: registeredInput(tool) as z.ZodObject }, handler)
    return viaV2(server)
  })
  log('SDK 2.x tools/list: McpServer with flat()')
  const flatTime = await listTime(() => {
    const server = new McpServer({ name: 'flat', version: '1' }, { capabilities: { tools: {} } })
    for (const tool of tools) {
      const input = flat(registeredInput(tool), { name: tool.name })
      // As the plugin does: the precomputed data attached, nothing compiled at run time.
      const compiled = compileTool({ name: tool.name, input: input.schema, handler } as ToolDefinition)
      attachFlat(input, { inputSchema: compiled.inputSchema, coercion: compiled.coercion })
      server.registerTool(tool.name, { description: tool.description, inputSchema: input }, handler)
    }
    return viaV2(server)
  })
  log('SDK 2.x tools/list: createMcpServer and the limit')
  const createV2 = await listTime(() => viaV2(createMcpServerV2(tools.map((tool, i) => attachCompiled(tool, precomputed[i]!)), { name: 'f', version: '1' })))
  const limitV2 = await listTime(() => {
    const server = new ServerV2({ name: 'limit', version: '1' }, { capabilities: { tools: {} } })
    server.setRequestHandler('tools/list', (() => prebuilt) as never)
    return viaV2(server)
  })
  log('SDK 1.x tools/list: createMcpServer and the limit')
  const createV1 = await listTime(() => viaV1(createMcpServerV1(tools.map((tool, i) => attachCompiled(tool, precomputed[i]!)), { name: 'f', version: '1' })))
  const limitV1 = await listTime(() => {
    const server = new ServerV1({ name: 'limit', version: '1' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, () => prebuilt as never)
    return viaV1(server)
  })
  return { v2: { zod, flat: flatTime, createMcpServer: createV2, limit: limitV2 }, v1: { createMcpServer: createV1, limit: limitV1 } }
}
