// `flatmcp proxy`: any MCP server behind flatmcp, from the command line. The proxy itself is the
// runtime's (`@flatmcp/runtime/proxy`: the upstream connection, the list compiler, serving); the
// command turns argv into its options, says what it serves, and exits with a code.
import type { CallerRules, Downstream, HttpServing, OperatorLog, Proxy, ServedProxy, ServeProxyOptions } from '@flatmcp/runtime/proxy'
import type { AuditLog } from './audit-log'
import type { StartedCommand } from '@flatmcp/runtime/proxy/spawn'
import type { EarlyStdio } from './early-answers'
import { keepCommandsOnSignals, signalCommand } from '@flatmcp/runtime/proxy/spawn'
import { TARGET_NAMES } from '@flatmcp/core/names'
import type { Overrides } from '@flatmcp/runtime/proxy'
import { describeDrift, DRAIN_TIMEOUT_MS, logLine, readSnapshot, recordedHandshake, serveProxy, STDIO_CALLER, SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { readSnapshotFile } from './files'
import type { CheckedFiles } from './startup-check'
import { checkedAtStart, startupLines } from './startup-check'
import { rulesProblems } from './callers-file'
import { operatorLog } from './operator-log'
import { snapshotCommand } from './run-snapshot'
import type { ProxyCommandOptions } from './proxy-options'
import { callObserver, proxyStarter } from './proxy-start'
import { tokenCounter } from './token-counter'

export type { ProxyCommandOptions } from './proxy-options'

/** The audit log, its file tried first: one that cannot be opened stops the proxy at start, in one line. */
async function openAuditLog(file: string, log: OperatorLog): Promise<AuditLog> {
  const { auditLog, checkAuditFile } = await import('./audit-log')
  checkAuditFile(file)
  return auditLog(file, log)
}

/** The search surface's own tools, whose names it takes. */
const SURFACED = new Set<string>(Object.values(SURFACE_TOOLS))
/** How long the audit lines and spans held may take to be written on the way out. */
const FLUSH_MS = 2000

/** What the proxy serves, in one line: how many tools, from where, which came as they were, behind which surface. */
function summary(proxy: Proxy, options: ProxyCommandOptions): string {
  const tools = [...proxy.tools()]
  const asIs = tools.filter(([, tool]) => tool.served === 'as-is').map(([name]) => name)
  const cached = tools.filter(([, tool]) => tool.fromSnapshot).length
  const from = cached > 0 ? `, ${cached === tools.length ? 'all' : cached} from the snapshot` : ''
  const named = new Set(tools.map(([name]) => name))
  // The surface's own tools take their names: an upstream tool of the same name is reached through call_tool, not listed.
  const shadowed = options.alwaysLoad?.filter(name => named.has(name) && SURFACED.has(name)) ?? []
  const listed = options.alwaysLoad?.filter(name => named.has(name) && !SURFACED.has(name)) ?? []
  const unknown = options.alwaysLoad?.filter(name => !named.has(name)) ?? []
  const loaded = [
    listed.length > 0 ? `, and ${listed.join(', ')} listed beside them` : '',
    unknown.length > 0 ? ` (--always-load names no tool called ${unknown.join(', ')})` : '',
    shadowed.length > 0 ? ` (--always-load ${shadowed.join(', ')}: the search surface's own tool of that name is listed; the upstream's is reached through call_tool)` : '',
  ].join('')
  const surface = options.surface === 'search' ? `; listed behind find_tools, describe_tools and call_tool${loaded}` : ''
  return `flatmcp proxy: serving ${tools.length} tool${tools.length === 1 ? '' : 's'} of ${proxy.where}${from}${asIs.length > 0 ? ` (${asIs.join(', ')} as it came)` : ''}${surface}`
}

/** The callers' rules' patterns that match no tool served yet: said, not fatal (the rules' errors stop the proxy at start: startup-check.ts). */
function rulesNoted(proxy: Proxy, { file, rules }: { file: string, rules: CallerRules }, views: readonly string[], log: OperatorLog): void {
  for (const line of rulesProblems(file, rules, [...proxy.tools().keys()], views).warnings)
    log(`flatmcp proxy: ${line} (it holds once the upstream lists such a tool)`, 'info')
}

/**
 * `start`, and `load` begun once what `start` set off at once is done (a gateway's servers spawned):
 * loading the tokenizer's tables before then held every server's start by a third of a second.
 */
function loadingAfter(start: ReturnType<typeof proxyStarter>, load: (() => void) | undefined): ReturnType<typeof proxyStarter> {
  return load === undefined
    ? start
    : (offer) => {
        const started = start(offer)
        setImmediate(load)
        return started
      }
}

/**
 * Starts the upstream, compiles its tools (or reads the snapshot), checks the files against them
 * (`startup-check.ts`), and serves them until either side ends. Over stdio the upstream starts at
 * once, its handshake waits for what the client offers (so it is offered only that; nothing where
 * the input ends first), and the client's `initialize` is answered once the list is compiled and
 * checked; a snapshot that recorded the handshake answers it ahead of the upstream.
 */
export async function runProxy(options: ProxyCommandOptions): Promise<void> {
  const log = options.log ?? operatorLog(options.logLevel, logLine)
  const snapshot = options.artifact === undefined ? undefined : readSnapshotFile(options.artifact)
  // Over HTTP each compiled profile has a route of its own: the snapshot's, or every one.
  const profiles = options.profiles ?? (options.http ? (snapshot ? [...(readSnapshot(snapshot).snapshot.options.profiles)] : [...TARGET_NAMES]) : undefined)
  // Many servers' tools named as the overrides say (those given, else those the snapshot recorded).
  const named = options.overrides ?? (snapshot ? readSnapshot(snapshot).snapshot.overrides?.file as Overrides | undefined : undefined)
  // The files checked against the list at start: the overrides given, else those the snapshot recorded.
  const overridesFile = options.overrides ? options.overridesFile : options.artifact
  const files: CheckedFiles = {
    ...(named && overridesFile !== undefined ? { overrides: { file: overridesFile, overrides: named } } : {}),
    ...(options.rules ? { rules: { ...options.rules, views: Object.keys(named?.views ?? {}) } } : {}),
  }
  // --surface auto counts as OpenAI's o200k_base does (loaded only for it, once the servers are started).
  const tokens = options.surface === 'auto' ? tokenCounter() : undefined
  const audit = options.auditLog === undefined ? undefined : await openAuditLog(options.auditLog, log)
  const telemetry = await (await import('./telemetry')).startTelemetry(log, process.env, options.http?.host)
  // Each request that went upstream, and each refused at a limit: the audit log's line, and at debug the log's.
  const observer = callObserver(audit, options.logLevel === 'debug' ? log : undefined, options.limits && !options.http ? STDIO_CALLER : undefined)
  const onRefused = observer.onCall ? { onRefused: observer.onCall } : {}
  const toolLimits = options.toolLimits ? { toolLimits: options.toolLimits } : {}
  const start = loadingAfter(proxyStarter(options, { snapshot, named, profiles, countTokens: tokens?.count, observer, telemetry: telemetry?.api, log }), tokens?.load)
  // The audit lines and spans held are written first, for two seconds at most: a collector that
  // never answers would hold the exit for its exporter's time limit (10 s, past a drain's bound).
  const flushed = (proxy?: Proxy): Promise<unknown> => Promise.all([
    proxy?.close(),
    Promise.race([Promise.all([audit?.close(), telemetry?.shutdown()]), new Promise(resolve => setTimeout(resolve, FLUSH_MS))]),
  ]).catch(() => {})
  const stop = (code: number) => (proxy?: Proxy): void => {
    void flushed(proxy).finally(() => process.exit(code))
  }
  /** Once the list is compiled and the files hold against it (the callers' rules among them): what is served, said; a frozen snapshot the upstream no longer matches ends it (false). */
  const listed = async (proxy: Proxy): Promise<boolean> => {
    await checkedAtStart(proxy, files)
    const drift = describeDrift(proxy.drift())
    if (options.frozen && drift !== '') {
      const made = readSnapshot(snapshot).snapshot.options
      log(`flatmcp proxy: the upstream no longer matches ${options.artifact} (${drift}); not serving it (--frozen). Refresh the snapshot: ${snapshotCommand(options.config === undefined ? options.upstream! : { config: options.config }, options.artifact!, made)}`, 'error')
      stop(1)(proxy)
      return false
    }
    if (options.rules)
      rulesNoted(proxy, options.rules, Object.keys(named?.views ?? {}), log)
    log(summary(proxy, options), 'info')
    if (options.lists)
      keepList(options.lists, proxy, log)
    return true
  }
  const watch = (proxy: Proxy): void => proxy.onUpstreamEnd((why) => {
    log(`flatmcp proxy: the upstream server ${why === undefined ? 'ended' : `${why}, and was ended`}; stopping`, 'error')
    void flushed().finally(() => process.exit(1))
  })

  /** A start-up that failed: said, and the proxy ends (exit 2) before it serves anything. */
  const failed = (error: unknown): void => {
    for (const line of startupLines(error, files))
      log(line, 'error')
    stop(2)()
  }
  const serving = { log, ...toolLimits, ...onRefused }
  if (options.http)
    await serveHttp(start, { watch, listed, failed, stop }, { ...serving, http: options.http, routes: profiles ?? [], ...(options.drainTimeoutMs === undefined ? {} : { drainTimeoutMs: options.drainTimeoutMs }) })
  else
    await serveStdio(start, { watch, listed, stop }, files, { ...serving, ...(options.limits ? { limits: options.limits } : {}), ahead: snapshot !== undefined && options.overrides === undefined, started: options.started, early: earlyOf(options, snapshot) })
}

/**
 * The early stdio, and the files a start's first answers come from where they may be kept: served
 * from a snapshot ahead of the upstream (no overrides given), they are the snapshot's and the callers
 * file's (its rules, or a later version's) alone, given this command line.
 */
function earlyOf(options: ProxyCommandOptions, snapshot: unknown): { stdio: EarlyStdio, files?: string[] } | undefined {
  if (options.early === undefined)
    return undefined
  const ahead = recordedHandshake(snapshot) !== undefined && options.overrides === undefined && options.gateway === undefined
  return { stdio: options.early, ...(ahead ? { files: [options.artifact!, ...(options.callersFile === undefined ? [] : [options.callersFile])] } : {}) }
}

/** The list served kept for the next start, said at debug: a cache that fails never stops what it serves. */
function keepList(lists: NonNullable<ProxyCommandOptions['lists']>, proxy: Proxy, log: OperatorLog): void {
  try {
    log(lists.keep(proxy.snapshot('flatmcp proxy')), 'debug')
  }
  catch (error) {
    log(`flatmcp proxy: the list served was not kept: ${(error as Error).message}`, 'debug')
  }
}

/** How a served proxy goes: watched for its upstream's end, said once listed, stopped with a code. */
interface Lifecycle {
  watch: (proxy: Proxy) => void
  listed: (proxy: Proxy) => Promise<boolean>
  stop: (code: number) => (proxy?: Proxy) => void
}

/** Over HTTP: the list compiled and checked before it listens; a start-up that fails ends it (exit 2). */
async function serveHttp(start: () => Promise<Proxy>, { watch, listed, failed, stop }: Lifecycle & { failed: (error: unknown) => void }, serving: ServeProxyOptions & { http: HttpServing, routes: readonly string[], log: OperatorLog, drainTimeoutMs?: number }): Promise<void> {
  let proxy: Proxy
  try {
    proxy = await start()
    watch(proxy)
    if (!(await listed(proxy)))
      return
  }
  catch (error) {
    failed(error)
    return
  }
  await listenHttp(proxy, serving, stop)
}

/**
 * Over stdio: the client's first message is answered once the list is read and the files hold
 * against it; a snapshot that answers ahead of the upstream (`ahead`) is checked once the upstream
 * lists (as it is served).
 */
async function serveStdio(start: (offer?: Downstream['offer']) => Promise<Proxy>, { watch, listed, stop }: Lifecycle, files: CheckedFiles, { ahead, started, early, ...serving }: ServeProxyOptions & { log: OperatorLog, ahead: boolean, started: StartedCommand | undefined, early: ReturnType<typeof earlyOf> }): Promise<void> {
  const { log } = serving
  const served = await serveProxy(async downstream => start(downstream.offer).then(proxy => ahead ? proxy : checkedAtStart(proxy, files)), { ...serving, ...(early ? { stdio: early.stdio.stdio(log, early.files !== undefined) } : {}) })
  let stopping = false
  served.proxy.then(async (proxy) => {
    watch(proxy)
    // Served and checked: its first answers are kept for the next start, where they may be.
    if (await listed(proxy) && early?.files)
      early.stdio.keep(early.files)
  }).catch((error: unknown) => {
    stopping = true
    for (const line of startupLines(error, files))
      log(line, 'error')
    process.exit(2)
  })
  // The client closed its end and has every answer it asked for: so does the proxy end, and the
  // upstream with it. With no client at all (its input closed before a word), the list is read and
  // checked first: a file that is off still ends it with exit 2.
  void served.closed.then(async () => {
    const proxy = await Promise.race([served.proxy.catch(() => undefined), new Promise<undefined>(resolve => setTimeout(resolve, 1000, undefined))])
    if (!stopping)
      stop(0)(proxy)
  })
  endOnSignals(started, served.proxy, stop)
}

/**
 * A signal (a client's SIGTERM 2 s after it closed the proxy's input, a Ctrl-C) ends the upstream
 * command and what it started at once, and the proxy within 1.5 s; past that its exit ends them.
 */
function endOnSignals(started: StartedCommand | undefined, proxy: Promise<Proxy>, stop: (code: number) => (proxy?: Proxy) => void): void {
  const end = (): void => {
    if (started)
      signalCommand(started.child, 'SIGTERM')
    setTimeout(() => process.exit(0), 1500).unref()
    void proxy.then(stop(0), () => stop(0)())
  }
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    process.once(signal, end)
}

/** Serves the proxy over HTTP, each compiled profile on a route of its own, until a signal drains and stops it. */
async function listenHttp(proxy: Proxy, serving: ServeProxyOptions & { http: HttpServing, routes: readonly string[], log: OperatorLog, drainTimeoutMs?: number }, stop: (code: number) => (proxy?: Proxy) => void): Promise<void> {
  const { log, routes, drainTimeoutMs } = serving
  let served: ServedProxy
  try {
    served = await serveProxy(proxy, serving)
  }
  catch (error) {
    // A port still held (a replica draining, a proxy left running) is the operator's to free: said in one line, not a stack.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE')
      throw error
    const { host, port } = serving.http
    log(`flatmcp: --http ${port}: the port is in use by another process${host === '127.0.0.1' ? '' : ` on ${host}`} (a replica still draining?): wait for it to exit or stop it, or give another port`, 'error')
    stop(2)(proxy)
    return
  }
  log(`flatmcp proxy: listening on ${served.url}${routes.length > 0 ? ` (and ${routes.map(route => `/mcp/${route}`).join(', ')}; or ${routes.map(route => `/${route}/mcp`).join(', ')})` : ''}`, 'info')
  drainOnSignals(served, drainTimeoutMs, log, () => stop(0)(proxy))
}

/**
 * SIGTERM or SIGINT (a rolling restart, Ctrl-C) drains the replica: not ready at once, the calls in
 * flight finished within the bound, then it stops with 0. A second signal stops it at once, with 1.
 */
function drainOnSignals(served: ServedProxy, timeoutMs: number | undefined, log: OperatorLog, stopped: () => void): void {
  let draining = false
  const drain = (signal: NodeJS.Signals): void => {
    if (draining) {
      log(`flatmcp proxy: ${signal} again; stopping without waiting for the calls in flight`, 'error')
      process.exit(1)
    }
    draining = true
    log(`flatmcp proxy: ${signal}; draining (not ready; the calls in flight finish within ${(timeoutMs ?? DRAIN_TIMEOUT_MS) / 1000} s)`, 'info')
    void served.drain!(timeoutMs === undefined ? {} : { timeoutMs }).then(({ finished, cut, refused }) => {
      log(`flatmcp proxy: drained: ${finished} request${finished === 1 ? '' : 's'} finished, ${refused} refused with 503 for another replica, ${cut} cut at the bound; stopping`, cut > 0 ? 'error' : 'info')
      stopped()
    })
  }
  // The upstream serves the calls in flight: it ends with the proxy, not with the signal.
  keepCommandsOnSignals(['SIGINT', 'SIGTERM'])
  process.on('SIGINT', drain)
  process.on('SIGTERM', drain)
}
