// Any MCP server's tools, served flat: the upstream's list compiled as a build compiles a module's
// (JSON Schema front end, the preset its fingerprints name), each tool a tool whose handler
// forwards, served by the runtime's own serving (profiles, repair, inverse maps). Everything else
// passes through both ways unchanged. The upstream is a connected client, or a command or URL the
// proxy connects to itself (with what makes a real upstream behave: `upstream/`). The stages meet here:
// upstream/ connects, compile/ reads and compiles the list, serve/ serves it and forwards calls.
import type * as Compiler from '@flatmcp/core'
import type { ToolService } from '../service/tool-service'
import type { OperatorLog } from '../util/log'
import type { Proxy, ProxyOptions } from './proxy-options'
import type { Downstreams } from './serve/downstream'
import type { ListVersion, ListVersions } from './serve/list-versions'
import type { ServedOverrides } from './serve/served-overrides'
import type { Upstream, UpstreamClient, UpstreamTarget } from './upstream/upstream'
import { TARGET_NAMES } from '@flatmcp/core'
import { toSnapshot } from '../artifact/write'
import { logLine } from '../util/log'
import { definedOf } from '../util/object'
import { throttled, timerMs } from '../util/wait'
import { warmCompilerThread } from './compile/compiler-thread'
import { describeOverrides } from './compile/overrides'
import { recordedHandshake, sameList, snapshotFor } from './compile/snapshot-drift'
import { downstreams, serverFactory } from './serve/downstream'
import { forwarder } from './serve/forward-call'
import { proxyHealth } from './serve/health'
import { listVersions } from './serve/list-versions'
import { proxyObservers } from './serve/observed'
import { questionBridge } from './serve/questions'
import { servedOverrides } from './serve/served-overrides'
import { listenToUpstream } from './serve/upstream-events'
import { clientUpstream } from './upstream/client'
import { connectAhead, connectUpstream } from './upstream/connect'
import { withFittedNames } from './upstream/fitted-names'
import { listSetupError } from './upstream/setup-error'
import { handshakeOf, isUpstreamTarget } from './upstream/upstream'

export type { Proxy, ProxyOptions } from './proxy-options'

/**
 * A proxy in front of an upstream: a connected client, or a command (`{ command: ['node',
 * 'server.js'] }`) or URL (`'https://…/mcp'`, `{ url, headers }`) it connects to itself. Its tools
 * compiled once per list version (each definition keyed by its digest; redone on `list_changed`), or
 * served from a snapshot, served flat; every other request, notification and server-to-client request
 * passed through unchanged; the upstream's capabilities mirrored. A proxy that cannot start (its
 * upstream unreachable, its list unreadable, a snapshot that does not fit) throws a
 * `ProxySetupError` where it connected itself.
 */
export async function createProxy(upstream: UpstreamClient | UpstreamTarget | string | URL, options: ProxyOptions = {}): Promise<Proxy> {
  const log = options.log ?? logLine
  // A list to compile (no snapshot to serve): the compiler thread boots while the upstream connects.
  if (options.snapshot === undefined && options.known === undefined)
    warmCompilerThread(options.compile?.memoryMb)
  if (typeof upstream === 'string' || upstream instanceof URL || isUpstreamTarget(upstream)) {
    const target: UpstreamTarget = typeof upstream === 'string' || upstream instanceof URL ? { url: String(upstream) } : upstream
    const connecting = { ...offerOf(options), ...(options.started ? { started: options.started } : {}), log }
    // Answered from the snapshot's record while the upstream starts: where the proxy waits only for the connection, and serves the snapshot as made.
    const recorded = options.wait === 'connection' && options.overrides === undefined ? recordedHandshake(options.snapshot) : undefined
    const connection = recorded ? connectAhead(target, recorded, connecting) : await connectUpstream(target, connecting)
    return servedOver(Object.assign(connection, { transport: 'command' in target ? 'pipe' as const : 'tcp' as const }), options, log)
  }
  return proxyOver(clientUpstream(upstream), options, log)
}

/** What the client behind the proxy offers its upstreams: its capabilities (or their promise), else by `asks`. */
export function offerOf(options: ProxyOptions): { offer: NonNullable<ProxyOptions['offer']> } | { asks: boolean | undefined } {
  return options.offer === undefined ? { asks: options.asks } : { offer: options.offer }
}

/** A connection the proxy made itself, served: closed when the proxy cannot start, or its list cannot be read. */
export async function servedOver(connection: Upstream, options: ProxyOptions, log: OperatorLog): Promise<Proxy> {
  try {
    const proxy = await proxyOver(connection, options, log)
    proxy.ready.catch(() => connection.close().catch(() => {}))
    return proxy
  }
  catch (error) {
    await connection.close().catch(() => {})
    throw listSetupError(error, connection.where)
  }
}

/** The profiles compiled besides portable: those asked for, else the one served, else every one for a choice function. */
function profilesOf(options: ProxyOptions): Compiler.ProfileName[] {
  if (options.profiles)
    return options.profiles
  if (typeof options.profile === 'function')
    return [...TARGET_NAMES]
  return typeof options.profile === 'string' && options.profile !== 'portable' ? [options.profile as Compiler.ProfileName] : []
}

async function proxyOver(connection: Upstream, options: ProxyOptions, log: OperatorLog): Promise<Proxy> {
  // A tool name some clients refuse is served fitted, and called back by its own.
  const upstream = withFittedNames(connection.client, log)
  const profiles = profilesOf(options)
  const snapshot = options.snapshot === undefined ? undefined : snapshotFor(options.snapshot, options.preset === 'auto' ? undefined : options.preset, profiles)
  // A snapshot made with overrides is served with them, unless others are given.
  const served = servedOverrides(options.overrides, snapshot?.snapshot.overrides, options.alwaysLoad)
  const timing = { timeout: timerMs(options.timeoutMs ?? 60_000, 'timeoutMs'), resetTimeoutOnProgress: true as const }
  const questions = questionBridge(timing.timeout)
  const downstream = downstreams(options.notify, log)
  const observers = proxyObservers(upstream, options)
  const forward = forwarder(upstream, { ...observers, ...(connection.transport ? { transport: connection.transport } : {}), timing, maxInFlight: options.maxInFlight ?? 64, questions, fixed: name => versions.current()?.fixed.get(name), hidden: name => served.hiddenParameters.get(name) })
  const preset = (options.preset === 'auto' ? undefined : options.preset) ?? snapshot?.snapshot.options.preset
  // A snapshot's budget holds where none is given: its strict tools are chosen within it again.
  const strictBudget = options.strictBudget ?? snapshot?.snapshot.options.strictBudget
  const versions = listVersions(upstream, {
    ...definedOf(options, ['validator', 'onInvalid', 'frozen', 'compile', 'outputs', 'surface', 'countTokens', 'cacheScope', 'rules']),
    ...(snapshot ? { snapshot } : {}),
    ...knownOf(options.known, profiles),
    ...(preset ? { preset } : {}),
    ...(strictBudget === undefined ? {} : { strictBudget }),
    profiles,
    profile: options.profile,
    served,
    timeoutMs: timing.timeout,
    handler: forward.tool,
    withdrawn: new Set(),
    // The proxy's own changes (output schemas withdrawn) told once per quarter second at most.
    listChanged: throttled(() => downstream.tell({ method: 'notifications/tools/list_changed' }), 250),
    log,
  })
  // Served before the upstream is connected: the snapshot's list, as it recorded the upstream's.
  if (connection.connected && snapshot)
    await versions.ahead()
  const listedAhead = versions.current()?.listed
  // The upstream's handlers hold from the start: it may ask (roots) as soon as it is initialized.
  let listed = Promise.resolve()
  listenToUpstream(upstream, { ready: () => listed, refresh: versions.refresh, downstreams: downstream, questions, asks: options.asks !== false, timeoutMs: timing.timeout, log, where: connection.where })
  listed = firstList(versions, { served, listedAhead, downstream, log, where: connection.where })
  if (options.wait === 'connection')
    listed.catch(() => {}) // the caller hears of it through `ready`
  else
    await listed
  const service = currentService(versions, listed, upstream.settled)
  const info = options.info ?? upstream.getServerVersion() ?? { name: 'flatmcp-proxy', version: '0' }
  const current = (): ListVersion => versions.current()!
  return {
    server: serverFactory(upstream, { info, profile: options.profile, ...(options.rules ? { rules: options.rules } : {}), service, forward, downstreams: downstream, ...observers }),
    ready: listed,
    refresh: async () => void await versions.refresh(),
    tools: () => current().tools,
    drift: () => current().drift,
    served: () => ({
      names: new Set(current().tools.keys()),
      unmatched: current().unmatched,
      // A name under the prefix of a gateway's server that is down goes to that server: not a name the files got wrong.
      down: name => upstream.lane !== undefined && !upstream.origins?.().has(name) && upstream.lane({ method: 'tools/call', params: { name } }) !== undefined,
    }),
    snapshot: generator => toSnapshot(current().listed, { generator, upstream: upstream.getServerVersion() ?? { name: 'unknown', version: '0' }, handshake: handshakeOf(upstream), preset: current().preset, profiles, ...(strictBudget === undefined ? {} : { strictBudget }), ...(upstream.origins ? { origins: upstream.origins() } : {}), ...(served.overrides ? { overrides: served.overrides, fixed: current().fixed } : {}) }),
    get where() {
      return connection.where
    },
    onNotification: downstream.listen,
    onUpstreamEnd: handler => connection.onEnd(handler),
    health: proxyHealth(listed, upstream),
    close: () => connection.close(),
  }
}

/** Tools compiled before, where they fit the profiles served; none otherwise (everything is compiled). */
function knownOf(known: unknown, profiles: readonly Compiler.ProfileName[]): { known?: ReturnType<typeof snapshotFor> } {
  if (known === undefined)
    return {}
  try {
    return { known: snapshotFor(known, undefined, profiles) }
  }
  catch {
    return {}
  }
}

/** The upstream's first list read: the overrides said once they held against it; a list served ahead and not the upstream's own is listed anew. */
function firstList(versions: ListVersions, context: { served: ServedOverrides, listedAhead: ListVersion['listed'] | undefined, downstream: Downstreams, log: OperatorLog, where: string }): Promise<void> {
  const { served, listedAhead, downstream, log } = context
  return versions.refresh().then(() => {
    for (const line of served.overrides ? describeOverrides(served.overrides, versions.current()!.unmatched) : [])
      log(line, 'info')
    if (listedAhead && !sameList(listedAhead, versions.current()!.listed))
      downstream.tell({ method: 'notifications/tools/list_changed' })
  }, (error: unknown) => {
    throw listSetupError(error, context.where)
  })
}

/** The tool service a session is served, as the list stands: waiting for the first list, then the current one's. */
function currentService(versions: ListVersions, listed: Promise<void>, settled: UpstreamClient['settled']): () => ToolService {
  let live = false
  void listed.then(() => {
    live = true
  }, () => {})
  // Before the first list is compiled, a request waits for it; a list served ahead is listed, and calls wait.
  const whenListed: ToolService = {
    list: async profile => (versions.current() ?? await listed, versions.current()!.served.service().list(profile)),
    call: async (...args) => (await listed, versions.current()!.served.service().call(...args)),
    read: async (...args) => (await listed, versions.current()!.served.service().read(...args)),
  }
  // A gateway: a list asked for after a member is said to come or go is the list read since.
  const afterSettled: ToolService | undefined = settled && {
    list: async profile => (await settled(), versions.current()!.served.service().list(profile)),
    call: async (...args) => versions.current()!.served.service().call(...args),
    read: async (...args) => versions.current()!.served.service().read(...args),
  }
  return () => live ? afterSettled ?? versions.current()!.served.service() : whenListed
}
