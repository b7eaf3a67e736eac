// A proxy served downstream: over stdio (one session, which the upstream's own requests can reach), or
// over stateless HTTP in both protocol eras at `/mcp`, with `/mcp/<profile>` (and `/<profile>/mcp`)
// for each compiled profile beside it. The upstream's notifications reach HTTP clients on their subscription and listen streams.
import type { ProfileRequest } from '../service/profile-choice'
import type { OfferedCapabilities } from './upstream/upstream'
import type { CallerLimits } from './serve/caller-limits'
import type { RateLimits } from './serve/limit-charges'
import type { LimitsStore } from './serve/redis-limits'
import type { RefusedCall } from './serve/upstream-methods'
import type { HttpGuardOptions } from './http/guard'
import type { Proxy } from './create-proxy'
import type { Readable } from 'node:stream'
import type { LineOutput } from '../host/stdio-transport'
import type { DrainOptions, Drained } from './http/drain'
import { createMcpHandler } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { StdioTransport } from '../host/stdio-transport'
import { logLine } from '../util/log'
import { profileOfPath } from './http/routes'
import { askedView } from '../search/views'
import { isObject } from '../util/object'
import { opening } from '../util/wait'
import { corsHeaders, httpGuard } from './http/guard'
import { hostsServed, listenAddress, needsCallerCredential, urlHost } from './http/loopback'
import { admitted } from './http/admit'
import { servedInBodyEra } from './http/body-era'
import { limitStdio } from './serve/stdio-limits'
import { redisCount } from './serve/redis-limits'
import { serveHttp } from './http/serve-http'
import { ProxySetupError } from './upstream/setup-error'

/** Where and to whom a proxy is served over HTTP. */
export interface HttpServing extends HttpGuardOptions {
  host: string
  port: number
  /**
   * Serve beyond loopback without a caller credential (`tokens`): anyone who reaches the port then
   * uses the upstream with the operator's credentials. Without it, such a serving refuses to start.
   */
  open?: boolean
  /** Each named caller's limits (`callers`' names, or `token` for the unnamed tokens): past one, `429` with `Retry-After`. */
  limits?: Readonly<Record<string, CallerLimits>>
  /** Where the limits are counted: a Redis or Valkey store all replicas share. Default: in this process. */
  limitsStore?: LimitsStore
}

export interface ServeProxyOptions {
  /** Serve stateless HTTP here instead of stdio; every request checked first (credential, Origin, Host). */
  http?: HttpServing
  /** The profiles with routes of their own, `/mcp/<profile>` and `/<profile>/mcp` (the proxy must compile them and choose by `routedProfile`). */
  routes?: readonly string[]
  /** Over stdio, the client's limits: past one, a request it sends upstream is answered with an MCP error carrying `data.retryAfter`. */
  limits?: CallerLimits
  /** Each tool's limits, all callers together (over HTTP, in the store where one is named). */
  toolLimits?: Readonly<Record<string, RateLimits>>
  /** Hears each request refused at its caller's limits (over stdio or HTTP), for the audit trail. */
  onRefused?: (refused: RefusedCall) => void
  /** Where operator lines go. Default: one line on stderr. */
  log?: (line: string) => void
  /** Over stdio, what is read and where answers go. Default: the process's stdin and stdout. */
  stdio?: { input?: Readable, output?: LineOutput }
}

export interface ServedProxy {
  /** Where HTTP clients reach it (`http://127.0.0.1:8080/mcp`); none over stdio. */
  url?: string
  /** Settles when the downstream side ends: the client closed stdin, and every request it sent before is answered. Over HTTP, only `close` ends it. */
  closed: Promise<void>
  /** Stops serving (the upstream stays: `proxy.close()` closes it). */
  close: () => Promise<void>
  /**
   * Over HTTP, stops serving for a restart without losing a call: readiness false at once, new
   * requests served through the grace, then refused with 503 unread, and the calls in flight
   * finished within the bound (the upstream stays).
   */
  drain?: (options?: DrainOptions) => Promise<Drained>
  /** The proxy served: the one given, or the one a starter made (its failure to start rejects this). */
  proxy: Promise<Proxy>
}

/** Beyond loopback a caller credential is needed, unless the operator opened the proxy by name (said once). */
function checkServing(http: HttpServing, log: (line: string) => void): void {
  if (!needsCallerCredential(http.host, [...http.tokens ?? [], ...(http.callers ?? []).map(caller => caller.token)]))
    return
  if (!http.open)
    throw new ProxySetupError(`serving on ${http.host}, beyond loopback, needs a caller credential (a bearer token: --auth-token-file, FLATMCP_PROXY_TOKEN or --auth-token), or --no-auth to let anyone who reaches the port use the upstream with your credentials`)
  log(`flatmcp proxy: serving ${http.host} with no caller credential (--no-auth): anyone who reaches the port uses the upstream with your credentials`)
}

/**
 * A profile choice by route: `/mcp/<profile>` and `/<profile>/mcp` serve that profile, any other path
 * `base`; a request that names one of `views` (an `X-MCP-View` header, or `?view=`) is served that
 * view, and one that names tools (`X-MCP-Tools: a,b`, `?tools=a,b`) only those, in the route's profile.
 */
export function routedProfile(base: string, views: readonly string[] = []): (request: ProfileRequest) => string {
  return (request) => {
    const profile = (request.url ? profileOfPath(request.url.pathname) : undefined) ?? base
    return askedView(request, views, profile) ?? profile
  }
}

/** What a proxy is started with where one client keeps a session: what that client offers, once its first message says. */
export interface Downstream {
  offer: Promise<OfferedCapabilities>
}

/**
 * Starts a proxy for the client that connects (`createProxy(upstream, { offer: downstream.offer,
 * wait: 'connection' })`): called as serving begins, so the upstream starts while the client does,
 * and is offered only what that client can do.
 */
export type ProxyStarter = (downstream: Downstream) => Promise<Proxy>

/**
 * What the client's first message says it can do: a 2025 `initialize`'s capabilities, or a 2026-07-28
 * request's (its envelope's `clientCapabilities`: the proxy asks such a client in the rounds of its calls).
 */
function offerOf(message: unknown): OfferedCapabilities {
  const { method, params } = (isObject(message) ? message : {}) as { method?: unknown, params?: { capabilities?: unknown, _meta?: unknown } }
  const envelope = isObject(params?._meta) ? params._meta['io.modelcontextprotocol/clientCapabilities'] : undefined
  if (isObject(envelope))
    return envelope as OfferedCapabilities
  return method === 'initialize' && isObject(params?.capabilities) ? params.capabilities as OfferedCapabilities : {}
}

/**
 * Serves the proxy over stdio or HTTP until the downstream side ends or `close` is called. Given a
 * `ProxyStarter` over stdio, it starts the proxy at once and hands it what the client offers when its
 * first message comes (over HTTP, where no client keeps a session, nothing).
 */
export async function serveProxy(given: Proxy | ProxyStarter, options: ServeProxyOptions = {}): Promise<ServedProxy> {
  const log = options.log ?? logLine
  if (typeof given === 'function' && options.http) {
    const proxy = await given({ offer: Promise.resolve({}) })
    return { ...await serveOverHttp(proxy, { ...options, http: options.http }, log), proxy: Promise.resolve(proxy) }
  }
  if (typeof given === 'function')
    return serveStarterOverStdio(given, options)
  if (options.http)
    return serveOverHttp(given, { ...options, http: options.http }, log)
  const input = options.stdio?.input ?? process.stdin
  const transport = new StdioTransport(input, options.stdio?.output)
  const session = serveStdio(request => given.server(request), { transport })
  const closed = endOfInput(transport, input)
  if (options.limits || options.toolLimits)
    limitStdio(transport, options.limits ?? {}, options.onRefused, options.toolLimits)
  return { closed, close: () => session.close(), proxy: Promise.resolve(given) }
}

/**
 * A JSON-RPC message's id where it is a request whose answer can be told by its id (an answer is
 * owed), or undefined: an integer past 2^53 is read as another number, and its answer never matches.
 */
const requestId = (message: unknown): unknown => isObject(message) && typeof message.method === 'string' && (typeof message.id === 'string' || Number.isSafeInteger(message.id)) ? message.id : undefined

/** The request a `notifications/cancelled` cancels: no answer is owed for it any more. */
const cancelledId = (message: unknown): unknown => isObject(message) && message.method === 'notifications/cancelled' && isObject(message.params) ? message.params.requestId : undefined

/**
 * Settles once the client's input has ended and every request it sent before then is answered (each
 * within the proxy's own time limits): a client that writes its requests and closes its input gets
 * every answer.
 */
function endOfInput(transport: StdioTransport, input: Readable): Promise<void> {
  const owed = new Set<unknown>()
  const ended = opening<void>()
  let inputEnded = false
  const settle = (): void => {
    if (inputEnded && owed.size === 0)
      ended.open()
  }
  const receive = transport.onmessage!
  transport.onmessage = (message) => {
    const id = requestId(message)
    if (id !== undefined)
      owed.add(id)
    receive(message)
    if (owed.delete(cancelledId(message)))
      settle()
  }
  const send = transport.send.bind(transport)
  transport.send = async (message) => {
    await send(message)
    const { id, method } = message as { id?: unknown, method?: unknown }
    if (method === undefined && owed.delete(id))
      settle()
  }
  input.once('end', () => {
    inputEnded = true
    settle()
  })
  return ended.opened
}

/** Over stdio, a proxy started once the client's first message says what it can do; then every message goes as it came. */
function serveStarterOverStdio(start: ProxyStarter, { limits, toolLimits, onRefused, stdio }: ServeProxyOptions): ServedProxy {
  const first = opening<unknown>()
  const started = start({ offer: first.opened.then(offerOf) })
  started.catch(() => {}) // the caller hears of it through `proxy`
  const input = stdio?.input ?? process.stdin
  const transport = new StdioTransport(input, stdio?.output)
  const session = serveStdio(async request => (await started).server(request), { transport })
  let heard = false
  // Input that ends before a word (no client: stdin at /dev/null) still starts the proxy, offered
  // nothing, so its start-up is checked; it ends once that is done.
  const closed = endOfInput(transport, input).then(async () => {
    if (heard)
      return
    first.open(undefined)
    await started.catch(() => {})
  })
  if (limits || toolLimits)
    limitStdio(transport, limits ?? {}, onRefused, toolLimits)
  const handle = transport.onmessage!
  transport.onmessage = (message) => {
    heard = true
    first.open(message)
    transport.onmessage = handle
    handle(message)
  }
  return { closed, close: () => session.close(), proxy: started }
}

/** Stateless HTTP at /mcp and each profile's routes, guarded; its clients hear of changes on their subscriptions and listen streams. */
async function serveOverHttp(proxy: Proxy, { http, routes = [], onRefused, toolLimits }: ServeProxyOptions & { http: HttpServing }, log: (line: string) => void): Promise<ServedProxy> {
  checkServing(http, log)
  const store = http.limitsStore ? redisCount({ ...http.limitsStore, log }) : undefined
  const routed = new Set(routes)
  const handler = createMcpHandler(request => proxy.server(request))
  const stop = proxy.onNotification((notification) => {
    const uri = (notification.params as { uri?: unknown } | undefined)?.uri
    if (notification.method === 'notifications/tools/list_changed')
      handler.notify.toolsChanged()
    else if (notification.method === 'notifications/prompts/list_changed')
      handler.notify.promptsChanged()
    else if (notification.method === 'notifications/resources/list_changed')
      handler.notify.resourcesChanged()
    else if (notification.method === 'notifications/resources/updated' && typeof uri === 'string')
      handler.notify.resourceUpdated(uri)
  })
  const { server, drain } = await serveHttp(admitted(servedInBodyEra((request, given) => handler.fetch(request, given), log), http.limits, onRefused, { ...(toolLimits ? { tools: toolLimits } : {}), ...(store ? { count: store.take } : {}) }), {
    host: listenAddress(http.host),
    port: http.port,
    route: path => path === '/mcp' || path === '/mcp/' || routed.has(profileOfPath(path) ?? ''),
    guard: httpGuard({ ...http, hosts: hostsServed(http.host, http.hosts) }),
    cors: request => corsHeaders(request, http),
    health: proxy.health,
    log,
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : http.port
  const closed = new Promise<void>(resolve => server.once('close', () => resolve()))
  return {
    proxy: Promise.resolve(proxy),
    url: `http://${urlHost(http.host)}:${port}/mcp`,
    closed,
    close: async () => {
      stop()
      store?.close()
      await new Promise<void>(resolve => server.close(() => resolve()))
    },
    drain: async (options) => {
      // At the bound, the upstream connection ends: a call still waiting on it is answered with an error.
      const drained = await drain({ cut: () => proxy.close(), ...options })
      stop()
      store?.close()
      return drained
    },
  }
}
