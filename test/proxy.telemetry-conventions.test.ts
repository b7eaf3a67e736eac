// Telemetry by the OpenTelemetry semantic conventions for MCP, read back from an OTLP receiver the
// test runs: `flatmcp proxy` over stdio and a `--config` gateway over HTTP serving the search
// surface. Span names and attributes on the SERVER and CLIENT spans, the caller's traceparent as
// parent, one `error.type` in spans and metrics (the JSON-RPC code, `tool_error`), the duration
// histograms' bucket boundaries in seconds, and repair marks that name only what changed in the
// called tool's own arguments (a call through call_tool included). docs/proxy.md lists every name.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ATTRIBUTES, DURATION_BOUNDARIES, EXECUTE_TOOL, METRICS, OTHER, TOOL_ERROR } from '../packages/runtime/src/telemetry/conventions'
import { ROOT } from './support/client'
import type { OtlpReceiver, OtlpSpan } from './support/otlp-receiver'
import { attribute, attributesOf, metricPoints, otlpEnv, otlpReceiver } from './support/otlp-receiver'
import { CLI, freePort, httpClient, startListening } from './support/proxy'

const NAMED = join(ROOT, 'test/support/named-upstream.mjs')
const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-otel-conventions-'))
let receiver: OtlpReceiver
beforeAll(async () => {
  receiver = await otlpReceiver()
})
afterAll(() => {
  receiver.close()
  rmSync(scratch, { recursive: true, force: true })
})

const SERVER = 2
const CLIENT = 3
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const traceparent = (span: string): string => `00-${TRACE}-${span}-01`
const VERSION = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)

/** The metric's points, once exported. */
const points = (from: number, name: string, where?: (point: Record<string, unknown>) => boolean): ReturnType<typeof metricPoints> => metricPoints(receiver, from, name, where)

describe('telemetry by the OpenTelemetry MCP conventions', () => {
  it('over stdio: SERVER and CLIENT spans with the conventions\' attributes under the caller\'s traceparent; a protocol error is its JSON-RPC code in spans and metrics alike; durations in seconds with the conventions\' buckets', async () => {
    const from = receiver.received.length
    const client = new Client({ name: 'otel-test', version: '1' })
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--', process.execPath, NAMED], cwd: ROOT, env: { ...process.env as Record<string, string>, ...otlpEnv(receiver.endpoint), TOOLS: '["whoami"]', LABEL: 'one' }, stderr: 'pipe' })
    await client.connect(transport)
    try {
      await client.callTool({ name: 'whoami', arguments: { n: 2 }, _meta: { traceparent: traceparent('00f067aa0ba902b7') } })
      await client.callTool({ name: 'whoami', arguments: { n: '3' }, _meta: { traceparent: traceparent('00f067aa0ba902b8') } })
      await expect(client.callTool({ name: 'no_such_tool', arguments: {}, _meta: { traceparent: traceparent('00f067aa0ba902b9') } })).rejects.toThrow()
      await expect.poll(() => receiver.spans(from).filter(span => span.traceId === TRACE).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(5)
      const spans = receiver.spans(from).filter(span => span.traceId === TRACE)
      const server = (parent: string): OtlpSpan => spans.find(span => span.kind === SERVER && span.parentSpanId === parent)!
      const exact = server('00f067aa0ba902b7')
      expect(exact.name).toBe('tools/call whoami')
      expect(attributesOf(exact.attributes)).toMatchObject({
        [ATTRIBUTES.method.key]: 'tools/call',
        [ATTRIBUTES.tool.key]: 'whoami',
        [ATTRIBUTES.operation.key]: EXECUTE_TOOL,
        [ATTRIBUTES.transport.key]: 'pipe',
        [ATTRIBUTES.protocolVersion.key]: VERSION,
        [ATTRIBUTES.requestId.key]: expect.any(String),
        [ATTRIBUTES.upstream.key]: 'named-one',
        [ATTRIBUTES.repair.key]: [],
      })
      expect(attribute(exact.attributes, ATTRIBUTES.errorType.key)).toBeUndefined()
      expect(attribute(server('00f067aa0ba902b8').attributes, ATTRIBUTES.repair.key)).toEqual(['/n'])
      // The CLIENT span toward the upstream: the SERVER span's child, the same conventions.
      const upstream = spans.find(span => span.kind === CLIENT && span.parentSpanId === exact.spanId)!
      expect(upstream.name).toBe('tools/call whoami')
      expect(attributesOf(upstream.attributes)).toMatchObject({ [ATTRIBUTES.method.key]: 'tools/call', [ATTRIBUTES.tool.key]: 'whoami', [ATTRIBUTES.operation.key]: EXECUTE_TOOL, [ATTRIBUTES.transport.key]: 'pipe', [ATTRIBUTES.upstream.key]: 'named-one' })
      // A name no tool has: the JSON-RPC error's code, as error.type and rpc.response.status_code.
      const unknown = server('00f067aa0ba902b9')
      expect(unknown.name).toBe('tools/call')
      expect(unknown.status?.code).toBe(2)
      expect(attributesOf(unknown.attributes)).toMatchObject({ [ATTRIBUTES.errorType.key]: '-32602', [ATTRIBUTES.statusCode.key]: '-32602' })
      const calls = (): ReturnType<typeof points> => points(from, METRICS.serverDuration.name, point => point[ATTRIBUTES.method.key] === 'tools/call')
      await expect.poll(async () => (await calls()).map(point => point.attributes), { timeout: 15_000 }).toEqual(expect.arrayContaining([
        expect.objectContaining({ [ATTRIBUTES.tool.key]: 'whoami', [ATTRIBUTES.operation.key]: EXECUTE_TOOL, [ATTRIBUTES.transport.key]: 'pipe', [ATTRIBUTES.protocolVersion.key]: VERSION }),
        expect.objectContaining({ [ATTRIBUTES.tool.key]: OTHER, [ATTRIBUTES.errorType.key]: '-32602', [ATTRIBUTES.statusCode.key]: '-32602' }),
      ]))
      const durations = await calls()
      for (const point of durations)
        expect(point.bounds).toEqual([...DURATION_BOUNDARIES])
      expect(durations.find(point => point.attributes[ATTRIBUTES.tool.key] === 'whoami')!.count).toBe(2)
      const sent = await points(from, METRICS.clientDuration.name)
      // The name no tool has went upstream too (the upstream's list may have grown): one series, its error's code.
      expect(sent.map(point => [point.attributes[ATTRIBUTES.tool.key], point.attributes[ATTRIBUTES.errorType.key], point.bounds, point.count])).toEqual([['whoami', undefined, [...DURATION_BOUNDARIES], 2], [OTHER, '-32602', [...DURATION_BOUNDARIES], 1]])
      const repairs = await points(from, METRICS.repairs.name)
      expect(repairs.map(point => [point.attributes[ATTRIBUTES.tool.key], point.count])).toEqual([['whoami', 1]])
    }
    finally {
      await client.close()
    }
  })

  it('a --config gateway over HTTP serving the search surface: a call through call_tool is the called tool\'s span, repaired only where its own arguments were (audit, span, counter alike); a tool error is tool_error in spans and metrics alike', async () => {
    const from = receiver.received.length
    const config = join(scratch, 'servers.json')
    writeFileSync(config, JSON.stringify({ mcpServers: {
      a: { command: process.execPath, args: [NAMED], env: { TOOLS: '["whoami"]', LABEL: 'a' } },
      b: { command: process.execPath, args: [NAMED], env: { TOOLS: '["other"]', LABEL: 'b' } },
    } }))
    const audit = join(scratch, 'audit.jsonl')
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--config', config, '--surface', 'search', '--audit-log', audit], ROOT, otlpEnv(receiver.endpoint))
    const client = await httpClient(served.url)
    try {
      await expect.poll(async () => JSON.stringify(await client.callTool({ name: 'find_tools', arguments: { query: 'whoami' } })), { timeout: 30_000 }).toContain('a__whoami')
      await client.callTool({ name: 'call_tool', arguments: { name: 'a__whoami', arguments: { n: 2 } }, _meta: { traceparent: traceparent('00f067aa0ba902c1') } })
      await client.callTool({ name: 'call_tool', arguments: { name: 'a__whoami', arguments: { n: '2' } }, _meta: { traceparent: traceparent('00f067aa0ba902c2') } })
      expect((await client.callTool({ name: 'call_tool', arguments: { name: 'no_such_tool', arguments: {} }, _meta: { traceparent: traceparent('00f067aa0ba902c3') } })).isError).toBe(true)
      await expect.poll(() => receiver.spans(from).filter(span => span.traceId === TRACE && span.kind === SERVER).length, { timeout: 15_000 }).toBe(3)
      const server = (parent: string): OtlpSpan => receiver.spans(from).find(span => span.kind === SERVER && span.parentSpanId === parent)!
      const exact = server('00f067aa0ba902c1')
      expect(exact.name).toBe('tools/call a__whoami')
      expect(attributesOf(exact.attributes)).toMatchObject({ [ATTRIBUTES.tool.key]: 'a__whoami', [ATTRIBUTES.upstream.key]: 'a', [ATTRIBUTES.transport.key]: 'tcp', [ATTRIBUTES.protocolVersion.key]: VERSION, [ATTRIBUTES.repair.key]: [] })
      expect(attribute(server('00f067aa0ba902c2').attributes, ATTRIBUTES.repair.key)).toEqual(['/n'])
      const failed = server('00f067aa0ba902c3')
      expect(attributesOf(failed.attributes)).toMatchObject({ [ATTRIBUTES.errorType.key]: TOOL_ERROR })
      expect(failed.status?.code).toBe(2)
      expect(readFileSync(audit, 'utf8').trim().split('\n').map(line => JSON.parse(line) as { tool: string, repaired: string[] }).map(({ tool, repaired }) => [tool, repaired])).toEqual([
        ['find_tools', []],
        ['a__whoami', []],
        ['a__whoami', ['/n']],
        ['no_such_tool', []],
      ])
      const calls = await points(from, METRICS.calls.name, point => point[ATTRIBUTES.errorType.key] === TOOL_ERROR)
      expect(calls.map(point => [point.attributes[ATTRIBUTES.tool.key], point.attributes[ATTRIBUTES.outcome.key], point.count])).toEqual([[OTHER, 'tool-error', 1]])
      expect((await points(from, METRICS.serverDuration.name, point => point[ATTRIBUTES.errorType.key] === TOOL_ERROR)).length).toBe(1)
      const repairs = await points(from, METRICS.repairs.name)
      expect(repairs.map(point => [point.attributes[ATTRIBUTES.tool.key], point.attributes[ATTRIBUTES.upstream.key], point.count])).toEqual([['a__whoami', 'a', 1]])
      // find_tools is a tool the proxy has: its calls are its own series, not `_OTHER`.
      expect((await points(from, METRICS.calls.name, point => point[ATTRIBUTES.tool.key] === 'find_tools')).length).toBe(1)
    }
    finally {
      await client.close()
      await served.close()
    }
  })

  it('docs/proxy.md names every attribute and metric of the table, and the bucket boundaries', () => {
    const docs = readFileSync(join(ROOT, 'docs/proxy.md'), 'utf8')
    const section = docs.slice(docs.indexOf('## OpenTelemetry'), docs.indexOf('\n## ', docs.indexOf('## OpenTelemetry') + 3))
    for (const { key } of Object.values(ATTRIBUTES))
      expect(section).toContain(`\`${key}\``)
    for (const { name } of Object.values(METRICS))
      expect(section).toContain(`\`${name}\``)
    expect(section).toContain(DURATION_BOUNDARIES.join(', '))
  })
})

describe('Prometheus', () => {
  // An address of this machine's beyond loopback, where it has one: what another host would reach.
  const outside = Object.values(networkInterfaces()).flat().find(address => address !== undefined && !address.internal && address.family === 'IPv4')?.address
  it.skipIf(outside === undefined)('the metrics are served where the proxy listens (loopback by default), not on every interface', async () => {
    const port = await freePort()
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--', process.execPath, NAMED], ROOT, { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: String(port), OTEL_TRACES_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none', TOOLS: '["whoami"]' })
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200)
      await expect(fetch(`http://${outside}:${port}/metrics`)).rejects.toThrow()
    }
    finally {
      await served.close()
    }
  })

  it('OTEL_METRICS_EXPORTER=prometheus serves the metrics by the names docs/proxy.md gives, the histogram\'s buckets the conventions\' boundaries', async () => {
    const port = await freePort()
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--', process.execPath, NAMED], ROOT, { OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: String(port), OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1', OTEL_TRACES_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none', TOOLS: '["whoami"]' })
    const client = await httpClient(served.url)
    try {
      // The start-up line says where the metrics are served, and no exporter that is off.
      expect(served.stderr().split('\n')).toContain(`flatmcp proxy: OpenTelemetry on (metrics on 127.0.0.1:${port}/metrics): metrics of calls, errors, durations and repairs`)
      await client.callTool({ name: 'whoami', arguments: { n: '1' } })
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
      const docs = readFileSync(join(ROOT, 'docs/proxy.md'), 'utf8')
      // Each metric of the table by the exporter's name for it: dots as underscores, a counter's ending in _total.
      for (const name of Object.values(METRICS).map(metric => `${metric.name.replaceAll('.', '_')}${metric.instrument === 'counter' ? '_total' : ''}`)) {
        expect(text).toMatch(new RegExp(`^${name}(_bucket|_count|_sum)?\\{`, 'm'))
        expect(docs).toContain(`\`${name}\``)
      }
      // The docs' scrape config names the exporter's default port, which this proxy would serve without OTEL_EXPORTER_PROMETHEUS_PORT.
      const scrape = /```yaml\n(scrape_configs:[\s\S]*?)```/.exec(docs)![1]!
      expect(scrape).toContain(':9464')
      expect(docs).toContain('on port 9464 at\n`/metrics`')
      const bounds = [...text.matchAll(/^mcp_server_operation_duration_bucket\{[^}]*gen_ai_tool_name="whoami"[^}]*le="([^"]+)"/gm)].map(match => match[1])
      expect(bounds).toEqual([...DURATION_BOUNDARIES.map(String), '+Inf'])
    }
    finally {
      await client.close()
      await served.close()
    }
  })
})
