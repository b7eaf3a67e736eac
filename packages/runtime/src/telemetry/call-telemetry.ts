// OpenTelemetry for tool calls, through the API object the operator's set-up hands in (never
// imported here: without it nothing of OpenTelemetry loads). A SERVER span per tools/call named and
// attributed as the semantic conventions for MCP say, flatmcp's own attributes beside them (the
// profile, the upstream, the JSON paths the repair changed: never a value), a CLIENT span per call
// sent upstream with the W3C trace context in its `_meta`, a caller's `_meta.traceparent` taken as
// the parent; metrics of calls, errors, durations and repairs by tool and upstream. What the caller
// made up (a method, a tool name, an id) is cut to CALLER_TEXT_CHARS, and a tool name no tool has is
// one metric series (`_OTHER`), not one per name.
import type { ObservedCall } from '../service/options'
import type { OtelApi } from '../util/otel-api'
import { callerText, OTHER_TOOL } from '../util/caller-text'

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

export interface CallTelemetry {
  /** Runs `call` inside a SERVER span for the request (its parent the caller's `_meta.traceparent`, where sent). */
  serve: <T>(incoming: IncomingRequest, call: () => Promise<T>) => Promise<T>
  /** Completes the record of a call (the SERVER span's attributes, the metrics) with what `onCall` hears; called inside `serve`'s call. */
  finish: (call: ObservedCall, reached?: boolean) => void
  /** A CLIENT span for a call sent upstream, and the `_meta` that carries its trace context. */
  upstream: (tool: string, meta: Record<string, unknown> | undefined) => { meta: Record<string, unknown>, end: (failed?: string) => void }
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

/** Tool calls traced and measured through `api`; `upstreamOf` names the upstream a tool goes to (a proxy's). */
export function callTelemetry(api: OtelApi, upstreamOf?: (tool: string) => string | undefined): CallTelemetry {
  const tracer = api.trace.getTracer('flatmcp')
  const meter = api.metrics.getMeter('flatmcp')
  const duration = meter.createHistogram('mcp.server.operation.duration', { unit: 's', description: 'How long a tools/call took, as the server answered it.' })
  const calls = meter.createCounter('flatmcp.tool.calls', { description: 'Tool calls by tool, upstream and outcome.' })
  const repairs = meter.createCounter('flatmcp.tool.repairs', { description: 'Tool calls whose arguments the repair or the inverse map changed.' })
  return {
    async serve(incoming, call) {
      const parent = incoming.meta && typeof incoming.meta.traceparent === 'string' ? api.propagation.extract(api.context.active(), incoming.meta) : api.context.active()
      // Each piece of the caller's text cut to its stated length (a method, a tool, an id are the caller's to make up).
      const method = callerText(incoming.method)
      const tool = incoming.tool === undefined ? undefined : callerText(incoming.tool)
      const upstream = incoming.tool === undefined ? undefined : upstreamOf?.(incoming.tool)
      const span = tracer.startSpan(tool === undefined ? method : `${method} ${tool}`, {
        kind: KIND.server,
        attributes: {
          'mcp.method.name': method,
          ...(tool === undefined ? {} : { 'gen_ai.tool.name': tool, 'gen_ai.operation.name': 'execute_tool' }),
          'jsonrpc.request.id': callerText(incoming.requestId),
          'network.transport': incoming.transport,
          ...(incoming.sessionId === undefined ? {} : { 'mcp.session.id': callerText(incoming.sessionId) }),
          ...(incoming.protocolVersion === undefined ? {} : { 'mcp.protocol.version': callerText(incoming.protocolVersion) }),
          ...(upstream === undefined ? {} : { 'flatmcp.upstream': upstream }),
        },
      }, parent)
      try {
        return await api.context.with(api.trace.setSpan(parent, span), call)
      }
      catch (error) {
        span.setAttribute('error.type', error instanceof Error ? error.name : 'error')
        span.setStatus({ code: ERROR })
        throw error
      }
      finally {
        span.end()
      }
    },
    finish(call, reached = true) {
      const upstream = reached ? upstreamOf?.(call.tool) : undefined
      // A name no tool has is one series, whatever the caller made up.
      const attributes = { 'gen_ai.tool.name': reached ? call.tool : OTHER_TOOL, 'mcp.method.name': 'tools/call', ...(upstream === undefined ? {} : { 'flatmcp.upstream': upstream }), ...(call.outcome === 'ok' ? {} : { 'error.type': call.outcome === 'tool-error' ? 'tool_error' : 'protocol_error' }) }
      duration.record(call.durationMs / 1000, attributes)
      calls.add(1, { ...attributes, 'flatmcp.outcome': call.outcome })
      if (call.repaired.length > 0)
        repairs.add(1, attributes)
      // Told inside the call, whose context holds its SERVER span.
      const span = api.trace.getActiveSpan()
      if (!span)
        return
      if (!reached)
        span.updateName('tools/call')
      if (call.profile !== undefined)
        span.setAttribute('flatmcp.profile', call.profile)
      span.setAttribute('flatmcp.repair', call.repaired)
      if (call.outcome !== 'ok') {
        span.setAttribute('error.type', call.outcome === 'tool-error' ? 'tool_error' : 'protocol_error')
        span.setStatus({ code: ERROR })
      }
    },
    upstream(tool, meta) {
      const span = tracer.startSpan(`tools/call ${callerText(tool)}`, { kind: KIND.client, attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': callerText(tool), ...(upstreamOf?.(tool) === undefined ? {} : { 'flatmcp.upstream': upstreamOf!(tool)! }) } }, api.context.active())
      const carried: Record<string, unknown> = { ...meta }
      delete carried.traceparent
      delete carried.tracestate
      api.propagation.inject(api.trace.setSpan(api.context.active(), span), carried)
      return {
        meta: carried,
        end: (failed) => {
          if (failed !== undefined) {
            span.setAttribute('error.type', failed)
            span.setStatus({ code: ERROR })
          }
          span.end()
        },
      }
    },
  }
}
