// Any MCP server's tools, served flat: the upstream's list compiled as a build compiles a module's
// (JSON Schema front end, the preset its fingerprints name), each tool a tool whose handler
// forwards, served by the runtime's own serving (profiles, repair, inverse maps). Everything else
// passes through both ways unchanged. The upstream is a connected client, or a command or URL the
// proxy connects to itself (with what makes a real upstream behave: `upstream/`). The stages meet here:
// upstream/ connects, compile/ reads and compiles the list, serve/ serves it and forwards calls.
import type * as Compiler from '@flatmcp/core'
import type { Snapshot } from '../artifact/format'
import type { McpServerOptions, ServedRequest, Surface } from '../service/options'
import type { ToolService } from '../service/tool-service'
import type { Validator } from './compile/chooser'
import type { Overrides } from './compile/overrides'
import type { CallerRules } from '../service/caller-rules'
import type { Drift } from './compile/snapshot-drift'
import type { ServedAtStart } from './compile/startup-checks'
import type { ListVersion, ServedTool } from './serve/list-versions'
import type { ProxyHealth } from './serve/health'
import type { CallObservers } from './serve/observed'
import type { Message, OfferedCapabilities, Upstream, UpstreamClient, UpstreamTarget } from './upstream/upstream'
import type { StartedCommand } from './upstream/stdio'
import type { Server } from '@modelcontextprotocol/server'
import { TARGET_NAMES } from '@flatmcp/core'
import { toSnapshot } from '../artifact/write'
import type { OperatorLog } from '../util/log'
import { logLine } from '../util/log'
import { definedOf } from '../util/object'
import { throttled, timerMs } from '../util/wait'
import { describeOverrides } from './compile/overrides'
import { recordedHandshake, sameList, snapshotFor } from './compile/snapshot-drift'
import { downstreams, serverFactory } from './serve/downstream'
import { forwarder } from './serve/forward-call'
import { proxyHealth } from './serve/health'
import { proxyObservers } from './serve/observed'
import { listVersions } from './serve/list-versions'
import { questionBridge } from './serve/questions'
import { servedOverrides } from './serve/served-overrides'
import { listenToUpstream } from './serve/upstream-events'
import { clientUpstream } from './upstream/client'
import { withFittedNames } from './upstream/fitted-names'
import { connectAhead, connectUpstream } from './upstream/connect'
import { handshakeOf, isUpstreamTarget } from './upstream/upstream'
import { listSetupError } from './upstream/setup-error'

export interface ProxyOptions extends CallObservers {
  /** The profile served, as `createMcpServer`'s `profile` (a name, or a choice per request). Default: `portable`. */
  profile?: McpServerOptions['profile']
  /** The target profiles to compile besides `portable`. Default: the `profile` named, or every one for a choice function. */
  profiles?: Compiler.ProfileName[]
  /** The parser the upstream's schemas were generated for. Default: detected over its whole list (or the snapshot's). */
  preset?: Compiler.PresetName | 'auto'
  /**
   * Compiles one of the upstream's schemas into a test of a value: it picks which reading of a call
   * goes upstream (the first it accepts; else the first reading), never refuses one: the upstream's
   * parser decides. It gets the schema without the keywords a validator may spend more than linear
   * time on (`pattern`, `format`, `uniqueItems`…), and is built on a tool's first call. Default: no
   * choice (the first reading).
   */
  validator?: Validator
  /** A tool the compiler cannot improve: served as it came (default) or left out. Said on stderr either way. */
  onInvalid?: 'serve' | 'drop'
  /**
   * A snapshot of the upstream (`flatmcp snapshot`'s artifact, parsed): a live tool whose definition
   * has the digest the snapshot recorded is served from it without compiling; one that differs, or is
   * new, is compiled anew (said on stderr), or left out with `frozen`.
   */
  snapshot?: unknown
  /** With a snapshot: serve only what it holds. A live tool that differs from it, or is new, is left out. */
  frozen?: boolean
  /**
   * Points of Anthropic's combined strict grammar the anthropic-strict tools may spend together
   * (default: the compiler's DEFAULT_STRICT_BUDGET, 48); the tools left out are served as portable there, said on stderr.
   */
  strictBudget?: number
  /** Bounds on compiling one upstream tool. */
  compile?: {
    /** Milliseconds one tool's compile may take (on a watched thread, where Node's are at hand). Default: 10,000. */
    timeoutMs?: number
    /** The compiler thread's heap, in megabytes. Default: 1,024. */
    memoryMb?: number
    /** A schema whose JSON text is longer (the upstream's, or a compiled form) is served as it came. Default: 262,144. */
    maxSchemaBytes?: number
  }
  /** The name and version the proxy gives downstream. Default: the upstream's, as it said them. */
  info?: { name: string, version: string }
  /** How long one request may wait for the upstream, in milliseconds (progress restarts it). Default: 60,000. */
  timeoutMs?: number
  /**
   * Tool calls the upstream may have in flight at once; four times as many more wait their turn, and
   * one past those is answered at once with a tool error. Behind a gateway, each server has as many
   * of its own. Default: 64.
   */
  maxInFlight?: number
  /**
   * Where the upstream's own notifications go besides the connected downstream session (stdio): a
   * stateless HTTP serving entry tells its listeners of list changes here. Called after the proxy has
   * compiled a changed tool list.
   */
  notify?: (notification: Message) => void
  /** Where operator lines go, each `info` or not (see `OperatorLog`). Default: one line on stderr. */
  log?: OperatorLog
  /**
   * Where the proxy connects to its upstream itself: whether the upstream may ask the proxy's client
   * (sampling, elicitation, roots), answered by the downstream session that keeps one. Default: true;
   * false for a proxy served only statelessly.
   */
  asks?: boolean
  /**
   * Where the proxy connects to its upstream itself and one client keeps a session (stdio): what that
   * client offers (its capabilities, or a promise of them, which the upstream's handshake waits for),
   * so the upstream is offered only what the client can do. Default: by `asks`, every question or none.
   */
  offer?: OfferedCapabilities | Promise<OfferedCapabilities>
  /**
   * What `createProxy` waits for: the upstream's list compiled (`list`, the default), or only the
   * connection (`connection`: a client's first `tools/list` waits for the list instead, and `ready`
   * says when it is compiled), so a client's `initialize` is answered as soon as the upstream's is.
   * With `connection`, a snapshot that records the upstream's handshake and an upstream the proxy
   * connects to itself (and no `overrides` but the snapshot's), it waits for nothing: `initialize`
   * and `tools/list` are answered from the snapshot until the upstream lists its own tools (a list
   * that differs is then told with `list_changed`), and calls wait for the upstream.
   */
  wait?: 'list' | 'connection'
  /**
   * How the upstream's output schemas are listed: compiled (the default), or not at all (`unlisted`):
   * clients that check results then check none, for a server whose results do not match its own
   * output schemas (a mismatch otherwise fails that call in such a client, and withdraws the schema).
   */
  outputs?: 'compiled' | 'unlisted'
  /**
   * What a session's list holds: every tool (the default), or three tools that find, describe and
   * call them (`search`), for clients that send every listed tool to the model on every turn.
   */
  surface?: Surface
  /** With `surface: 'search'`: the tools listed beside the three, as they are. */
  alwaysLoad?: readonly string[]
  /** With `surface: 'auto'`: how tokens are counted (a tokenizer's count of a text). Default: four characters a token. */
  countTokens?: (text: string) => number
  /**
   * The operator's overrides (`readOverrides` checks a parsed file): tools hidden, parameters hidden
   * or fixed (set on every call), descriptions replaced, `alwaysLoad` and `searchHint` marked. Said on
   * `log` at start-up; a snapshot records them, and a proxy given that snapshot applies them unless
   * others are given here.
   */
  overrides?: Overrides
  /**
   * The `cacheScope` of the list served, over the upstream's: `private` wherever callers present a
   * credential or see lists of their own (MCP-2026-008: a shared cache must not answer one caller
   * with another's list). Default: the upstream's, else `public` (`private` where the profile is
   * chosen per request).
   */
  cacheScope?: 'public' | 'private'
  /**
   * Which caller is served which tools (`authInfo.clientId`, the name `--callers` gives a credential;
   * `stdio` over stdio): a tool a caller's rule does not admit is not listed, not found by the search
   * surface, and a call of it is answered as one of a name no tool has. See `CallerRules`.
   */
  rules?: CallerRules
  /** Where the upstream is a command: that command, started already (`startCommand` of `@flatmcp/runtime/proxy/spawn`). */
  started?: StartedCommand
}

export interface Proxy {
  /** An SDK 2.x `Server` for one downstream connection (or one stateless request), as a serving entry's factory makes it. */
  server: (request?: ServedRequest) => Server
  /**
   * Settles when the upstream's first list is compiled: at once where `createProxy` waited for it; a
   * list that cannot be read rejects it with a `ProxySetupError`. `tools`, `drift` and `snapshot` say
   * nothing before it.
   */
  ready: Promise<void>
  /** The upstream's list compiled anew (the proxy does it itself on `notifications/tools/list_changed`). */
  refresh: () => Promise<void>
  /** The tools as they are served now, by name, and the compiler's word on each. */
  tools: () => ReadonlyMap<string, ServedTool>
  /** How the live list differs from the snapshot the proxy was given (nothing without one). */
  drift: () => Drift
  /** What the list served holds for the start-up checks (`startupProblems`): the names served, what the overrides name that it lacks. */
  served: () => ServedAtStart
  /** The list as served now, as a snapshot (`generator` names what made it: `flatmcp@1.0.0`). */
  snapshot: (generator: string) => Snapshot
  /** What a log line may say of the upstream: its command, or its URL without credentials or query. */
  where: string
  /**
   * Hears each notification the upstream sends on its own (after a changed list is compiled), as
   * `notify` does: a serving entry passes them to its listeners. Returns what stops it.
   */
  onNotification: (listener: (notification: Message) => void) => () => void
  /** Called when an upstream the proxy started ends on its own (its process exited), or was ended for what it did (`why`). */
  onUpstreamEnd: (handler: (why?: string) => void) => void
  /** Whether it can serve now: its list compiled and its upstream answering a ping (`/readyz` over HTTP). */
  health: () => Promise<ProxyHealth>
  /** Closes the upstream connection the proxy made (a client it was given is the caller's to close). */
  close: () => Promise<void>
}

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
  listed = versions.refresh().then(() => {
    // The overrides said once they held against the list; a list served ahead and not the upstream's own is listed anew.
    for (const line of served.overrides ? describeOverrides(served.overrides, versions.current()!.unmatched) : [])
      log(line, 'info')
    if (listedAhead && !sameList(listedAhead, versions.current()!.listed))
      downstream.tell({ method: 'notifications/tools/list_changed' })
  }, (error: unknown) => {
    throw listSetupError(error, connection.where)
  })
  if (options.wait === 'connection')
    listed.catch(() => {}) // the caller hears of it through `ready`
  else
    await listed
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
  // Many servers as one: a list asked for after a server is said to come or go is the list read since.
  const settled = upstream.settled
  const afterSettled: ToolService | undefined = settled && {
    list: async profile => (await settled(), versions.current()!.served.service().list(profile)),
    call: async (...args) => versions.current()!.served.service().call(...args),
    read: async (...args) => versions.current()!.served.service().read(...args),
  }
  const info = options.info ?? upstream.getServerVersion() ?? { name: 'flatmcp-proxy', version: '0' }
  const current = (): ListVersion => versions.current()!
  return {
    server: serverFactory(upstream, { info, profile: options.profile, ...(options.rules ? { rules: options.rules } : {}), service: () => live ? afterSettled ?? versions.current()!.served.service() : whenListed, forward, downstreams: downstream, ...observers }),
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
