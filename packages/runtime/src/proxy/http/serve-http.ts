// A fetch-shaped MCP handler on node:http: requests and responses converted both ways, a client that
// goes away aborts its request (so its streams end), every request checked by the proxy's guard
// (credential, Origin, Host) before it is handled, and every answer written as its client reads it.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http'
import { createServer } from 'node:http'
import { Readable } from 'node:stream'
import type { ProxyHealth } from '../serve/health'
import type { Admitted, GuardedRequest, HttpGuard } from './guard'
import type { Drainer } from './drain'
import { drainer } from './drain'

/** How long an answer may wait for its client to read on before the connection is dropped. */
const SEND_TIMEOUT_MS = 30_000
/** How long an idle connection stays open: past the 60 s balancers keep theirs by default. */
const KEEP_ALIVE_MS = 65_000
/** What the answers whose clients do not read may hold in all: past it, the one waiting longest is dropped. */
const MAX_STALLED_BYTES = 64 * 2 ** 20

/**
 * The answers waiting for their clients to read, oldest first: each holds what its socket has not
 * sent. A client that stops reading cannot make the proxy hold its answers without bound (40 such
 * clients of a 9 MB answer took it from 82 to 572 MB, and it held them).
 */
function stalledAnswers(log: (line: string) => void): { send: (res: ServerResponse, chunk: Uint8Array) => Promise<boolean> } {
  const waiting = new Set<ServerResponse>()
  let dropped = 0
  const drop = (res: ServerResponse, why: string): void => {
    waiting.delete(res)
    res.destroy()
    // Counted, never a client's own text; said at the 1st, 2nd, 4th, 8th… drop.
    if ((++dropped & (dropped - 1)) === 0)
      log(`flatmcp proxy: dropped a connection whose client did not read its answer (${why}); ${dropped} so far`)
  }
  return {
    async send(res, chunk) {
      if (res.write(chunk))
        return true
      waiting.add(res)
      let held = 0
      for (const answer of waiting)
        held += answer.writableLength
      for (const oldest of waiting) {
        if (held <= MAX_STALLED_BYTES)
          break
        held -= oldest.writableLength
        drop(oldest, `answers waiting for their clients held over ${MAX_STALLED_BYTES / 2 ** 20} MiB`)
      }
      if (res.destroyed)
        return false
      try {
        return await new Promise<boolean>((resolve) => {
          const settle = (sent: boolean): void => {
            clearTimeout(timer)
            res.off('drain', drained)
            res.off('close', closed)
            resolve(sent)
          }
          const drained = (): void => settle(true)
          const closed = (): void => settle(false)
          const timer = setTimeout(() => {
            drop(res, `nothing read for ${SEND_TIMEOUT_MS / 1000} s`)
            settle(false)
          }, SEND_TIMEOUT_MS)
          res.on('drain', drained)
          res.on('close', closed)
        })
      }
      finally {
        waiting.delete(res)
      }
    },
  }
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, item)
  }
  return headers
}

/** The request as the handler takes it; none where its Host and path make no URL (said to the client, not logged). */
function toRequest(req: IncomingMessage, headers: Headers, signal: AbortSignal): Request | undefined {
  let url: URL
  try {
    url = new URL(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`)
  }
  catch {
    return undefined
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(url, {
    method: req.method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
}

/** A failure as the log may say it: where in the code, never its message (which may hold what a client sent). */
function failure(error: unknown): string {
  const frame = error instanceof Error ? error.stack?.split('\n').find(line => line.trimStart().startsWith('at ')) : undefined
  return `${error instanceof Error ? error.name : typeof error}${frame ? ` ${frame.trim()}` : ''}`
}

/** The paths a balancer checks: the process answers (`/healthz`), and it can serve (`/readyz`). */
const HEALTH_PATHS = new Set(['/healthz', '/readyz'])

/**
 * A balancer's check, answered without a credential (it says nothing a caller sent): `/healthz` 200
 * while the process answers, `/readyz` 200 once the proxy can serve, else 503 saying why.
 */
async function answerHealth(path: string, res: ServerResponse, health: () => Promise<ProxyHealth>, drain: Drainer): Promise<void> {
  const { ready, why } = path !== '/readyz' ? { ready: true, why: undefined } : drain.draining ? { ready: false, why: 'stopping (draining its calls in flight)' } : await health()
  res.writeHead(ready ? 200 : 503, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(ready ? 'ok\n' : `not ready: ${why}\n`)
}

export interface HttpServeOptions {
  host: string
  port: number
  /** Whether a path is served (else 404). */
  route: (path: string) => boolean
  guard: HttpGuard
  cors: (request: GuardedRequest) => Record<string, string>
  /** Answers `GET /healthz` and `/readyz` where given. */
  health?: () => Promise<ProxyHealth>
  log: (line: string) => void
}

/** A server that serves, and drains for a restart (`drain`: readiness false, then the calls in flight finished). */
export interface HttpServed {
  server: HttpServer
  drain: Drainer['drain']
}

/**
 * Serves `handle` on `host:port` for the paths `route` accepts (else 404), each request checked by
 * `guard` first (its refusal answered, nothing else done); resolves with the server once it listens
 * (port 0 picks one: read it from `address()`).
 */
export async function serveHttp(handle: (request: Request, admitted: Admitted) => Promise<Response>, options: HttpServeOptions): Promise<HttpServed> {
  const stalled = stalledAnswers(options.log)
  const server = createServer((req, res) => {
    const aborted = new AbortController()
    res.on('close', () => aborted.abort())
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!
      if (options.health && HEALTH_PATHS.has(path) && (req.method === 'GET' || req.method === 'HEAD')) {
        await answerHealth(path, res, options.health, drain)
        return
      }
      // Past a drain's grace a request is answered 503 unread, so a balancer may resend it elsewhere.
      if (!drain.admit(req, res))
        return
      if (!options.route(path)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: this proxy serves MCP at /mcp\n')
        return
      }
      // The guard reads headers alone, before anything is made of the Host and path a client sent.
      const headers: GuardedRequest = { headers: headersOf(req) }
      const cors = options.cors(headers)
      // A browser's preflight from an origin the operator allowed carries no credential: answered here.
      if (req.method === 'OPTIONS' && Object.keys(cors).length > 0) {
        res.writeHead(204, cors).end()
        return
      }
      const admitted = await options.guard(headers)
      const request = admitted instanceof Response ? undefined : toRequest(req, headers.headers, aborted.signal)
      const response = admitted instanceof Response ? admitted : request ? await handle(request, admitted) : new Response('Bad request: its Host and path make no URL\n', { status: 400, headers: { 'content-type': 'text/plain' } })
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...cors, ...drain.headers() })
      if (response.body) {
        // Written as the client reads: a chunk waits for the last one to drain (leaving the loop cancels the body).
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          if (res.destroyed || res.writableEnded || !await stalled.send(res, chunk))
            break
        }
      }
      res.end()
    })().catch((error: unknown) => {
      options.log(`flatmcp proxy: an HTTP request failed (${failure(error)}); what the client sent is not logged`)
      if (!res.headersSent)
        res.writeHead(500).end()
      else
        res.end()
    })
  })
  // An idle connection is kept longer than balancers keep theirs (nginx's and ALB's 60 s): the
  // balancer closes it first, so it never sends a request on one the replica is closing.
  server.keepAliveTimeout = KEEP_ALIVE_MS
  server.headersTimeout = KEEP_ALIVE_MS + 1000
  const drain = drainer(server)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  return { server, drain: drain.drain }
}
