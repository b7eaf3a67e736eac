// The calls a proxy serves, as its `onCall` hears them: what any server's `onCall` hears, and the
// upstream each went to (a gateway's: the server entry its tool comes from).
import type { ObservedCall } from '../../service/options'
import type { UpstreamClient } from '../upstream/upstream'

/** A call the proxy served, as `onCall` hears it. */
export interface ProxiedCall extends ObservedCall {
  /** The upstream's name as it gives it (`serverInfo.name`), or the server entry of a gateway the tool comes from. */
  upstream: string
}

/** `onCall` with each call's upstream named: the gateway entry its tool comes from, else the server's own name. */
export function upstreamNamed(onCall: (call: ProxiedCall) => void, upstream: UpstreamClient): (call: ObservedCall) => void {
  return call => onCall({ ...call, upstream: upstream.origins?.().get(call.tool)?.server ?? upstream.getServerVersion()?.name ?? 'upstream' })
}
