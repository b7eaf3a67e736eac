// The calls a proxy serves, as its `onCall` and its telemetry hear them: what any server's `onCall`
// hears, and the upstream each went to (a gateway's: the server entry its tool comes from).
import type { ObservedCall } from '../../service/options'
import type { CallTelemetry, OtelApi } from '../../telemetry/call-telemetry'
import type { UpstreamClient } from '../upstream/upstream'
import { callTelemetry } from '../../telemetry/call-telemetry'

/** A call the proxy served, as `onCall` hears it. */
export interface ProxiedCall extends ObservedCall {
  /** The upstream's name as it gives it (`serverInfo.name`), or the server entry of a gateway the tool comes from. */
  upstream: string
}

/** What hears the calls a proxy serves (`ProxyOptions`). */
export interface CallObservers {
  /** Hears each tools/call once answered (an audit trail, metrics): never an argument's value, a result or a credential. */
  onCall?: (call: ProxiedCall) => void
  /** OpenTelemetry's API, an SDK started: each request traced (a call's upstream call a child span, the trace context in `_meta`) and measured. */
  telemetry?: OtelApi
}

/** The upstream a tool's calls go to: the gateway entry it comes from, else the server's own name. */
const upstreamName = (upstream: UpstreamClient, tool: string): string => upstream.origins?.().get(tool)?.server ?? upstream.getServerVersion()?.name ?? 'upstream'

/** What hears a proxy's calls: its `onCall` with each call's upstream named, and its telemetry (made once per proxy). */
export function proxyObservers(upstream: UpstreamClient, options: CallObservers): { onCall?: (call: ObservedCall) => void, telemetry?: CallTelemetry } {
  const { onCall, telemetry } = options
  return {
    ...(onCall ? { onCall: (call: ObservedCall) => onCall({ ...call, upstream: upstreamName(upstream, call.tool) }) } : {}),
    ...(telemetry ? { telemetry: callTelemetry(telemetry, tool => upstreamName(upstream, tool)) } : {}),
  }
}
