// The part of OpenTelemetry's API (`@opentelemetry/api`) the runtime calls, described here so that
// nothing imports it: the operator's set-up hands the module in, or nothing of it loads.

/** The part of `@opentelemetry/api` used here (its own module object fits; methods, so its own types for a context pass). */
export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): Tracer
    setSpan(context: unknown, span: Span): unknown
    getActiveSpan(): Span | undefined
    getSpan(context: unknown): Span | undefined
  }
  context: {
    active(): unknown
    with<T>(context: unknown, fn: () => T): T
  }
  propagation: {
    inject(context: unknown, carrier: Record<string, unknown>): void
    extract(context: unknown, carrier: Record<string, unknown>): unknown
  }
  metrics: { getMeter(name: string, version?: string): Meter }
}
export interface Span {
  setAttribute(key: string, value: string | number | boolean | string[]): unknown
  setStatus(status: { code: number, message?: string }): unknown
  updateName(name: string): unknown
  /** False for a span the sampler dropped: nothing set on it is kept. */
  isRecording(): boolean
  end(): void
}
interface Tracer { startSpan(name: string, options: { kind: number, attributes?: Record<string, string | number | boolean> }, context?: unknown): Span }
interface Meter {
  /** `advice.explicitBucketBoundaries`: the API's since 1.7, which an SDK without it ignores. */
  createHistogram(name: string, options: { unit?: string, description?: string, advice?: { explicitBucketBoundaries?: number[] } }): { record(value: number, attributes?: Record<string, string>): void }
  createCounter(name: string, options: { unit?: string, description?: string }): { add(value: number, attributes?: Record<string, string>): void }
}
