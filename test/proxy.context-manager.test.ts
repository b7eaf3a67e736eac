// The proxy's OpenTelemetry context manager holds a context within a synchronous `with` only (no
// hook on every promise); the spans of a call still nest, because each request hands its context on.
import type * as OpenTelemetry from '@opentelemetry/api'
import type { TracedSdk } from './support/traced-sdk'
import { defineTool } from '@flatmcp/runtime'
import { createMcpServer as createMcpServerV1 } from '@flatmcp/runtime/sdk'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client as ClientV2 } from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { callContextManager } from '../packages/cli/src/proxy/context-manager'
import { ATTRIBUTES } from '../packages/runtime/src/telemetry/conventions'
import { tracedSdk } from './support/traced-sdk'

let sdk: TracedSdk
let exporter: TracedSdk['exporter']
let api: TracedSdk['api']

beforeAll(async () => {
  sdk = await tracedSdk(callContextManager)
  ;({ exporter, api } = sdk)
})
afterAll(async () => {
  await sdk.shutdown()
})

describe('the proxy\'s context manager', () => {
  it('holds a context inside a synchronous `with`, nested ones restored, and the root outside and after an await', async () => {
    const key = api.createContextKey('k')
    const outer = api.ROOT_CONTEXT.setValue(key, 'outer')
    const inner = outer.setValue(key, 'inner')
    const seen: unknown[] = []
    await api.context.with(outer, async () => {
      seen.push(api.context.active().getValue(key))
      api.context.with(inner, () => seen.push(api.context.active().getValue(key)))
      seen.push(api.context.active().getValue(key))
      await Promise.resolve()
      seen.push(api.context.active().getValue(key))
    })
    expect(() => api.context.with(outer, () => {
      throw new Error('thrown')
    })).toThrow('thrown')
    seen.push(api.context.active().getValue(key))
    expect(seen).toEqual(['outer', 'inner', 'outer', undefined, undefined])
  })
})

describe('a traced call, the context not following its awaits', () => {
  it.each(['1.x', '2.x'] as const)('SDK %s: the SERVER span gets the repair\'s paths, and a span the handler starts under its `trace` after an await is the SERVER span\'s child', async (major) => {
    exporter.reset()
    const add = defineTool({
      name: 'add',
      input: z.object({ a: z.number(), b: z.number() }),
      handler: async ({ a, b }, { trace }) => {
        await new Promise(resolve => setTimeout(resolve, 1))
        api.trace.getTracer('handler').startSpan('inner', {}, trace as OpenTelemetry.Context).end()
        return String(a + b)
      },
    })
    const options = { telemetry: api }
    const args = { name: 'add', arguments: { a: '2', b: 3 } }
    if (major === '2.x') {
      const client = new ClientV2({ name: 't', version: '1' })
      const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair()
      await Promise.all([createMcpServer([add], { name: 's', version: '1' }, options).connect(serverSide), client.connect(clientSide)])
      await client.callTool(args)
      await client.close()
    }
    else {
      const client = new Client({ name: 't', version: '1' })
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      await Promise.all([createMcpServerV1([add], { name: 's', version: '1' }, options).connect(serverSide), client.connect(clientSide)])
      await client.callTool(args)
      await client.close()
    }
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(2)
    const server = exporter.getFinishedSpans().find(span => span.name === 'tools/call add')!
    const inner = exporter.getFinishedSpans().find(span => span.name === 'inner')!
    expect(server.attributes).toMatchObject({ [ATTRIBUTES.tool.key]: 'add', [ATTRIBUTES.repair.key]: ['/a'] })
    expect(inner.spanContext().traceId).toBe(server.spanContext().traceId)
    expect(inner.parentSpanContext?.spanId).toBe(server.spanContext().spanId)
  })
})
