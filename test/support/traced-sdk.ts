// OpenTelemetry's Node SDK started for a test file: every span kept in memory (exported as it ends),
// no metrics or logs exported, and the API it registered.
import type * as OpenTelemetry from '@opentelemetry/api'
import type { ContextManager } from '@opentelemetry/api'
import { NodeSDK } from '@opentelemetry/sdk-node'
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

export interface TracedSdk { exporter: InMemorySpanExporter, api: typeof OpenTelemetry, shutdown: () => Promise<void> }

/** Started with the SDK's own context manager, or the one `manager` makes from the API's root context. */
export async function tracedSdk(manager?: (root: OpenTelemetry.Context) => ContextManager): Promise<TracedSdk> {
  process.env.OTEL_METRICS_EXPORTER = 'none'
  process.env.OTEL_LOGS_EXPORTER = 'none'
  const api = await import('@opentelemetry/api')
  const exporter = new InMemorySpanExporter()
  const sdk = new NodeSDK({ spanProcessors: [new SimpleSpanProcessor(exporter)], instrumentations: [], ...(manager ? { contextManager: manager(api.ROOT_CONTEXT) } : {}) })
  sdk.start()
  return { exporter, api, shutdown: () => sdk.shutdown() }
}
