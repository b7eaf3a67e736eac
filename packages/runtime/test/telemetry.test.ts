// A server built with the plugin, traced: `createMcpServer(…, { telemetry })` with OpenTelemetry's
// own Node SDK started (spans kept in memory), on either SDK major: a SERVER span per tools/call as
// the semantic conventions for MCP name it, under the caller's traceparent, with flatmcp's repair
// and profile, and `onCall` beside it hearing the same call.
import type { ObservedCall } from '@flatmcp/runtime/server'
import type * as OpenTelemetry from '@opentelemetry/api'
import { defineTool } from '@flatmcp/runtime'
import { createMcpServer as createMcpServerV1 } from '@flatmcp/runtime/sdk'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client as ClientV2 } from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server'
import { NodeSDK } from '@opentelemetry/sdk-node'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'

const exporter = new InMemorySpanExporter()
let sdk: NodeSDK
let api: typeof OpenTelemetry

beforeAll(async () => {
  process.env.OTEL_METRICS_EXPORTER = 'none'
  process.env.OTEL_LOGS_EXPORTER = 'none'
  sdk = new NodeSDK({ spanProcessors: [new SimpleSpanProcessor(exporter)], instrumentations: [] })
  sdk.start()
  api = await import('@opentelemetry/api')
})
afterAll(async () => {
  await sdk.shutdown()
})

const add = defineTool({ name: 'add', input: z.object({ a: z.number(), b: z.number() }), handler: ({ a, b }) => String(a + b) })
const TRACE = '0af7651916cd43dd8448eb211c80319c'
const CALLER = 'b7ad6b7169203331'

describe('createMcpServer with telemetry', () => {
  it.each(['1.x', '2.x'] as const)('SDK %s: a tools/call is a SERVER span under the caller\'s traceparent, with the repair\'s paths; onCall hears the same call', async (major) => {
    exporter.reset()
    const heard: ObservedCall[] = []
    const options = { telemetry: api, onCall: (call: ObservedCall) => heard.push(call) }
    let result: unknown
    if (major === '2.x') {
      const client = new ClientV2({ name: 't', version: '1' })
      const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair()
      await Promise.all([createMcpServer([add], { name: 's', version: '1' }, options).connect(serverSide), client.connect(clientSide)])
      result = await client.callTool({ name: 'add', arguments: { a: '2', b: 3 }, _meta: { traceparent: `00-${TRACE}-${CALLER}-01` } })
      await client.close()
    }
    else {
      const client = new Client({ name: 't', version: '1' })
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      await Promise.all([createMcpServerV1([add], { name: 's', version: '1' }, options).connect(serverSide), client.connect(clientSide)])
      result = await client.callTool({ name: 'add', arguments: { a: '2', b: 3 }, _meta: { traceparent: `00-${TRACE}-${CALLER}-01` } })
      await client.close()
    }
    expect((result as { content: { text: string }[] }).content[0]!.text).toBe('5')
    // Exported once the span's resource is read (a tick or two).
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(1)
    const [span] = exporter.getFinishedSpans()
    expect(span!.name).toBe('tools/call add')
    expect(span!.kind).toBe(api.SpanKind.SERVER)
    expect(span!.spanContext().traceId).toBe(TRACE)
    expect(span!.parentSpanContext?.spanId).toBe(CALLER)
    expect(span!.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'add', 'network.transport': 'pipe', 'flatmcp.repair': ['/a'] })
    expect(heard).toEqual([expect.objectContaining({ tool: 'add', outcome: 'ok', repaired: ['/a'] })])
  })
})
