// A replica stopped for a rolling restart loses no call: it says it is not ready at once (so the
// balancer's check moves new work away), serves what still reaches it for a grace period (a balancer
// sees a failed check only after its interval), then answers what comes with 503 before reading it
// (never processed, so a balancer may send it to another replica), and waits for the calls in flight,
// within a bound, and for a second with no request before it stops listening and ends what is left.
// It keeps listening until then: closing a listener resets the connections the kernel accepted that
// the process had not yet taken, each carrying a request the balancer already sent (502 behind
// HAProxy, never resent), and on a loaded machine a late balancer's connections wait there for seconds.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http'

/** How long a draining replica keeps serving: past a balancer's checks (HAProxy's `inter 1s fall 2`, a pod's readiness probe). */
export const DRAIN_GRACE_MS = 5000
/** How long a stop may take in all by default: within the 30 s Kubernetes gives a pod before it kills it. */
export const DRAIN_TIMEOUT_MS = 20_000

export interface DrainOptions {
  /** How long the whole drain may take; the calls still in flight then are cut. */
  timeoutMs?: number
  /** How long new requests are still served once readiness is false (at most `timeoutMs`). */
  graceMs?: number
  /**
   * Ends what the calls still in flight wait on (the upstream connection), the last second of the
   * bound: each is then answered with an error rather than cut with no answer.
   */
  cut?: () => Promise<void>
}

/** What a drain did: the requests that finished within it, those cut at its bound, and the ones refused with 503. */
export interface Drained {
  finished: number
  cut: number
  refused: number
}

export interface Drainer {
  /** Whether a drain has begun: readiness then answers 503. */
  readonly draining: boolean
  /** Counts the request in flight, or answers it 503 where the replica no longer takes new work (then false). */
  admit: (req: IncomingMessage, res: ServerResponse) => boolean
  /** The headers an answer adds: once the replica stops taking work, no connection is kept for another request. */
  headers: () => Record<string, string>
  /** Drains `server`: resolves once every request in flight finished, or was cut at the bound. */
  drain: (options?: DrainOptions) => Promise<Drained>
}

/** How long no request may come, once requests are refused, before the replica stops listening and closes its connections. */
const QUIET_MS = 1000
/** The end of the bound kept for the calls `cut` ends to be answered (a quarter of a shorter bound). */
const ANSWER_MS = 1000

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))
/** Past the sockets' pending work twice (a connection accepted, then its request read). */
const settled = async (): Promise<void> => {
  for (let round = 0; round < 2; round++)
    await new Promise(resolve => setImmediate(resolve))
}

/** The drain of one HTTP server. */
export function drainer(server: HttpServer): Drainer {
  const open = new Set<ServerResponse>()
  let phase: 'serving' | 'draining' | 'refusing' = 'serving'
  let emptied = (): void => {}
  let counts = { finished: 0, refused: 0 }
  let drained: Promise<Drained> | undefined
  let lastRefused = 0
  const admit = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (phase === 'refusing') {
      counts.refused++
      lastRefused = Date.now()
      req.resume()
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1', 'connection': 'close' }).end('Service unavailable: this replica is stopping; the request was not processed\n')
      return false
    }
    open.add(res)
    res.once('close', () => {
      open.delete(res)
      if (phase !== 'serving')
        counts.finished++
      if (open.size === 0)
        emptied()
    })
    return true
  }
  const run = async ({ timeoutMs = DRAIN_TIMEOUT_MS, graceMs = DRAIN_GRACE_MS, cut }: DrainOptions): Promise<Drained> => {
    const started = Date.now()
    const answering = cut ? Math.min(ANSWER_MS, timeoutMs / 4) : 0
    const emptiedOr = (ms: number): Promise<void> => Promise.race([new Promise<void>((resolve) => {
      emptied = resolve
    }), sleep(ms)])
    phase = 'draining'
    counts = { finished: 0, refused: 0 }
    await sleep(Math.min(graceMs, timeoutMs))
    phase = 'refusing'
    lastRefused = Date.now()
    const left = (): number => Math.max(0, timeoutMs - answering - (Date.now() - started))
    if (open.size > 0)
      await emptiedOr(left())
    // Then until no request came for a while (the balancer has left the replica out), what is
    // pending on the sockets read first: a starved process sees its timers before its connections.
    for (;;) {
      await settled()
      if (left() === 0 || Date.now() - lastRefused >= QUIET_MS)
        break
      await sleep(Math.min(QUIET_MS - (Date.now() - lastRefused), left()))
    }
    // No new connection now. An idle one stays open until the cut: closed with the listener, a
    // balancer could be sending on it as it closes, a request then lost.
    const closeIdle = server.closeIdleConnections.bind(server)
    server.closeIdleConnections = () => {}
    server.close()
    server.closeIdleConnections = closeIdle
    // A call the upstream has not answered by now is answered with an error: a stream that ended
    // without its answer would leave its client waiting for its own time limit.
    const unanswered = open.size
    const finished = counts.finished
    if (unanswered > 0 && cut) {
      void cut().catch(() => {})
      await emptiedOr(answering)
    }
    // A stream ends as a stream does (its client reconnects elsewhere); an answer not yet begun is dropped.
    for (const res of open) {
      if (res.headersSent)
        res.end()
      else
        res.destroy()
    }
    server.closeAllConnections()
    return { ...counts, finished, cut: unanswered }
  }
  return {
    get draining() {
      return phase !== 'serving'
    },
    admit,
    headers: (): Record<string, string> => phase === 'refusing' ? { connection: 'close' } : {},
    drain: (options = {}) => drained ??= run(options),
  }
}
