// OpenTelemetry for the proxy, configured by its standard environment (OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER, OTEL_SERVICE_NAME, …):
// the official Node SDK (an optional dependency) started only where that environment asks for it,
// so a proxy without it loads no OpenTelemetry module at all. What it exports never holds the proxy's
// command line or environment: the SDK's process detector (which sends argv) is replaced.
import type { OtelApi } from '@flatmcp/runtime/server'
import type * as SdkNode from '@opentelemetry/sdk-node'
import { callContextManager } from './context-manager'

/** Whether the environment asks for OpenTelemetry: an OTLP endpoint, or a traces or metrics exporter other than `none`. */
export function telemetryConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true')
    return false
  const asked = (value: string | undefined): boolean => value !== undefined && value !== '' && value !== 'none'
  return asked(env.OTEL_EXPORTER_OTLP_ENDPOINT) || asked(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) || asked(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) || asked(env.OTEL_TRACES_EXPORTER) || asked(env.OTEL_METRICS_EXPORTER)
}

/** A signal's exporters as the SDK reads them (`otlp` where unset); none where the list holds `none`. */
function exportersOf(value: string | undefined): string[] {
  const named = (value ?? '').split(',').map(name => name.trim()).filter(Boolean)
  return named.includes('none') ? [] : named.length > 0 ? named : ['otlp']
}

/**
 * Where the SDK sends what the proxy records, as its start-up line says it: an OTLP endpoint's origin
 * only (its path or query may carry what a log should not), Prometheus' host, port and path, and
 * what it records, by the signals that are on.
 */
export function telemetryDestinations(env: NodeJS.ProcessEnv): { where: string, what: string } {
  const otlp = (signal: 'TRACES' | 'METRICS'): string => {
    const endpoint = env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`] || env.OTEL_EXPORTER_OTLP_ENDPOINT
    return endpoint ? URL.parse(endpoint)?.origin ?? 'an OTLP endpoint' : 'OTLP at the SDK\'s default endpoint'
  }
  const traces = exportersOf(env.OTEL_TRACES_EXPORTER)
  const metrics = exportersOf(env.OTEL_METRICS_EXPORTER)
  const where = new Set([
    ...traces.map(name => name === 'otlp' ? otlp('TRACES') : `traces to ${name}`),
    ...metrics.map(name => name === 'otlp' ? otlp('METRICS') : name === 'prometheus' ? `metrics on ${env.OTEL_EXPORTER_PROMETHEUS_HOST ?? ''}:${env.OTEL_EXPORTER_PROMETHEUS_PORT || 9464}/metrics` : `metrics to ${name}`),
  ])
  const what = [...(traces.length > 0 ? ['a span per request'] : []), ...(metrics.length > 0 ? ['metrics of calls, errors, durations and repairs'] : [])]
  return { where: where.size > 0 ? [...where].join(', ') : 'no exporter', what: what.length > 0 ? what.join(', ') : 'nothing exported' }
}

type Resources = typeof SdkNode['resources']
type Detector = Resources['hostDetector']

/** The process as a resource says it, without its command line (the proxy's holds tokens and headers) or its environment. */
const processWithoutArgs: Detector = {
  detect: () => ({ attributes: { 'process.pid': process.pid, 'process.runtime.name': 'nodejs', 'process.runtime.version': process.versions.node, 'process.runtime.description': 'Node.js' } }),
}

/**
 * The SDK's resource detectors by their OTEL_NODE_RESOURCE_DETECTORS names, `process` replaced by
 * one that leaves out the command line: default, the SDK's own choice (env, process, host).
 */
export function resourceDetectors(resources: Resources, env: NodeJS.ProcessEnv): Detector[] {
  const named: Record<string, Detector> = { env: resources.envDetector, process: processWithoutArgs, host: resources.hostDetector, os: resources.osDetector, serviceinstance: resources.serviceInstanceIdDetector }
  const asked = (env.OTEL_NODE_RESOURCE_DETECTORS ?? '').split(',').map(name => name.trim()).filter(Boolean)
  if (asked.length === 0)
    return [named.env!, named.process!, named.host!]
  if (asked.includes('none'))
    return []
  return asked.includes('all') ? Object.values(named) : asked.flatMap(name => named[name] ?? [])
}

export interface Telemetry {
  api: OtelApi
  /** Exports what is held and stops the SDK. */
  shutdown: () => Promise<void>
}

/** The variable the SDK's Prometheus exporter reads its address from. */
const PROMETHEUS_HOST = 'OTEL_EXPORTER_PROMETHEUS_HOST'

/**
 * `make()` with the Prometheus exporter's address `host` (where the proxy listens) unless the
 * environment names one: the exporter's own default is every interface, which would serve the tools'
 * names and traffic to any host that reaches the machine, the proxy itself on loopback. The exporter
 * reads the variable as the SDK is made; the servers the proxy starts never see it.
 */
function withPrometheusHost<T>(host: string, make: () => T): T {
  if (process.env[PROMETHEUS_HOST] !== undefined && process.env[PROMETHEUS_HOST] !== '')
    return make()
  process.env[PROMETHEUS_HOST] = host
  try {
    return make()
  }
  finally {
    delete process.env[PROMETHEUS_HOST]
  }
}

/** The SDK started as the environment says (its Prometheus metrics served at `host`, where unset), and the API that reaches it; none where it is not asked for (or cannot load, said). */
export async function startTelemetry(log: (line: string) => void, env: NodeJS.ProcessEnv = process.env, host = '127.0.0.1'): Promise<Telemetry | undefined> {
  if (!telemetryConfigured(env))
    return undefined
  try {
    const { NodeSDK, resources } = await import('@opentelemetry/sdk-node')
    const api = await import('@opentelemetry/api')
    // OTEL_SERVICE_NAME names the service where it is set; else the proxy does.
    const sdk = withPrometheusHost(host, () => new NodeSDK({ ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: 'flatmcp-proxy' }), instrumentations: [], contextManager: callContextManager(api.ROOT_CONTEXT), resourceDetectors: resourceDetectors(resources, env) }))
    sdk.start()
    const { where, what } = telemetryDestinations(env)
    log(`flatmcp proxy: OpenTelemetry on (${where}): ${what}`)
    return { api: api as unknown as OtelApi, shutdown: () => sdk.shutdown() }
  }
  catch (error) {
    log(`flatmcp proxy: OpenTelemetry is asked for (OTEL_…), but its packages could not load (${(error as Error).message.split('\n')[0]}); serving without it. They are optional dependencies of flatmcp: install @opentelemetry/api and @opentelemetry/sdk-node`)
    return undefined
  }
}
