// The fetch handler's telemetry, read back from an OTLP receiver the test runs: the handler given the
// API of an SDK started in this process (the proxy's own, as OTEL_ configures it), in front of a real
// SDK 2.x upstream. The same spans, attributes, histograms and repair marks as `flatmcp proxy`
// (test/proxy.telemetry-conventions.test.ts): a SERVER span per request under the caller's
// traceparent (its `_meta`, else its header), a CLIENT span per call sent upstream whose trace
// context the upstream receives in `_meta` and in the `traceparent` header.
import type { OtelApi } from '@flatmcp/runtime/proxy/fetch'
import type { Telemetry } from '../packages/cli/src/proxy/telemetry'
import type { OtlpReceiver, OtlpSpan } from './support/otlp-receiver'
import { createProxy } from '@flatmcp/runtime/proxy'
import { createProxyHandler } from '@flatmcp/runtime/proxy/fetch'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { startTelemetry } from '../packages/cli/src/proxy/telemetry'
import { ATTRIBUTES, DURATION_BOUNDARIES, EXECUTE_TOOL, METRICS, OTHER, TOOL_ERROR } from '../packages/runtime/src/telemetry/conventions'
import { attribute, attributesOf, metricPoints, otlpEnv, otlpReceiver } from './support/otlp-receiver'

const ajv = new Ajv2020({ strict: false })
const validator = (schema: unknown): (value: unknown) => boolean => ajv.compile(schema as object) as (value: unknown) => boolean
const SERVER = 2
const CLIENT = 3
const TRACE = '5bf92f3577b34da6a3ce929d0e0e4737'
const traceparent = (span: string): string => `00-${TRACE}-${span}-01`
const VERSION = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)

/** What the upstream received of each call: its traceparent header and `_meta`. */
const received: { header: string | null, meta: unknown }[] = []

function upstreamServer(): McpServer {
  const server = new McpServer({ name: 'traced', version: '1.0.0' })
  server.registerTool('whoami', { description: 'Says who it is.', inputSchema: z.object({ n: z.number() }) }, ({ n }) => ({ content: [{ type: 'text', text: `n=${n}` }] }))
  server.registerTool('fails', { description: 'Always fails.', inputSchema: z.object({}) }, () => ({ isError: true, content: [{ type: 'text', text: 'no' }] }))
  return server
}
const upstream = createMcpHandler(upstreamServer)
async function upstreamFetch(request: Request): Promise<Response> {
  const body = await request.clone().json().catch(() => undefined) as { method?: string, params?: { _meta?: unknown } } | undefined
  if (body?.method === 'tools/call')
    received.push({ header: request.headers.get('traceparent'), meta: body.params?._meta })
  return upstream.fetch(request)
}

let receiver: OtlpReceiver
let telemetry: Telemetry
let snapshot: unknown
beforeAll(async () => {
  receiver = await otlpReceiver()
  Object.assign(process.env, otlpEnv(receiver.endpoint))
  telemetry = (await startTelemetry(() => {}))!
  const client = new Client({ name: 'proxy', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL('http://upstream.test/mcp'), { fetch: (url, init) => upstreamFetch(new Request(url, init)) }))
  const made = await createProxy(client, { log: () => {} })
  snapshot = JSON.parse(JSON.stringify(made.snapshot('flatmcp@test'))) as unknown
  await made.close()
})
afterAll(async () => {
  await telemetry?.shutdown()
  receiver.close()
})

/** The metric's points, once exported. */
const points = (from: number, name: string, where?: (point: Record<string, unknown>) => boolean): ReturnType<typeof metricPoints> => metricPoints(receiver, from, name, where)

async function connected(handler: { fetch: (request: Request) => Promise<Response> }): Promise<Client> {
  const client = new Client({ name: 'caller', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL('http://proxy.test/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }))
  return client
}

describe('the fetch handler\'s telemetry, by the OpenTelemetry MCP conventions', () => {
  it('SERVER and CLIENT spans under the caller\'s traceparent, the trace context handed upstream in _meta and the header; error.type one vocabulary; durations in the conventions\' buckets; repair marks', async () => {
    const from = receiver.received.length
    const handler = createProxyHandler({ upstream: 'http://upstream.test/mcp', snapshot, fetch: upstreamFetch, telemetry: telemetry.api as OtelApi, validator, log: () => {} })
    const client = await connected(handler)
    try {
      received.length = 0
      await client.callTool({ name: 'whoami', arguments: { n: 2 }, _meta: { traceparent: traceparent('00f067aa0ba902b7') } })
      await client.callTool({ name: 'whoami', arguments: { n: '3' }, _meta: { traceparent: traceparent('00f067aa0ba902b8') } })
      await expect(client.callTool({ name: 'no_such_tool', arguments: {}, _meta: { traceparent: traceparent('00f067aa0ba902b9') } })).rejects.toThrow()
      expect((await client.callTool({ name: 'fails', arguments: {}, _meta: { traceparent: traceparent('00f067aa0ba902ba') } })).isError).toBe(true)
      // A caller that sends its trace context as an HTTP header only.
      const headed = await handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', traceparent: traceparent('00f067aa0ba902bb') }, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'whoami', arguments: { n: 5 } } }) }))
      expect(await headed.text()).toContain('n=5')
      await expect.poll(() => receiver.spans(from).filter(span => span.traceId === TRACE).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(9)
      const spans = receiver.spans(from).filter(span => span.traceId === TRACE)
      const server = (parent: string): OtlpSpan => spans.find(span => span.kind === SERVER && span.parentSpanId === parent)!
      const exact = server('00f067aa0ba902b7')
      expect(exact.name).toBe('tools/call whoami')
      expect(attributesOf(exact.attributes)).toMatchObject({
        [ATTRIBUTES.method.key]: 'tools/call',
        [ATTRIBUTES.tool.key]: 'whoami',
        [ATTRIBUTES.operation.key]: EXECUTE_TOOL,
        [ATTRIBUTES.transport.key]: 'tcp',
        [ATTRIBUTES.protocolVersion.key]: VERSION,
        [ATTRIBUTES.requestId.key]: expect.any(String),
        [ATTRIBUTES.upstream.key]: 'traced',
        [ATTRIBUTES.repair.key]: [],
      })
      expect(attribute(exact.attributes, ATTRIBUTES.errorType.key)).toBeUndefined()
      expect(attribute(server('00f067aa0ba902b8').attributes, ATTRIBUTES.repair.key)).toEqual(['/n'])
      // The CLIENT span toward the upstream: the SERVER span's child, the same conventions, its context what the upstream received.
      const sent = spans.find(span => span.kind === CLIENT && span.parentSpanId === exact.spanId)!
      expect(sent.name).toBe('tools/call whoami')
      expect(attributesOf(sent.attributes)).toMatchObject({ [ATTRIBUTES.method.key]: 'tools/call', [ATTRIBUTES.tool.key]: 'whoami', [ATTRIBUTES.operation.key]: EXECUTE_TOOL, [ATTRIBUTES.transport.key]: 'tcp', [ATTRIBUTES.upstream.key]: 'traced' })
      const handed = `00-${TRACE}-${sent.spanId}-01`
      expect(received[0]).toEqual({ header: handed, meta: expect.objectContaining({ traceparent: handed }) })
      // A name no tool has: the JSON-RPC error's code; a tool's error result: tool_error. In spans and metrics alike.
      const unknown = server('00f067aa0ba902b9')
      expect(unknown.name).toBe('tools/call')
      expect(unknown.status?.code).toBe(2)
      expect(attributesOf(unknown.attributes)).toMatchObject({ [ATTRIBUTES.errorType.key]: '-32602', [ATTRIBUTES.statusCode.key]: '-32602' })
      const failed = server('00f067aa0ba902ba')
      expect(attributesOf(failed.attributes)).toMatchObject({ [ATTRIBUTES.errorType.key]: TOOL_ERROR })
      expect(failed.status?.code).toBe(2)
      expect(attributesOf(spans.find(span => span.kind === CLIENT && span.parentSpanId === failed.spanId)!.attributes)).toMatchObject({ [ATTRIBUTES.errorType.key]: TOOL_ERROR })
      // The header's trace context is the parent where _meta carries none.
      expect(server('00f067aa0ba902bb').name).toBe('tools/call whoami')
      const durations = await points(from, METRICS.serverDuration.name, point => point[ATTRIBUTES.method.key] === 'tools/call')
      // Counted by tool and error (the caller that sent only a header named another MCP version: a series of its own).
      const counted = new Map<string, number>()
      for (const point of durations) {
        const key = `${String(point.attributes[ATTRIBUTES.tool.key])} ${String(point.attributes[ATTRIBUTES.errorType.key])}`
        counted.set(key, (counted.get(key) ?? 0) + point.count)
      }
      expect(Object.fromEntries(counted)).toEqual({ '_OTHER -32602': 1, 'fails tool_error': 1, 'whoami undefined': 3 })
      for (const point of durations)
        expect(point.bounds).toEqual([...DURATION_BOUNDARIES])
      const upstreamDurations = await points(from, METRICS.clientDuration.name)
      expect(upstreamDurations.map(point => [point.attributes[ATTRIBUTES.tool.key], point.attributes[ATTRIBUTES.errorType.key], point.bounds, point.count]).sort()).toEqual([['fails', TOOL_ERROR, [...DURATION_BOUNDARIES], 1], ['whoami', undefined, [...DURATION_BOUNDARIES], 3]])
      const repairs = await points(from, METRICS.repairs.name)
      expect(repairs.map(point => [point.attributes[ATTRIBUTES.tool.key], point.count])).toEqual([['whoami', 1]])
    }
    finally {
      await client.close()
    }
  })
})

describe('the fetch handler\'s telemetry against a hostile caller', () => {
  it('a protocol version the caller makes up opens no metric series of its own: each is _OTHER, as a made-up tool name is', async () => {
    const from = receiver.received.length
    const handler = createProxyHandler({ upstream: 'http://upstream.test/mcp', snapshot, fetch: upstreamFetch, telemetry: telemetry.api as OtelApi, validator, log: () => {} })
    const made = ['x-1', 'x-2', '1999-01-01']
    for (const [at, version] of made.entries()) {
      const answer = await handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': version }, body: JSON.stringify({ jsonrpc: '2.0', id: 100 + at, method: 'ping', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': version } } }) }))
      await answer.text()
    }
    const pings = (point: Record<string, unknown>): boolean => point[ATTRIBUTES.method.key] === 'ping'
    await expect.poll(async () => (await points(from, METRICS.serverDuration.name, pings)).reduce((sum, point) => sum + point.count, 0), { timeout: 15_000 }).toBe(made.length)
    const durations = await points(from, METRICS.serverDuration.name, pings)
    expect(durations.map(point => point.attributes[ATTRIBUTES.protocolVersion.key])).toEqual([OTHER])
  })

  it('a call through a view is traced with the profile it was read in and the view apart (issue 69)', async () => {
    const from = receiver.received.length
    const viewed = { ...(snapshot as object), overrides: { file: { tools: {}, views: { pager: { tools: ['whoami'], profile: 'openai-strict' } } }, fixed: {} } }
    const handler = createProxyHandler({ upstream: 'http://upstream.test/mcp', snapshot: viewed, fetch: upstreamFetch, telemetry: telemetry.api as OtelApi, validator, log: () => {} })
    const answer = await handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'x-mcp-view': 'pager', 'mcp-protocol-version': '2025-06-18', 'traceparent': traceparent('00f067aa0ba902c2') }, body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'whoami', arguments: { n: 1 } } }) }))
    expect(await answer.text()).toContain('n=1')
    await expect.poll(() => receiver.spans(from).some(span => span.kind === SERVER && span.parentSpanId === '00f067aa0ba902c2'), { timeout: 15_000 }).toBe(true)
    const span = receiver.spans(from).find(span => span.kind === SERVER && span.parentSpanId === '00f067aa0ba902c2')!
    expect({ profile: attribute(span.attributes, ATTRIBUTES.profile.key), view: attribute(span.attributes, ATTRIBUTES.view.key) }).toEqual({ profile: 'openai-strict', view: 'pager' })
  })

  it('a caller the rules hold is traced in the profile it is served, never the key that holds it (its name and a NUL)', async () => {
    const from = receiver.received.length
    const handler = createProxyHandler({ upstream: 'http://upstream.test/mcp', snapshot, fetch: upstreamFetch, telemetry: telemetry.api as OtelApi, validator, log: () => {}, callers: [{ name: 'ci', token: 'ci-token' }], rules: { callers: { ci: { deny: ['fails'] } } } })
    const answer = await handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'authorization': 'Bearer ci-token', 'mcp-protocol-version': '2025-06-18', 'traceparent': traceparent('00f067aa0ba902c1') }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'whoami', arguments: { n: 1 } } }) }))
    expect(await answer.text()).toContain('n=1')
    await expect.poll(() => receiver.spans(from).some(span => span.kind === SERVER && span.parentSpanId === '00f067aa0ba902c1'), { timeout: 15_000 }).toBe(true)
    const span = receiver.spans(from).find(span => span.kind === SERVER && span.parentSpanId === '00f067aa0ba902c1')!
    expect(attribute(span.attributes, ATTRIBUTES.profile.key)).toBeUndefined()
    expect(JSON.stringify(span.attributes)).not.toContain('caller:')
  })
})
