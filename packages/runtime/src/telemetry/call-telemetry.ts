// OpenTelemetry for tool calls, through the API object the operator's set-up hands in (never
// imported here: without it nothing of OpenTelemetry loads). A SERVER span per request named and
// attributed as the semantic conventions for MCP say (conventions.ts), flatmcp's own attributes
// beside them (the profile, the upstream, the JSON paths the repair changed: never a value), a
// CLIENT span per call sent upstream with the W3C trace context in its `_meta`, a caller's
// `_meta.traceparent` taken as the parent; the conventions' duration histograms (their bucket
// boundaries, in seconds) and counters of calls and repairs. What the caller made up (a method, a
// tool name, an id) is cut to CALLER_TEXT_CHARS, and a tool name no tool has (or a version no MCP
// revision has) is one metric series (`_OTHER`), not one per name.
import type { ObservedCall } from '../service/options'
import type { OtelApi, Span } from './otel-api'
import type { Failure } from './conventions'
import { callerText } from '../util/caller-text'
import { defineOwn } from '../util/object'
import { ATTRIBUTES as A, DURATION_BOUNDARIES, errorType, EXECUTE_TOOL, KNOWN_METHODS, KNOWN_VERSIONS, METRICS, OTHER, TOOL_ERROR } from './conventions'

export type { OtelApi } from './otel-api'

/** The API's SpanKind and SpanStatusCode values (stable across its versions). */
const KIND = { server: 1, client: 2 } as const
const ERROR = 2

/** What a request is known by as it comes: its method, and for a tools/call its tool. */
export interface IncomingRequest {
  method: string
  tool?: string
  requestId: string | number
  transport: 'pipe' | 'tcp'
  meta?: Record<string, unknown>
  sessionId?: string
  protocolVersion?: string
}

/** What the telemetry reads of a call `onCall` hears. */
export type FinishedCall = Pick<ObservedCall, 'tool' | 'outcome' | 'repaired' | 'profile' | 'view'>

/** How a call upstream goes, where known. */
export interface UpstreamWay {
  transport?: 'pipe' | 'tcp'
}

export interface CallTelemetry {
  /**
   * Runs `call` inside a SERVER span for the request (its parent the caller's `_meta.traceparent`,
   * where sent), timed. `call` is handed the context that holds the span (its `trace`): what
   * `finish` and `upstream` take, so neither needs the active context to have followed the call.
   */
  serve: <T>(incoming: IncomingRequest, call: (trace: unknown) => Promise<T>) => Promise<T>
  /** Completes the record of a call (the SERVER span's attributes, the metrics) with what `onCall` hears, and what it threw; `trace`, the request's (else the active context's). */
  finish: (call: FinishedCall, reached?: boolean, error?: unknown, trace?: unknown) => void
  /** A CLIENT span for a call sent upstream (a child of `trace`'s span, else of the active one), and the `_meta` that carries its trace context; `end` is told how it failed (`errorType`'s names). */
  upstream: (tool: string, meta: Record<string, unknown> | undefined, way?: UpstreamWay, trace?: unknown) => { meta: Record<string, unknown>, end: (failure?: Failure) => void }
}

/** The telemetry of an API object with no upstream to name (a server's own tools): made once per API, its instruments with it. */
const made = new WeakMap<object, CallTelemetry>()
export function serverTelemetry(api: OtelApi): CallTelemetry {
  let telemetry = made.get(api)
  if (!telemetry) {
    telemetry = callTelemetry(api)
    made.set(api, telemetry)
  }
  return telemetry
}

/** What `finish` tells the request's `serve` of a tools/call: whether it reached a tool, and how it failed; `named`, the tool attributes its SERVER span was started with. */
interface Heard { reached: boolean, tool?: string, failure?: Failure, sent?: { seconds: number, attributes: Attributes }, named?: Attributes }

type Attributes = Record<string, string>

const failed = (span: Span, failure: Failure | undefined): void => {
  if (!failure)
    return
  span.setAttribute(A.errorType.key, failure.type)
  if (failure.code !== undefined)
    span.setAttribute(A.statusCode.key, failure.code)
  span.setStatus({ code: ERROR })
}

const failureAttributes = (failure: Failure | undefined): Attributes => failure ? { [A.errorType.key]: failure.type, ...(failure.code === undefined ? {} : { [A.statusCode.key]: failure.code }) } : {}

/**
 * The SERVER span a call belongs to: the one in the `trace` its request was served with, else the
 * active one (and where an API object made by hand has no `getSpan`: it must not throw mid-call).
 */
const spanOf = (api: OtelApi, trace: unknown): Span | undefined => trace !== undefined && typeof api.trace.getSpan === 'function' ? api.trace.getSpan(trace) : api.trace.getActiveSpan()

/** A name no tool has, as a metric names it: one series (`_OTHER`), whatever the caller made up. */
const NO_TOOL: Attributes = Object.freeze({ [A.tool.key]: OTHER, [A.operation.key]: EXECUTE_TOOL })

type Histogram = ReturnType<ReturnType<OtelApi['metrics']['getMeter']>['createHistogram']>
type Counter = ReturnType<ReturnType<OtelApi['metrics']['getMeter']>['createCounter']>

/** What the hooks share: the API, its tracer and instruments (made once), what each SERVER span has heard, and a tool's own attributes. */
interface Kit {
  api: OtelApi
  tracer: ReturnType<OtelApi['trace']['getTracer']>
  serverDuration: Histogram
  clientDuration: Histogram
  calls: Counter
  repairs: Counter
  heard: WeakMap<Span, Heard>
  /** A tool's own attributes (its name, the operation, its upstream): the same for each of its calls. */
  toolAttributes: (tool: string | undefined) => Attributes
}

function kitOf(api: OtelApi, upstreamOf?: (tool: string) => string | undefined): Kit {
  const meter = api.metrics.getMeter('flatmcp')
  const histogram = (metric: typeof METRICS.serverDuration | typeof METRICS.clientDuration): Histogram => meter.createHistogram(metric.name, { unit: metric.unit, description: metric.description, advice: { explicitBucketBoundaries: [...DURATION_BOUNDARIES] } })
  const counter = (metric: typeof METRICS.calls | typeof METRICS.repairs): Counter => meter.createCounter(metric.name, { unit: metric.unit, description: metric.description })
  return {
    api,
    tracer: api.trace.getTracer('flatmcp'),
    serverDuration: histogram(METRICS.serverDuration),
    clientDuration: histogram(METRICS.clientDuration),
    calls: counter(METRICS.calls),
    repairs: counter(METRICS.repairs),
    heard: new WeakMap(),
    toolAttributes: toolAttributesOf(upstreamOf),
  }
}

const NO_ATTRIBUTES: Attributes = Object.freeze({})

/**
 * A tool's own attributes, built once per tool and upstream (not per call), at most 4,096 tools
 * kept. Its upstream is asked each time: a gateway learns a tool's server when that server lists
 * it, after a call may have named it.
 */
function toolAttributesOf(upstreamOf: ((tool: string) => string | undefined) | undefined): Kit['toolAttributes'] {
  const made = new Map<string, Attributes>()
  return (tool) => {
    if (tool === undefined)
      return NO_ATTRIBUTES
    const upstream = upstreamOf?.(tool)
    let attributes = made.get(tool)
    if (!attributes || attributes[A.upstream.key] !== upstream) {
      if (made.size >= 4096)
        made.clear()
      attributes = Object.freeze({ [A.tool.key]: tool, [A.operation.key]: EXECUTE_TOOL, ...(upstream === undefined ? {} : { [A.upstream.key]: upstream }) })
      made.set(tool, attributes)
    }
    return attributes
  }
}

/** A request's SERVER span, started under the caller's `_meta.traceparent` where sent; each piece of the caller's text cut to its stated length. */
function serverSpan(kit: Kit, incoming: IncomingRequest, tool: string | undefined, version: string | undefined): { span: Span, parent: unknown, named: Attributes } {
  const { api } = kit
  const parent = incoming.meta && typeof incoming.meta.traceparent === 'string' ? api.propagation.extract(api.context.active(), incoming.meta) : api.context.active()
  const method = callerText(incoming.method)
  const named = kit.toolAttributes(tool)
  const span = kit.tracer.startSpan(tool === undefined ? method : `${method} ${tool}`, {
    kind: KIND.server,
    attributes: {
      [A.method.key]: method,
      ...named,
      [A.requestId.key]: callerText(incoming.requestId),
      [A.transport.key]: incoming.transport,
      ...(incoming.sessionId === undefined ? {} : { [A.session.key]: callerText(incoming.sessionId) }),
      ...(version === undefined ? {} : { [A.protocolVersion.key]: version }),
    },
  }, parent)
  return { span, parent, named }
}

/** Runs `call` inside a SERVER span for the request, and measures it (and the call it sent upstream) once it is known whether its name is a tool's. */
async function serve<T>(kit: Kit, incoming: IncomingRequest, call: (trace: unknown) => Promise<T>): Promise<T> {
  const started = performance.now()
  const tool = incoming.tool === undefined ? undefined : callerText(incoming.tool)
  const version = incoming.protocolVersion === undefined ? undefined : callerText(incoming.protocolVersion)
  const { span, parent, named: opened } = serverSpan(kit, incoming, tool, version)
  const told: Heard = { reached: false, ...(tool === undefined ? {} : { named: opened }) }
  kit.heard.set(span, told)
  let failure: Failure | undefined
  try {
    const trace = kit.api.trace.setSpan(parent, span)
    return await kit.api.context.with(trace, () => call(trace))
  }
  catch (error) {
    failure = errorType(error)
    throw error
  }
  finally {
    failure ??= told.failure
    failed(span, failure)
    span.end()
    // A name no tool has (and a method no MCP version has) is one series, whatever the caller made up.
    const named = tool === undefined ? {} : told.reached ? kit.toolAttributes(told.tool ?? tool) : NO_TOOL
    if (told.sent)
      kit.clientDuration.record(told.sent.seconds, { ...told.sent.attributes, ...named })
    kit.serverDuration.record((performance.now() - started) / 1000, {
      [A.method.key]: KNOWN_METHODS.has(incoming.method) ? incoming.method : OTHER,
      ...named,
      [A.transport.key]: incoming.transport,
      ...(version === undefined ? {} : { [A.protocolVersion.key]: KNOWN_VERSIONS.has(version) ? version : OTHER }),
      ...failureAttributes(failure),
    })
  }
}

/** A call's record completed: counted, and its SERVER span (`trace`'s, else the active one) told the tool reached, the profile and view it was read in, the repair's paths. */
function finish(kit: Kit, call: FinishedCall, reached = true, error?: unknown, trace?: unknown): void {
  const failure = call.outcome === 'ok' ? undefined : call.outcome === 'tool-error' ? { type: TOOL_ERROR } : errorType(error)
  const tool = reached ? kit.toolAttributes(call.tool) : NO_TOOL
  const attributes = { [A.method.key]: 'tools/call', ...tool, ...failureAttributes(failure) }
  kit.calls.add(1, { ...attributes, [A.outcome.key]: call.outcome })
  if (call.repaired.length > 0)
    kit.repairs.add(1, attributes)
  const span = spanOf(kit.api, trace)
  if (!span)
    return
  const record = kit.heard.get(span)
  if (record)
    Object.assign(record, { reached, tool: call.tool, failure })
  // A span the sampler dropped keeps nothing: no work is spent on it.
  if (!span.isRecording())
    return
  // Named for the tool reached: through call_tool, the one it named (a span started with that tool's attributes, its upstream the same, has them already).
  if (!reached) {
    span.updateName('tools/call')
  }
  else if (record?.named !== tool) {
    span.updateName(`tools/call ${call.tool}`)
    for (const [key, value] of Object.entries(tool))
      span.setAttribute(key, value)
  }
  if (call.profile !== undefined)
    span.setAttribute(A.profile.key, call.profile)
  if (call.view !== undefined)
    span.setAttribute(A.view.key, call.view)
  span.setAttribute(A.repair.key, call.repaired)
}

/**
 * The caller's `_meta` without its trace context, key by key: a spread copy with keys deleted (or
 * added) after it took 1.7 µs to make and write out, against 0.8 (hot), on every traced call.
 */
function withoutTraceContext(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const carried: Record<string, unknown> = {}
  for (const key in meta) {
    if (key === 'traceparent' || key === 'tracestate' || !Object.hasOwn(meta, key))
      continue
    // A `__proto__` of its own (JSON text may have one) stays a key, as a spread copy keeps it.
    if (key === '__proto__')
      defineOwn(carried, key, meta[key])
    else
      carried[key] = meta[key]
  }
  return carried
}

/** A CLIENT span for a call sent upstream, its trace context in the `_meta` it gives; measured by the request's SERVER span, which learns whether the name is a tool's. */
function upstream(kit: Kit, tool: string, meta: Record<string, unknown> | undefined, way: UpstreamWay = {}, trace?: unknown): ReturnType<CallTelemetry['upstream']> {
  const { api } = kit
  const parent = trace ?? api.context.active()
  const started = performance.now()
  const name = callerText(tool)
  const transport: Attributes = way.transport === undefined ? {} : { [A.transport.key]: way.transport }
  const span = kit.tracer.startSpan(`tools/call ${name}`, { kind: KIND.client, attributes: { [A.method.key]: 'tools/call', ...kit.toolAttributes(name), ...transport } }, parent)
  const carried = withoutTraceContext(meta)
  api.propagation.inject(api.trace.setSpan(parent, span), carried)
  return {
    meta: carried,
    end: (failure) => {
      failed(span, failure)
      span.end()
      const seconds = (performance.now() - started) / 1000
      const measured = { [A.method.key]: 'tools/call', ...transport, ...failureAttributes(failure) }
      const server = spanOf(api, parent)
      const record = server && kit.heard.get(server)
      // A caller's made-up name is no series.
      if (record)
        record.sent = { seconds, attributes: measured }
      else
        kit.clientDuration.record(seconds, { ...measured, ...NO_TOOL })
    },
  }
}

/** Tool calls traced and measured through `api`; `upstreamOf` names the upstream a tool goes to (a proxy's). */
export function callTelemetry(api: OtelApi, upstreamOf?: (tool: string) => string | undefined): CallTelemetry {
  const kit = kitOf(api, upstreamOf)
  return {
    serve: (incoming, call) => serve(kit, incoming, call),
    finish: (call, reached, error, trace) => finish(kit, call, reached, error, trace),
    upstream: (tool, meta, way, trace) => upstream(kit, tool, meta, way, trace),
  }
}
