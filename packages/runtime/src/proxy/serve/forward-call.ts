// What the proxy sends on to its upstream for a client: a tool call (its arguments read, the hidden
// parameters left out and the fixed ones set), and every other request (a resource read, a prompt), each taking one of the
// upstream's slots, so none is unbounded. The upstream's progress goes downstream ahead of its answer;
// its JSON-RPC errors go as they came.
import type { ToolDefinition } from '../../tool/define-tool'
import type { FixedParameter } from '../compile/overrides'
import type { Message, UpstreamClient } from '../upstream/upstream'
import type { ForwardedResult } from './outputs'
import type { QuestionBridge } from './questions'
import type { CallSlots } from './slots'
import { PROTOCOL_ERROR } from '../../service/results'
import { overriddenArguments } from '../compile/overrides'
import type { CallTelemetry } from '../../telemetry/call-telemetry'
import type { Failure } from '../../telemetry/conventions'
import type { RequestContext } from '../../telemetry/request-way'
import { errorType, TOOL_ERROR } from '../../telemetry/conventions'
import { requestWay, traceCarrier } from '../../telemetry/request-way'
import { ANY_RESULT, forwardedParams, relay } from '../upstream/forward'
import { UnansweredQuestion } from '../upstream/input-rounds'
import type { ServedCall } from './observed'
import { observedRequests } from './observed'
import { laneSlots } from './slots'

/** How long one upstream request may wait (progress restarts it). */
export interface Timing { timeout: number, resetTimeoutOnProgress: true }

export interface Forwarder {
  /** The handler of the tool named: its call sent upstream. */
  tool: (name: string) => ToolDefinition['handler']
  /** Any other request of a downstream client, sent upstream as it came (`negotiated`: the MCP version of its session, for its span). */
  request: (message: Message, ctx: { mcpReq: { signal: AbortSignal, notify: (notification: Message) => Promise<void> } }, negotiated?: () => string | undefined) => Promise<unknown>
}

export interface ForwarderOptions {
  timing: Timing
  /** Requests in flight at once; four times as many more wait their turn. */
  maxInFlight: number
  questions: QuestionBridge
  /** The fixed parameters of a tool, as the list served now has them. */
  fixed: (name: string) => Record<string, FixedParameter> | undefined
  /** The hidden parameters of a tool: left out of its calls. */
  hidden: (name: string) => readonly string[] | undefined
  /** Traces each call sent upstream (a CLIENT span, its trace context in `_meta`). */
  telemetry?: CallTelemetry
  /** How calls reach the upstream, where one way reaches all. */
  transport?: 'pipe' | 'tcp'
  /** Hears each other request that goes upstream (resources, prompts, completions) once answered. */
  onCall?: (call: ServedCall) => void
}

/** A tool result a client can read: an object with content, or a 2026-07-28 result of another type. */
function isToolResult(result: unknown): result is ForwardedResult {
  return typeof result === 'object' && result !== null && (Array.isArray((result as ForwardedResult).content) || (result as ForwardedResult).resultType !== undefined)
}

/** The JSON-RPC code of a 2026-07-28 server that would ask a question its client did not say it can answer. */
const MISSING_CLIENT_CAPABILITY = -32021

/**
 * A call that ends for a question its client cannot answer, said as a tool error the model reads:
 * one the proxy could not have answered (input-rounds.ts), or one the server would not ask, for the
 * client offers no such question (-32021, which names it).
 */
function unanswerable(error: unknown, name: string): string | undefined {
  if (error instanceof UnansweredQuestion)
    return error.message
  const { code, message } = (error ?? {}) as { code?: unknown, message?: unknown }
  if (code !== MISSING_CLIENT_CAPABILITY)
    return undefined
  return `The call to "${name}" needs an answer from the user that this client cannot give (it offers no such question to the server behind this proxy): ${String(message).replace(/^MCP error -?\d+: /, '')}`
}

/** Sends calls and requests upstream within the slots. */
export function forwarder(upstream: UpstreamClient, options: ForwarderOptions): Forwarder {
  const { timing, questions } = options
  // Each server behind a gateway has slots of its own (its lane): one that hangs fills only its own.
  const lanes = laneSlots(options.maxInFlight, options.maxInFlight * 4)
  const slotsOf = (message: Message): { lane: string | undefined, slots: CallSlots } => {
    const lane = upstream.lane?.(message)
    return { lane, slots: lanes(lane) }
  }
  const busy = ({ lane, slots }: ReturnType<typeof slotsOf>): string => `The server${lane === undefined ? '' : ` ${JSON.stringify(lane)}`} behind this proxy has ${slots.running} requests in flight and ${slots.waiting} waiting, its limit; try again shortly.`
  const tool = (name: string): ToolDefinition['handler'] => async (input, context) => {
    const lane = slotsOf({ method: 'tools/call', params: { name } })
    const release = await lane.slots.take(context.signal)
    if (release === undefined)
      return { isError: true, content: [{ type: 'text', text: busy(lane) }] } as never
    const relayed = relay(context.progress)
    // Traced: a CLIENT span, its trace context in the _meta sent on (the caller's own replaced).
    const traced = options.telemetry?.upstream(name, context.meta, options.transport ? { transport: options.transport } : {}, context.trace)
    let failed: Failure | undefined
    const meta = traced ? traced.meta : context.meta
    // A 2026-07-28 call spans rounds where the upstream asks its client something: its upstream call
    // outlives the round that sent it (that round's signal), so only its time limit bounds it.
    const send = (signal?: AbortSignal, routedTo?: (server: string) => void, asking?: object): Promise<unknown> => upstream.request(
      { method: 'tools/call', params: { ...forwardedParams(meta === undefined ? undefined : { _meta: meta }), name, arguments: overriddenArguments(input, options.fixed(name), options.hidden(name)) as Record<string, unknown> } },
      ANY_RESULT,
      { ...timing, ...(signal ? { signal } : {}), ...(routedTo ? { routedTo } : {}), ...(asking ? { asking } : {}), ...(relayed ? { onprogress: relayed.onprogress } : {}) },
    )
    try {
      const result = context.rounds ? await questions.call(context.rounds, (routedTo, asking) => send(undefined, routedTo, asking)) : await send(context.signal)
      await relayed?.sent()
      // A result no client could read is said as a tool error, not passed on (nor read as a handler's plain value).
      if (!isToolResult(result)) {
        failed = { type: 'not_a_tool_result' }
        return { isError: true, content: [{ type: 'text', text: `The server behind this proxy answered the call to "${name}" with something that is not a tool result.` }] } as never
      }
      failed = result.isError === true ? { type: TOOL_ERROR } : undefined
      return result as never
    }
    catch (error) {
      failed = errorType(error)
      const unanswered = unanswerable(error, name)
      if (unanswered !== undefined)
        return { isError: true, content: [{ type: 'text', text: unanswered }] } as never
      // The upstream's JSON-RPC error goes downstream as it came, not as a tool error.
      if (Number.isSafeInteger((error as { code?: unknown } | null)?.code))
        Object.defineProperty(error, PROTOCOL_ERROR, { value: true })
      throw error
    }
    finally {
      traced?.end(failed)
      release()
    }
  }
  const sent: Forwarder['request'] = async (message, ctx) => {
    const lane = slotsOf(message)
    const release = await lane.slots.take(ctx.mcpReq.signal)
    if (release === undefined)
      throw Object.assign(new Error(busy(lane)), { code: -32000 })
    try {
      const token = (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken
      const relayed = relay(token === undefined ? undefined : update => ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...update, progressToken: token } }))
      const params = forwardedParams(message.params)
      const result = await upstream.request({ method: message.method, ...(params === undefined ? {} : { params }) }, ANY_RESULT, { ...timing, signal: ctx.mcpReq.signal, ...(relayed ? { onprogress: relayed.onprogress } : {}) })
      await relayed?.sent()
      return result
    }
    finally {
      release()
    }
  }
  // Traced where telemetry is on: each request passed through a SERVER span of its method.
  const { telemetry } = options
  const spanned: Forwarder['request'] = telemetry
    ? (message, ctx, negotiated) => {
        const meta = traceCarrier((message.params as { _meta?: unknown } | undefined)?._meta, (ctx as { http?: { req?: Request } }).http?.req?.headers)
        return telemetry.serve({ method: message.method, ...requestWay(ctx as RequestContext, negotiated), ...(meta ? { meta } : {}) }, () => sent(message, ctx))
      }
    : sent
  // Heard where someone listens: each request that goes upstream, as a tool call is.
  return { tool, request: options.onCall ? observedRequests(spanned, options.onCall) : spanned }
}
