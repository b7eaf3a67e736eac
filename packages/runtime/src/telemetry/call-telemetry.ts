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
import type { OtelApi, Span } from '../util/otel-api'
import type { Failure } from './conventions'
import { callerText, OTHER_TOOL } from '../util/caller-text'
import { ATTRIBUTES as A, DURATION_BOUNDARIES, errorType, EXECUTE_TOOL, KNOWN_METHODS, KNOWN_VERSIONS, METRICS, OTHER, TOOL_ERROR } from './conventions'

export type { OtelApi } from '../util/otel-api'

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

/** How a call upstream goes, where known. */
export interface UpstreamWay {
  transport?: 'pipe' | 'tcp'
}

export interface CallTelemetry {
  /** Runs `call` inside a SERVER span for the request (its parent the caller's `_meta.traceparent`, where sent), timed. */
  serve: <T>(incoming: IncomingRequest, call: () => Promise<T>) => Promise<T>
  /** Completes the record of a call (the SERVER span's attributes, the metrics) with what `onCall` hears, and what it threw; called inside `serve`'s call. */
  finish: (call: ObservedCall, reached?: boolean, error?: unknown) => void
  /** A CLIENT span for a call sent upstream, and the `_meta` that carries its trace context; `end` is told how it failed (`errorType`'s names). */
  upstream: (tool: string, meta: Record<string, unknown> | undefined, way?: UpstreamWay) => { meta: Record<string, unknown>, end: (failed?: Failure) => void }
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

/** What `finish` tells the request's `serve` of a tools/call: whether it reached a tool, and how it failed. */
interface Heard { reached: boolean, tool?: string, failure?: Failure, sent?: { seconds: number, attributes: Attributes } }

type Attributes = Record<string, string>

/** Metric attribute sets made once for each combination (bounded: known methods, served tools, error codes), not per call. */
function attributeSets(): (parts: Attributes) => Attributes {
  const sets = new Map<string, Attributes>()
  return (parts) => {
    const key = JSON.stringify(parts)
    let set = sets.get(key)
    if (!set) {
      // A list that changes often must not grow the map without end.
      if (sets.size >= 4096)
        sets.clear()
      set = Object.freeze(parts) as Attributes
      sets.set(key, set)
    }
    return set
  }
}

const failed = (span: Span, failure: Failure | undefined): void => {
  if (!failure)
    return
  span.setAttribute(A.errorType.key, failure.type)
  if (failure.code !== undefined)
    span.setAttribute(A.statusCode.key, failure.code)
  span.setStatus({ code: ERROR })
}

const failureAttributes = (failure: Failure | undefined): Attributes => failure ? { [A.errorType.key]: failure.type, ...(failure.code === undefined ? {} : { [A.statusCode.key]: failure.code }) } : {}

/** Tool calls traced and measured through `api`; `upstreamOf` names the upstream a tool goes to (a proxy's). */
export function callTelemetry(api: OtelApi, upstreamOf?: (tool: string) => string | undefined): CallTelemetry {
  const tracer = api.trace.getTracer('flatmcp')
  const meter = api.metrics.getMeter('flatmcp')
  const histogram = (metric: typeof METRICS.serverDuration | typeof METRICS.clientDuration): ReturnType<typeof meter.createHistogram> => meter.createHistogram(metric.name, { unit: metric.unit, description: metric.description, advice: { explicitBucketBoundaries: [...DURATION_BOUNDARIES] } })
  const serverDuration = histogram(METRICS.serverDuration)
  const clientDuration = histogram(METRICS.clientDuration)
  const calls = meter.createCounter(METRICS.calls.name, { unit: METRICS.calls.unit, description: METRICS.calls.description })
  const repairs = meter.createCounter(METRICS.repairs.name, { unit: METRICS.repairs.unit, description: METRICS.repairs.description })
  const heard = new WeakMap<Span, Heard>()
  const sets = attributeSets()
  /** A tool's own attributes (its name, the operation, its upstream): the same for each of its calls. */
  const toolAttributes = (tool: string | undefined): Attributes => {
    const upstream = tool === undefined ? undefined : upstreamOf?.(tool)
    return {
      ...(tool === undefined ? {} : { [A.tool.key]: tool, [A.operation.key]: EXECUTE_TOOL }),
      ...(upstream === undefined ? {} : { [A.upstream.key]: upstream }),
    }
  }
  return {
    async serve(incoming, call) {
      const started = performance.now()
      const parent = incoming.meta && typeof incoming.meta.traceparent === 'string' ? api.propagation.extract(api.context.active(), incoming.meta) : api.context.active()
      // Each piece of the caller's text cut to its stated length (a method, a tool, an id are the caller's to make up).
      const method = callerText(incoming.method)
      const tool = incoming.tool === undefined ? undefined : callerText(incoming.tool)
      const version = incoming.protocolVersion === undefined ? undefined : callerText(incoming.protocolVersion)
      const span = tracer.startSpan(tool === undefined ? method : `${method} ${tool}`, {
        kind: KIND.server,
        attributes: {
          [A.method.key]: method,
          ...toolAttributes(tool),
          [A.requestId.key]: callerText(incoming.requestId),
          [A.transport.key]: incoming.transport,
          ...(incoming.sessionId === undefined ? {} : { [A.session.key]: callerText(incoming.sessionId) }),
          ...(version === undefined ? {} : { [A.protocolVersion.key]: version }),
        },
      }, parent)
      const told: Heard = { reached: false }
      heard.set(span, told)
      let failure: Failure | undefined
      try {
        return await api.context.with(api.trace.setSpan(parent, span), call)
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
        const named = tool === undefined ? {} : told.reached ? toolAttributes(told.tool ?? tool) : { [A.tool.key]: OTHER_TOOL, [A.operation.key]: EXECUTE_TOOL }
        // The call sent upstream, measured once it is known whether its name is a tool's.
        if (told.sent)
          clientDuration.record(told.sent.seconds, sets({ ...told.sent.attributes, ...named }))
        serverDuration.record((performance.now() - started) / 1000, sets({
          [A.method.key]: KNOWN_METHODS.has(incoming.method) ? incoming.method : OTHER,
          ...named,
          [A.transport.key]: incoming.transport,
          ...(version === undefined ? {} : { [A.protocolVersion.key]: KNOWN_VERSIONS.has(version) ? version : OTHER }),
          ...failureAttributes(failure),
        }))
      }
    },
    finish(call, reached = true, error) {
      const failure = call.outcome === 'ok' ? undefined : call.outcome === 'tool-error' ? { type: TOOL_ERROR } : errorType(error)
      const attributes = sets({ [A.method.key]: 'tools/call', ...(reached ? toolAttributes(call.tool) : { [A.tool.key]: OTHER_TOOL, [A.operation.key]: EXECUTE_TOOL }), ...failureAttributes(failure) })
      calls.add(1, sets({ ...attributes, [A.outcome.key]: call.outcome }))
      if (call.repaired.length > 0)
        repairs.add(1, attributes)
      // Told inside the call, whose context holds its SERVER span.
      const span = api.trace.getActiveSpan()
      if (!span)
        return
      const record = heard.get(span)
      if (record)
        Object.assign(record, { reached, tool: call.tool, failure })
      // Named for the tool reached: through call_tool, the one it named.
      if (!reached) {
        span.updateName('tools/call')
      }
      else {
        span.updateName(`tools/call ${call.tool}`)
        for (const [key, value] of Object.entries(toolAttributes(call.tool)))
          span.setAttribute(key, value)
      }
      if (call.profile !== undefined)
        span.setAttribute(A.profile.key, call.profile)
      if (call.view !== undefined)
        span.setAttribute(A.view.key, call.view)
      span.setAttribute(A.repair.key, call.repaired)
    },
    upstream(tool, meta, way = {}) {
      const started = performance.now()
      const name = callerText(tool)
      const attributes = { [A.method.key]: 'tools/call', ...toolAttributes(name), ...(way.transport === undefined ? {} : { [A.transport.key]: way.transport }) }
      const span = tracer.startSpan(`tools/call ${name}`, { kind: KIND.client, attributes }, api.context.active())
      const carried: Record<string, unknown> = { ...meta }
      delete carried.traceparent
      delete carried.tracestate
      api.propagation.inject(api.trace.setSpan(api.context.active(), span), carried)
      return {
        meta: carried,
        end: (failure) => {
          failed(span, failure)
          span.end()
          const seconds = (performance.now() - started) / 1000
          const measured = { [A.method.key]: 'tools/call', ...(way.transport === undefined ? {} : { [A.transport.key]: way.transport }), ...failureAttributes(failure) }
          const active = api.trace.getActiveSpan()
          const record = active && heard.get(active)
          // Recorded by the request's SERVER span, which learns whether the name is a tool's; a caller's made-up name is no series.
          if (record)
            record.sent = { seconds, attributes: measured }
          else
            clientDuration.record(seconds, sets({ ...measured, [A.tool.key]: OTHER_TOOL, [A.operation.key]: EXECUTE_TOOL }))
        },
      }
    },
  }
}
