// The calls a proxy serves, as its `onCall` and its telemetry hear them: what any server's `onCall`
// hears, and the upstream each went to (a gateway's: the server entry its tool comes from).
import type { ObservedCall } from '../../service/options'
import type { CallTelemetry, OtelApi } from '../../telemetry/call-telemetry'
import type { UpstreamClient } from '../upstream/upstream'
import { callTelemetry } from '../../telemetry/call-telemetry'
import { callerText } from '../../util/caller-text'
import { subjectOf, UPSTREAM_METHODS, upstreamMethod } from './upstream-methods'

/** A call the proxy served, as `onCall` hears it. */
export interface ProxiedCall extends ObservedCall {
  /** The upstream's name as it gives it (`serverInfo.name`), or the server entry of a gateway the tool comes from. */
  upstream: string
  /**
   * A request other than a tool call that went upstream (`resources/read`, `prompts/get`,
   * `completion/complete`…: `UPSTREAM_METHODS`), `tool` then holding what it names (a URI, a prompt's
   * name; empty for a list). Absent for a tools/call.
   */
  method?: string
}


/** What hears the calls a proxy serves (`ProxyOptions`). */
export interface CallObservers {
  /** Hears each tools/call once answered (an audit trail, metrics): never an argument's value, a result or a credential. */
  onCall?: (call: ProxiedCall) => void
  /** OpenTelemetry's API, an SDK started: each request traced (a call's upstream call a child span, the trace context in `_meta`) and measured. */
  telemetry?: OtelApi
}

/**
 * The upstream a request went to: the gateway entry it was routed to (a tool's, one of a server that
 * is down, a prompt's, a resource's), else the server's own name. `subject` is what it names.
 */
function upstreamName(upstream: UpstreamClient, subject: string, method = 'tools/call'): string {
  const param = UPSTREAM_METHODS[method]?.param
  const routed = method === 'tools/call' ? upstream.origins?.().get(subject)?.server : undefined
  return routed ?? (param === undefined ? undefined : upstream.lane?.({ method, params: { [param]: subject } })) ?? upstream.getServerVersion()?.name ?? 'upstream'
}

/** A call as the proxy's observers hear it before its upstream is named: a tool call, or another request that went upstream. */
export type ServedCall = ObservedCall & { method?: string }

/**
 * Forwarded requests, each that goes upstream (`UPSTREAM_METHODS`: resources, prompts, completions)
 * told to `onCall` once answered as a tool call is: what it names, its caller, id, outcome and time.
 */
export function observedRequests<M extends { method: string, params?: unknown }, Ctx, Rest extends unknown[]>(request: (message: M, ctx: Ctx, ...rest: Rest) => Promise<unknown>, onCall: (call: ServedCall) => void): typeof request {
  return async (message, ctx, ...rest) => {
    if (!upstreamMethod(message.method))
      return request(message, ctx, ...rest)
    const time = new Date().toISOString()
    const started = performance.now()
    const about = ctx as { mcpReq: { id?: string | number }, http?: { authInfo?: { clientId?: unknown } } }
    const caller = about.http?.authInfo?.clientId
    const { id } = about.mcpReq
    const told = (outcome: ObservedCall['outcome']): void => {
      try {
        onCall({
          time,
          method: message.method,
          tool: callerText(subjectOf(message.method, message.params) ?? ''),
          ...(typeof caller === 'string' && caller !== '' ? { caller: callerText(caller) } : {}),
          ...(id === undefined ? {} : { id: typeof id === 'number' ? id : callerText(id) }),
          outcome,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          repaired: [],
        })
      }
      catch {
        // An observer's failure is not the request's.
      }
    }
    try {
      const result = await request(message, ctx, ...rest)
      told('ok')
      return result
    }
    catch (error) {
      told('error')
      throw error
    }
  }
}

/** What hears a proxy's calls: its `onCall` with each call's upstream named, and its telemetry (made once per proxy). */
export function proxyObservers(upstream: UpstreamClient, options: CallObservers): { onCall?: (call: ServedCall) => void, telemetry?: CallTelemetry } {
  const { onCall, telemetry } = options
  return {
    ...(onCall ? { onCall: (call: ServedCall) => onCall({ ...call, upstream: upstreamName(upstream, call.tool, call.method) }) } : {}),
    ...(telemetry ? { telemetry: callTelemetry(telemetry, tool => upstreamName(upstream, tool)) } : {}),
  }
}
