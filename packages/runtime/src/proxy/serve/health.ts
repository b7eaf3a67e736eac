// Whether a proxy can serve: its list compiled (or its snapshot loaded) and its upstream answering a
// ping. A balancer asks this every second or two of every replica, so one answer stands for a second
// and at most one ping is in flight.
import type { UpstreamClient } from '../upstream/upstream'
import { ANY_RESULT } from '../upstream/forward'

/** What a readiness check answers: ready, or why not (no detail a caller sent). */
export interface ProxyHealth {
  ready: boolean
  why?: string
}

/** How long the upstream may take to answer a ping before the proxy is not ready, and how long one answer stands. */
export const PING_TIMEOUT_MS = 2000
const ANSWER_STANDS_MS = 1000

const METHOD_NOT_FOUND = -32601

/** The readiness of a proxy whose first list settles `listed`, over `upstream` (an upstream that ended answers no ping). */
export function proxyHealth(listed: Promise<void>, upstream: Pick<UpstreamClient, 'request'>): () => Promise<ProxyHealth> {
  let state: 'listing' | 'listed' | 'failed' = 'listing'
  listed.then(() => {
    state = 'listed'
  }, () => {
    state = 'failed'
  })
  let last: { at: number, answer: Promise<ProxyHealth> } | undefined
  const ping = (): Promise<ProxyHealth> => upstream.request({ method: 'ping' }, ANY_RESULT, { timeout: PING_TIMEOUT_MS }).then(
    () => ({ ready: true }),
    // A server without ping answers "method not found": it answered, so it is up.
    (error: unknown) => (error as { code?: unknown } | null)?.code === METHOD_NOT_FOUND ? { ready: true } : { ready: false, why: `the upstream did not answer a ping within ${PING_TIMEOUT_MS / 1000} s` },
  )
  return async () => {
    if (state === 'listing')
      return { ready: false, why: 'the tool list is not compiled yet' }
    if (state === 'failed')
      return { ready: false, why: 'the upstream\'s tool list could not be read' }
    const now = Date.now()
    if (!last || now - last.at >= ANSWER_STANDS_MS)
      last = { at: now, answer: ping() }
    return last.answer
  }
}
