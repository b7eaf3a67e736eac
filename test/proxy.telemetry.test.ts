// OpenTelemetry through its standard environment: `flatmcp proxy` in front of a real upstream sends
// a local OTLP receiver (OTLP/HTTP JSON) a SERVER span per tool call named and attributed as the
// semantic conventions for MCP say, the caller's traceparent its parent, a CLIENT span for the call
// sent upstream whose trace context the upstream receives in `_meta`, and metrics of calls,
// durations and repairs. Without that environment, no OpenTelemetry module loads.
import type { AddressInfo } from 'node:net'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CALLER_TEXT_CHARS } from '../packages/runtime/src/util/caller-text'
import { ROOT } from './support/client'
import { CLI, httpClient, startListening } from './support/proxy'
import { REPLICA_UPSTREAM, replicaSnapshot } from './support/replica-snapshot'
import type { OtlpReceiver } from './support/otlp-receiver'
import { otlpReceiver } from './support/otlp-receiver'
import { serveFetch } from './support/serve-fetch'
import { ATTRIBUTES, METRICS, OTHER } from '../packages/runtime/src/telemetry/conventions'

interface OtlpSpan { traceId: string, spanId: string, parentSpanId?: string, name: string, kind: number, attributes: { key: string, value: Record<string, unknown> }[] }

let snapshot = ''
let scratch = ''
let remove = (): void => {}
let receiver: OtlpReceiver
let endpoint = ''
let received: OtlpReceiver['received'] = []

beforeAll(async () => {
  ({ snapshot, scratch, remove } = await replicaSnapshot())
  receiver = await otlpReceiver()
  ;({ endpoint, received } = receiver)
})
afterAll(() => {
  receiver.close()
  remove()
})

const spans = (): OtlpSpan[] => received.filter(each => each.path === '/v1/traces').flatMap(each => (each.body.resourceSpans as any[]).flatMap(resource => (resource.scopeSpans as any[]).flatMap(scope => scope.spans as OtlpSpan[])))
const metricNames = (): string[] => received.filter(each => each.path === '/v1/metrics').flatMap(each => (each.body.resourceMetrics as any[]).flatMap(resource => (resource.scopeMetrics as any[]).flatMap(scope => (scope.metrics as { name: string }[]).map(metric => metric.name))))
const attribute = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes.find(each => each.key === key)?.value
  return value === undefined ? undefined : value.stringValue ?? value.intValue ?? value.boolValue ?? (value.arrayValue as { values?: { stringValue: string }[] } | undefined)?.values?.map(each => each.stringValue) ?? []
}

/** An HTTP MCP server (SDK 2.x) made by `register`, and the `traceparent` header of each request it was sent. */
async function httpUpstream(register: (server: McpServer) => void): Promise<{ url: string, headers: string[], upstream: ReturnType<typeof serveFetch> }> {
  const headers: string[] = []
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'http-upstream', version: '1.0.0' })
    register(server)
    return server
  })
  const upstream = serveFetch('http-upstream', 0, async (request) => {
    headers.push(request.headers.get('traceparent') ?? '')
    return handler.fetch(request)
  })
  await new Promise(resolve => upstream.once('listening', resolve))
  return { url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`, headers, upstream }
}

describe('OpenTelemetry', () => {
  it('a request is a SERVER span of its method; a tool call one under the caller\'s traceparent, with the MCP conventions\' attributes and flatmcp\'s, its upstream call a CLIENT span whose context the upstream receives; calls, durations and repairs are measured', async () => {
    const modules = join(scratch, 'modules-on.log')
    const served = await startListening(process.execPath, ['--import', join(ROOT, 'test/support/module-log.mjs'), CLI, 'proxy', '--http', '0', '--artifact', snapshot, '--', process.execPath, REPLICA_UPSTREAM], ROOT, {
      MODULE_LOG: modules,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'flatmcp-under-test',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_METRIC_EXPORT_INTERVAL: '200',
    })
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const callerSpan = '00f067aa0ba902b7'
    const client = await httpClient(served.url, 'modern')
    try {
      await client.listTools()
      const result = await client.callTool({ name: 'whoami', arguments: { n: '7' }, _meta: { traceparent: `00-${traceId}-${callerSpan}-01` } })
      const answer = JSON.parse((result.content as { text: string }[])[0]!.text) as { n: number, meta: { traceparent?: string } }
      expect(answer.n).toBe(7)
      await expect.poll(() => spans().filter(span => span.traceId === traceId).length, { timeout: 10_000 }).toBe(2)
      const server = spans().find(span => span.kind === 2 && span.traceId === traceId)!
      const upstream = spans().find(span => span.kind === 3 && span.traceId === traceId)!
      expect(server.name).toBe('tools/call whoami')
      expect(server.parentSpanId).toBe(callerSpan)
      expect(upstream.parentSpanId).toBe(server.spanId)
      expect(answer.meta.traceparent).toBe(`00-${traceId}-${upstream.spanId}-01`)
      expect(Object.fromEntries([ATTRIBUTES.method.key, ATTRIBUTES.tool.key, ATTRIBUTES.transport.key, ATTRIBUTES.upstream.key, ATTRIBUTES.profile.key, ATTRIBUTES.repair.key].map(key => [key, attribute(server, key)]))).toEqual({
        [ATTRIBUTES.method.key]: 'tools/call',
        [ATTRIBUTES.tool.key]: 'whoami',
        [ATTRIBUTES.transport.key]: 'tcp',
        [ATTRIBUTES.upstream.key]: 'replica-upstream',
        [ATTRIBUTES.profile.key]: 'portable',
        [ATTRIBUTES.repair.key]: ['/n'],
      })
      expect(attribute(server, ATTRIBUTES.requestId.key)).toEqual(expect.any(String))
      // Every request a span of its method: the list too.
      await expect.poll(() => spans().find(span => span.name === 'tools/list'), { timeout: 10_000 }).toBeDefined()
      expect(attribute(spans().find(span => span.name === 'tools/list')!, ATTRIBUTES.method.key)).toBe('tools/list')
      // Never a value sent: the repaired path, not what was at it.
      expect(JSON.stringify(spans())).not.toContain('"7"')
      await expect.poll(metricNames, { timeout: 10_000 }).toEqual(expect.arrayContaining([METRICS.serverDuration.name, METRICS.calls.name, METRICS.repairs.name]))
      expect(served.stderr()).toContain(`flatmcp proxy: OpenTelemetry on (${endpoint})`)
      const resource = received.find(each => each.path === '/v1/traces')!.body.resourceSpans[0].resource.attributes as OtlpSpan['attributes']
      expect(resource.find(each => each.key === 'service.name')?.value.stringValue).toBe('flatmcp-under-test')
      expect(readFileSync(modules, 'utf8')).toContain('@opentelemetry/sdk-node')
    }
    finally {
      await client.close()
      await served.close()
    }
  })

  it.each(['modern', 'legacy'] as const)('over --http (%s era), a request whose _meta has no traceparent is a SERVER span under its traceparent and tracestate headers; a _meta traceparent wins over them', async (era) => {
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--artifact', snapshot, '--', process.execPath, REPLICA_UPSTREAM], ROOT, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_LOGS_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_BSP_SCHEDULE_DELAY: '50' })
    const headerTrace = era === 'modern' ? 'a1b2c3d4e5f60718293a4b5c6d7e8f90' : 'b1b2c3d4e5f60718293a4b5c6d7e8f90'
    const metaTrace = era === 'modern' ? '0918273645abcdef0918273645abcdef' : '1918273645abcdef0918273645abcdef'
    const client = new Client({ name: 'headers', version: '1' }, { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } })
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { traceparent: `00-${headerTrace}-1111111111111111-01`, tracestate: 'vendor=header' } } }))
    try {
      await client.listTools()
      const plain = JSON.parse(((await client.callTool({ name: 'whoami', arguments: { n: 1 } })).content as { text: string }[])[0]!.text) as { meta: { traceparent?: string, tracestate?: string } }
      await client.callTool({ name: 'whoami', arguments: { n: 2 }, _meta: { traceparent: `00-${metaTrace}-2222222222222222-01` } })
      await expect.poll(() => spans().filter(span => span.kind === 2 && [headerTrace, metaTrace].includes(span.traceId)).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
      const under = (traceId: string, name: string): OtlpSpan | undefined => spans().find(span => span.kind === 2 && span.traceId === traceId && span.name === name)
      expect(under(headerTrace, 'tools/list')?.parentSpanId).toBe('1111111111111111')
      expect(under(headerTrace, 'tools/call whoami')?.parentSpanId).toBe('1111111111111111')
      expect(under(metaTrace, 'tools/call whoami')?.parentSpanId).toBe('2222222222222222')
      expect(plain.meta.traceparent).toMatch(new RegExp(`^00-${headerTrace}-`))
      expect(plain.meta.tracestate).toBe('vendor=header')
    }
    finally {
      await client.close()
      await served.close()
    }
  })

  it('an HTTP upstream receives the trace context as the traceparent header too, the same as in _meta; the resource exported names the host and the process, never its command line or environment', async () => {
    const { url, headers, upstream } = await httpUpstream((server) => {
      server.registerTool('meta', { inputSchema: z.object({ n: z.number() }) }, (_args, ctx) => ({ content: [{ type: 'text', text: JSON.stringify(ctx.mcpReq._meta ?? {}) }] }))
    })
    const before = received.length
    // The README's own example: secrets on the command line and in the environment, none of which a collector may see.
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--auth-token', 'argv-token-secret-1', '--header', 'Authorization: Bearer header-secret-2', url], ROOT, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_LOGS_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_BSP_SCHEDULE_DELAY: '50', SOME_API_KEY: 'env-secret-3' })
    const client = new Client({ name: 'caller', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: 'Bearer argv-token-secret-1' } } }))
    try {
      const result = await client.callTool({ name: 'meta', arguments: { n: '3' } })
      const meta = JSON.parse((result.content as { text: string }[])[0]!.text) as { traceparent?: string }
      expect(meta.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
      expect(headers).toContain(meta.traceparent)
      await expect.poll(() => received.slice(before).some(each => each.path === '/v1/traces'), { timeout: 10_000 }).toBe(true)
      const exported = JSON.stringify(received.slice(before))
      for (const secret of ['argv-token-secret-1', 'header-secret-2', 'env-secret-3', 'process.command_args', 'process.command_line', 'process.executable.path'])
        expect(exported).not.toContain(secret)
      const resource = (received.slice(before).find(each => each.path === '/v1/traces')!.body.resourceSpans[0].resource.attributes as OtlpSpan['attributes']).map(each => each.key)
      expect(resource).toEqual(expect.arrayContaining(['service.name', 'host.name', 'process.pid', 'process.runtime.name']))
    }
    finally {
      await client.close()
      await served.close()
      upstream.close()
    }
  })

  it('a request passed through to an HTTP upstream with a _meta.traceparent no HTTP header can hold is answered, the value left in _meta only', async () => {
    const { url, headers, upstream } = await httpUpstream((server) => {
      server.registerTool('noop', { inputSchema: z.object({}) }, () => ({ content: [] }))
      server.registerResource('note', 'note://one', {}, (uri, ctx) => ({ contents: [{ uri: uri.href, text: JSON.stringify(ctx.mcpReq._meta ?? {}) }] }))
    })
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', url], ROOT, { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_LOGS_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_BSP_SCHEDULE_DELAY: '50' })
    const client = new Client({ name: 'caller', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)))
    try {
      for (const traceparent of ['a\nb', 'a\u2028b']) {
        const read = await client.readResource({ uri: 'note://one', _meta: { traceparent } })
        expect(JSON.parse((read.contents[0] as { text: string }).text).traceparent).toBe(traceparent)
      }
      expect(headers).not.toContain('a')
    }
    finally {
      await client.close()
      await served.close()
      upstream.close()
    }
  })

  it('a caller\'s made-up text is cut to its stated length wherever it is written (audit, debug log, span names and attributes, metrics), and unknown tool names are one metric series', async () => {
    const before = received.length
    const audit = join(scratch, 'long-names.jsonl')
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--audit-log', audit, '--log-level', 'debug', '--artifact', snapshot, '--', process.execPath, REPLICA_UPSTREAM], ROOT, {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_METRIC_EXPORT_INTERVAL: '200',
    })
    const long = (n: number): string => `${n}${'x'.repeat(2 ** 20)}`
    const post = (id: unknown, method: string, params: unknown): Promise<Response> => fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    })
    try {
      for (let n = 0; n < 3; n++)
        expect((await post(long(n).slice(0, 100_000), 'tools/call', { name: long(n), arguments: {} })).status).toBe(200)
      expect((await post(7, 'tools/call', { name: 'whoami', arguments: { n: 1 } })).status).toBe(200)
      await expect.poll(() => existsSync(audit) ? readFileSync(audit, 'utf8').split('\n').filter(Boolean).length : 0).toBe(4)
      const cut = (n: number): string => `${long(n).slice(0, CALLER_TEXT_CHARS)}…`
      expect(readFileSync(audit, 'utf8').split('\n').filter(Boolean).map(line => (JSON.parse(line) as { tool: string }).tool)).toEqual([cut(0), cut(1), cut(2), 'whoami'])
      await expect.poll(() => served.stderr().split('\n').filter(line => line.startsWith('flatmcp proxy: call ')).length).toBe(4)
      for (const line of served.stderr().split('\n'))
        expect(line.length).toBeLessThan(CALLER_TEXT_CHARS + 200)
      await expect.poll(() => received.slice(before).filter(each => each.path === '/v1/traces').flatMap(each => JSON.stringify(each.body).match(/"name":"tools\/call/g) ?? []).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4)
      const points = (): string[] => received.slice(before).filter(each => each.path === '/v1/metrics').flatMap(each => JSON.stringify(each.body).match(/"key":"gen_ai\.tool\.name","value":\{"stringValue":"[^"]*"/g) ?? [])
      await expect.poll(() => new Set(points()).size, { timeout: 10_000 }).toBe(2)
      expect([...new Set(points())].map(point => /"stringValue":"([^"]*)"/.exec(point)![1]).sort()).toEqual([OTHER, 'whoami'])
      // No export holds more than the stated length of anything the caller sent.
      for (const each of received.slice(before))
        expect(JSON.stringify(each.body)).not.toMatch(new RegExp(`x{${CALLER_TEXT_CHARS + 1}}`))
      expect(spans().filter(span => span.kind === 2 && span.name.startsWith('tools/call')).map(span => span.name)).toEqual(expect.arrayContaining(['tools/call', 'tools/call whoami']))
    }
    finally {
      await served.close()
    }
  })

  it('without the environment that asks for it, no OpenTelemetry module loads and nothing is sent', async () => {
    const modules = join(scratch, 'modules-off.log')
    const before = received.length
    const env = Object.fromEntries(Object.keys(process.env).filter(key => key.startsWith('OTEL_')).map(key => [key, '']))
    const served = await startListening(process.execPath, ['--import', join(ROOT, 'test/support/module-log.mjs'), CLI, 'proxy', '--http', '0', '--artifact', snapshot, '--', process.execPath, REPLICA_UPSTREAM], ROOT, { ...env, MODULE_LOG: modules })
    const client = await httpClient(served.url, 'modern')
    try {
      expect(JSON.parse(((await client.callTool({ name: 'whoami', arguments: { n: 1 } })).content as { text: string }[])[0]!.text).n).toBe(1)
    }
    finally {
      await client.close()
      await served.close()
    }
    expect(existsSync(modules) ? readFileSync(modules, 'utf8') : '').toBe('')
    expect(received.length).toBe(before)
    expect(served.stderr()).not.toContain('OpenTelemetry')
  })
})
