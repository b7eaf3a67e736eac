// An OTLP/HTTP JSON receiver on 127.0.0.1 for the telemetry tests: it keeps what is posted to
// /v1/traces and /v1/metrics and reads it back as spans and metric data points.
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:http'
import { expect } from 'vitest'

export interface OtlpAttribute { key: string, value: Record<string, unknown> }
export interface OtlpSpan { traceId: string, spanId: string, parentSpanId?: string, name: string, kind: number, attributes: OtlpAttribute[], status?: { code?: number } }
export interface OtlpPoint { attributes: OtlpAttribute[], explicitBounds?: number[], bucketCounts?: (string | number)[], count?: string | number, asInt?: string | number, asDouble?: number }
export interface OtlpMetric { name: string, unit?: string, points: OtlpPoint[] }

export interface OtlpReceiver {
  endpoint: string
  received: { path: string, body: Record<string, any> }[]
  spans: (from?: number) => OtlpSpan[]
  metrics: (from?: number) => OtlpMetric[]
  close: () => void
}

/** An attribute's value as JSON would hold it (a string, a number, a list of strings). */
export function attribute(attributes: OtlpAttribute[], key: string): unknown {
  const value = attributes.find(each => each.key === key)?.value
  if (value === undefined)
    return undefined
  const list = value.arrayValue as { values?: { stringValue: string }[] } | undefined
  return value.stringValue ?? value.intValue ?? value.boolValue ?? list?.values?.map(each => each.stringValue) ?? (list ? [] : undefined)
}

/** The attributes as one object, for `toMatchObject`. */
export function attributesOf(attributes: OtlpAttribute[]): Record<string, unknown> {
  return Object.fromEntries(attributes.map(each => [each.key, attribute(attributes, each.key)]))
}

export async function otlpReceiver(): Promise<OtlpReceiver> {
  const received: OtlpReceiver['received'] = []
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString()
    })
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text || '{}') as Record<string, any> })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const posted = (path: string, from: number): Record<string, any>[] => received.slice(from).filter(each => each.path === path).map(each => each.body)
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    spans: (from = 0) => posted('/v1/traces', from).flatMap(body => (body.resourceSpans as any[]).flatMap(resource => (resource.scopeSpans as any[]).flatMap(scope => scope.spans as OtlpSpan[]))),
    metrics: (from = 0) => posted('/v1/metrics', from).flatMap(body => (body.resourceMetrics as any[]).flatMap(resource => (resource.scopeMetrics as any[]).flatMap(scope => (scope.metrics as any[]).map(metric => ({
      name: metric.name as string,
      unit: metric.unit as string | undefined,
      points: (metric.histogram ?? metric.sum ?? metric.gauge ?? { dataPoints: [] }).dataPoints as OtlpPoint[],
    }))))),
    close: () => server.close(),
  }
}

/** A metric's data point as a test reads it: its attributes, bucket bounds and count. */
export interface ReadPoint { attributes: Record<string, unknown>, bounds?: number[], count: number }

/** The metric's points posted since `from`, once exported with at least one matching `where` (cumulative: the last export holds every series). */
export async function metricPoints(receiver: OtlpReceiver, from: number, name: string, where: (point: Record<string, unknown>) => boolean = () => true): Promise<ReadPoint[]> {
  const read = (): ReadPoint[] => {
    const metric = receiver.metrics(from).filter(each => each.name === name).at(-1)
    return (metric?.points ?? []).map(point => ({ attributes: attributesOf(point.attributes), ...(point.explicitBounds ? { bounds: point.explicitBounds } : {}), count: Number(point.count ?? point.asInt ?? point.asDouble ?? 0) })).filter(point => where(point.attributes))
  }
  await expect.poll(() => read().length, { timeout: 15_000 }).toBeGreaterThan(0)
  return read()
}

/** The OTEL_ environment that sends a proxy's telemetry to `endpoint` at once (JSON, short intervals). */
export function otlpEnv(endpoint: string): Record<string, string> {
  return { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_LOGS_EXPORTER: 'none', OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_METRIC_EXPORT_INTERVAL: '200' }
}
