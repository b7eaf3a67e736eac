// Any MCP server's tools, served flat: the upstream's list compiled as a build compiles a module's
// (JSON Schema front end, the preset its fingerprints name), each tool a tool whose handler
// forwards, served by the runtime's own serving (profiles, repair, inverse maps). Everything else
// passes through both ways unchanged. The upstream is a connected client, or a command or URL the
// proxy connects to itself (with what makes a real upstream behave: `connection.ts`).
import type * as Compiler from '@flatmcp/core'
import type { ProxiedTool, Snapshot } from '../artifact/format'
import type { McpServerOptions, ServedRequest } from '../service/options'
import type { ToolDefinition } from '../tool/define-tool'
import type { Validator } from './compile/chooser'
import type { Message, OfferedCapabilities, Upstream, UpstreamClient, UpstreamTarget } from './upstream/connect'
import type { ForwardedResult } from './serve/outputs'
import type { ToolService } from '../service/tool-service'
import type { Surface } from '../service/options'
import type { StartedCommand } from './upstream/stdio'
import type { ServedTools } from './serve/served-tools'
import type { Drift } from './compile/snapshot-drift'
import type { FixedParameter, Overrides } from './compile/overrides'
import { TARGET_NAMES } from '@flatmcp/core'
import { Server } from '@modelcontextprotocol/server'
import { toSnapshot } from '../artifact/write'
import { DISCLOSURE_CAPABILITY } from '../service/disclosure'
import { serveTools, unknownTool } from '../host/sdk-v2'
import { PROTOCOL_ERROR } from '../service/results'
import { logLine } from '../util/log'
import { opening, timerMs, within } from '../util/wait'
import { compileUpstreamList } from './compile/compile-list'
import { connectUpstream, isUpstreamTarget } from './upstream/connect'
import { ANY_RESULT, forwardedParams, relay } from './upstream/forward'
import { fallbacksOf } from './compile/fallbacks'
import { questionBridge } from './serve/questions'
import { servedTools } from './serve/served-tools'
import { listSetupError } from './upstream/setup-error'
import { callSlots } from './serve/slots'
import { describeDrift, driftOf, readSnapshot } from './compile/snapshot-drift'
import { checkFixed, describeOverrides, readOverrides, withFixed } from './compile/overrides'
import { readUpstream, shown } from './compile/read-list'

export type { Message, UpstreamClient, UpstreamTarget } from './upstream/connect'
export type { UpstreamTool } from './compile/read-list'

export interface ProxyOptions {
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
   * one past those is answered at once with a tool error. Default: 64.
   */
  maxInFlight?: number
  /**
   * Where the upstream's own notifications go besides the connected downstream session (stdio): a
   * stateless HTTP serving entry tells its listeners of list changes here. Called after the proxy has
   * compiled a changed tool list.
   */
  notify?: (notification: Message) => void
  /** Where operator lines go. Default: one line on stderr. */
  log?: (line: string) => void
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
  /**
   * The operator's overrides (`readOverrides` checks a parsed file): tools hidden, parameters hidden
   * or fixed (set on every call), descriptions replaced, `alwaysLoad` and `searchHint` marked. Said on
   * `log` at start-up; a snapshot records them, and a proxy given that snapshot applies them unless
   * others are given here.
   */
  overrides?: Overrides
  /** Where the upstream is a command: that command, started already (`startCommand` of `@flatmcp/runtime/proxy/spawn`). */
  started?: StartedCommand
}

/** What the proxy says of one tool it serves. */
export interface ServedTool {
  served: 'compiled' | 'as-is'
  /** Why it is served as it came. */
  reason?: string
  /** Served from the snapshot, without compiling. */
  fromSnapshot: boolean
  diagnostics: readonly Compiler.ToolDiagnostic[]
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
  /** The list as served now, as a snapshot (`generator` names what made it: `flatmcp@1.0.0`). */
  snapshot: (generator: string) => Snapshot
  /** What a log line may say of the upstream: its command, or its URL without credentials or query. */
  where: string
  /**
   * Hears each notification the upstream sends on its own (after a changed list is compiled), as
   * `notify` does: a serving entry passes them to its listeners. Returns what stops it.
   */
  onNotification: (listener: (notification: Message) => void) => () => void
  /** Called when an upstream the proxy started ends on its own (its process exited). */
  onUpstreamEnd: (handler: () => void) => void
  /** Closes the upstream connection the proxy made (a client it was given is the caller's to close). */
  close: () => Promise<void>
}

/** A tool of the list as served, and whether it came from the snapshot. */
interface ListVersion {
  served: ServedTools
  tools: Map<string, ServedTool>
  /** What is served, in the list's order. */
  listed: ProxiedTool[]
  /** Every tool compiled for this list version (those left out by `onInvalid: 'drop'` too): what the next one reuses. */
  compiled: ProxiedTool[]
  preset: Compiler.PresetName
  drift: Drift
  /** Each tool's fixed parameters (overrides), with the upstream's schema of each. */
  fixed: Map<string, Record<string, FixedParameter>>
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
    const connection = await connectUpstream(target, { ...(options.offer === undefined ? { asks: options.asks } : { offer: options.offer }), ...(options.started ? { started: options.started } : {}), log })
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
  return proxyOver({ client: upstream, where: upstream.getServerVersion()?.name ?? 'the upstream', onEnd: () => {}, close: async () => {} }, options, log)
}

async function proxyOver(connection: Upstream, options: ProxyOptions, log: (line: string) => void): Promise<Proxy> {
  const upstream = connection.client
  const profiles = options.profiles ?? (typeof options.profile === 'function' ? [...TARGET_NAMES] : typeof options.profile === 'string' && options.profile !== 'portable' ? [options.profile as Compiler.ProfileName] : [])
  const given = options.preset === 'auto' ? undefined : options.preset
  const snapshot = options.snapshot === undefined ? undefined : readSnapshot(options.snapshot)
  if (snapshot) {
    const made = snapshot.snapshot.options
    if (given !== undefined && given !== made.preset)
      throw new TypeError(`the snapshot was compiled with preset ${made.preset}, not ${given}: snapshot the upstream again with that preset, or leave the preset out`)
    const missing = profiles.filter(profile => profile !== 'portable' && !made.profiles.includes(profile))
    if (missing.length > 0)
      throw new TypeError(`the snapshot holds no ${missing.join(', ')} profile (it has ${['portable', ...made.profiles].join(', ')}): snapshot the upstream again with --profile ${missing[0]}`)
  }
  const preset = given ?? snapshot?.snapshot.options.preset
  const snapshotTools = snapshot?.tools ?? []
  const fromSnapshot = new Set(snapshotTools)
  let current: ListVersion | undefined
  let latest: Server | undefined
  /** The client that can be asked the upstream's questions: a 2025 session, or a 2026-07-28 client in the rounds of its calls. */
  const session = opening<Server | 'rounds'>()
  const listeners = new Set<(notification: Message) => void>()
  if (options.notify)
    listeners.add(options.notify)

  const tell = (notification: Message): void => {
    void latest?.notification(notification as never).catch(() => {})
    for (const listener of listeners)
      listener(notification)
  }
  /** The tools whose output schema is no longer listed (their upstream broke it), across list versions. */
  const withdrawn = new Set<string>()

  // A snapshot made with overrides is served with them, unless others are given.
  const recorded = snapshot?.snapshot.overrides
  const overrides = options.overrides ?? (recorded ? readOverrides(recorded.file) : undefined)
  for (const line of overrides ? describeOverrides(overrides) : [])
    log(line)
  const hidden = new Set(Object.entries(overrides?.tools ?? {}).filter(([, tool]) => tool.hide).map(([name]) => name))
  // The operator's alwaysLoad marks list a tool beside the search surface's three too.
  const alwaysLoad = [...new Set([...(options.alwaysLoad ?? []), ...Object.entries(overrides?.tools ?? {}).filter(([, tool]) => tool.alwaysLoad).map(([name]) => name)])]
  const timing = { timeout: timerMs(options.timeoutMs ?? 60_000, 'timeoutMs'), resetTimeoutOnProgress: true }
  const questions = questionBridge(timing.timeout)
  const maxInFlight = options.maxInFlight ?? 64
  const slots = callSlots(maxInFlight, maxInFlight * 4)
  const busy = (): string => `The server behind this proxy has ${slots.running} requests in flight and ${slots.waiting} waiting, its limit; try again shortly.`
  const forward = (name: string): ToolDefinition['handler'] => async (input, context) => {
    const release = await slots.take(context.signal)
    if (release === undefined)
      return { isError: true, content: [{ type: 'text', text: busy() }] } as never
    const relayed = relay(context.progress)
    // A 2026-07-28 call spans rounds where the upstream asks its client something: its upstream call
    // outlives the round that sent it (that round's signal), so only its time limit bounds it.
    const send = (signal?: AbortSignal): Promise<unknown> => upstream.request(
      { method: 'tools/call', params: { ...forwardedParams(context.meta === undefined ? undefined : { _meta: context.meta }), name, arguments: withFixed(input, current?.fixed.get(name)) as Record<string, unknown> } },
      ANY_RESULT,
      { ...timing, ...(signal ? { signal } : {}), ...(relayed ? { onprogress: relayed.onprogress } : {}) },
    )
    try {
      const result = (context.rounds ? await questions.call(context.rounds, () => send()) : await send(context.signal)) as ForwardedResult | null
      await relayed?.sent()
      // A result no client could read is said as a tool error, not passed on (nor read as a handler's plain value).
      if (typeof result !== 'object' || result === null || (!Array.isArray(result.content) && result.resultType === undefined))
        return { isError: true, content: [{ type: 'text', text: `The server behind this proxy answered the call to "${name}" with something that is not a tool result.` }] } as never
      return result as never
    }
    catch (error) {
      // The upstream's JSON-RPC error goes downstream as it came, not as a tool error.
      if (Number.isSafeInteger((error as { code?: unknown } | null)?.code))
        Object.defineProperty(error, PROTOCOL_ERROR, { value: true })
      throw error
    }
    finally {
      release()
    }
  }

  async function refresh(): Promise<void> {
    const { entries, hints, fixed } = await readUpstream(upstream, { timeoutMs: timing.timeout, log, ...(overrides ? { overrides } : {}) })
    checkFixed(fixed, options.validator)
    const drift = snapshot ? driftOf(snapshotTools, new Map(entries.map(entry => [entry.tool.name, entry.digest]))) : { changed: [], added: [], removed: [] }
    const frozenOut = new Set(options.frozen ? [...drift.changed, ...drift.added] : [])
    // The snapshot's tools, and the last list version's, cost nothing to keep: only what is new is compiled.
    const known = [...(snapshot ? [{ preset: snapshot.snapshot.options.preset, tools: snapshotTools }] : []), ...(current ? [{ preset: current.preset, tools: current.compiled }] : [])]
    const list = await compileUpstreamList(entries.filter(entry => !frozenOut.has(entry.tool.name)), { preset: preset ?? 'auto', profiles, ...(options.compile ? { compile: options.compile } : {}), known })
    // Each fallback is said once per list version it first appears in: a snapshot's at start-up, a
    // tool compiled anew when it is.
    const before = new Set(current?.compiled)
    const served = list.tools.filter((tool) => {
      const dropped = tool.served === 'as-is' && options.onInvalid === 'drop'
      if (!before.has(tool)) {
        for (const fallback of fallbacksOf(tool, options.onInvalid))
          log(`flatmcp proxy: tool ${shown(tool.name)} ${fallback}`)
      }
      return !dropped
    })
    if (snapshot && describeDrift(drift) !== '' && describeDrift(drift) !== (current ? describeDrift(current.drift) : ''))
      log(`flatmcp proxy: the upstream no longer matches the snapshot (${describeDrift(drift)}); ${options.frozen ? 'what changed or is new is not served (--frozen)' : 'what changed or is new is compiled anew'}`)
    const tools = new Map(served.map(tool => [tool.name, { served: tool.served, ...(tool.reason === undefined ? {} : { reason: tool.reason }), fromSnapshot: fromSnapshot.has(tool), diagnostics: tool.diagnostics }]))
    // The upstream's cache hints hold for the flat list too, for it changes when the upstream's does;
    // an upstream that gives none said its list may change at any time (ttlMs 0).
    const cache = { ttlMs: hints.ttlMs ?? 0, ...(hints.cacheScope === undefined ? {} : { scope: hints.cacheScope }) }
    current = {
      served: servedTools(served, {
        preset: list.preset,
        ...(options.validator ? { validator: options.validator } : {}),
        profile: options.profile,
        cache,
        handler: forward,
        // A tool the operator hid is no tool: its name is not sent on.
        unknown: (name, args, request) => hidden.has(name) ? Promise.reject(unknownTool(`Unknown tool ${JSON.stringify(name)}.`)) : forward(name)(args as never, { params: undefined, context: undefined, ...request }) as never,
        unknownTool,
        withdrawn,
        ...(options.outputs ? { outputs: options.outputs } : {}),
        ...(options.surface ? { surface: options.surface } : {}),
        ...(alwaysLoad.length > 0 ? { alwaysLoad } : {}),
        onWithdraw: (tool) => {
          log(`flatmcp proxy: tool ${shown(tool.name)} answered with structuredContent its output schema does not take; its output schema is no longer listed, so clients that check results take its answers as they come (said once for this tool)`)
          tell({ method: 'notifications/tools/list_changed' })
        },
      }),
      tools,
      listed: served,
      compiled: list.tools,
      preset: list.preset,
      drift,
      fixed,
    }
  }

  // The upstream's handlers hold from the start: it may ask (roots) as soon as it is initialized.
  // Changes are coalesced: one read of the list in flight, and at most one more after it (a storm of
  // notifications is two reads), so the list read last, the newest, is the one served.
  let reading: Promise<void> | undefined
  let again = false
  const changed = (): void => {
    if (reading) {
      again = true
      return
    }
    reading = ready.catch(() => {}).then(refresh).then(() => tell({ method: 'notifications/tools/list_changed' }), error => log(`flatmcp proxy: the upstream's new tool list could not be read: ${(error as Error).message}`)).finally(() => {
      reading = undefined
      if (again) {
        again = false
        changed()
      }
    })
  }
  upstream.setNotificationHandler('notifications/tools/list_changed', changed)
  // What the upstream sends on its own (logging, resource updates) goes downstream.
  upstream.fallbackNotificationHandler = async notification => tell(notification)
  // Sampling, elicitation and roots: the upstream asks the client behind the proxy, where one keeps a
  // session. A question asked before that client's session is open (roots at start-up) waits for it.
  upstream.fallbackRequestHandler = async (request, ctx) => {
    const asked = options.asks === false ? undefined : await within(session.opened, timing.timeout, ctx.mcpReq.signal)
    if (asked === 'rounds')
      return questions.ask({ method: request.method, ...(request.params === undefined ? {} : { params: request.params }) }, ctx.mcpReq.signal) as Promise<never>
    if (!asked)
      throw Object.assign(new Error(`no client behind this proxy keeps a session that can be asked for ${request.method}`), { code: -32601 })
    return asked.request({ method: request.method, params: request.params } as never, ANY_RESULT as never, { signal: ctx.mcpReq.signal }) as Promise<never>
  }

  const ready = refresh().catch((error: unknown) => {
    throw listSetupError(error, connection.where)
  })
  if (options.wait === 'connection')
    ready.catch(() => {}) // the caller hears of it through `ready`
  else
    await ready
  // Before the first list is compiled, a request waits for it.
  const whenListed: ToolService = {
    list: async profile => (await ready, current!.served.service().list(profile)),
    call: async (...args) => (await ready, current!.served.service().call(...args)),
    read: async (...args) => (await ready, current!.served.service().read(...args)),
  }
  const mirrored = upstream.getServerCapabilities() ?? {}
  // The proxy's list may change where the upstream's does not (an output schema withdrawn): it says so.
  const capabilities = { ...mirrored, tools: { ...(mirrored.tools as object | undefined), listChanged: true, ...DISCLOSURE_CAPABILITY } }
  const info = options.info ?? upstream.getServerVersion() ?? { name: 'flatmcp-proxy', version: '0' }
  const instructions = upstream.getInstructions()
  return {
    server(request) {
      const server = new Server(info, { capabilities, ...(instructions === undefined ? {} : { instructions }) })
      serveTools(server, () => current?.served.service() ?? whenListed, { profile: options.profile, ...(request ? { request } : {}) })
      // Every other request (a resource read, a prompt) takes a slot as a call does: none is unbounded.
      server.fallbackRequestHandler = (async (message: Message, ctx: { mcpReq: { signal: AbortSignal, notify: (notification: Message) => Promise<void> } }) => {
        const release = await slots.take(ctx.mcpReq.signal)
        if (release === undefined)
          throw Object.assign(new Error(busy()), { code: -32000 })
        try {
          const token = (message.params?._meta as { progressToken?: unknown } | undefined)?.progressToken
          const relayed = relay(token === undefined ? undefined : update => ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...update, progressToken: token } }))
          const params = forwardedParams(message.params)
          const result = await upstream.request({ method: message.method, ...(params === undefined ? {} : { params }) }, ANY_RESULT, { ...timing, signal: ctx.mcpReq.signal, ...(relayed ? { onprogress: relayed.onprogress } : {}) })
          await relayed?.sent()
          return result
        }
        finally {
          release()
        }
      }) as never
      server.fallbackNotificationHandler = async (notification) => {
        const params = forwardedParams((notification as Message).params)
        await upstream.notification({ method: (notification as Message).method, ...(params === undefined ? {} : { params }) })
      }
      // A stdio connection (or a 2025 session) keeps a session the upstream's own messages can reach; one stateless HTTP request does not.
      if (!request?.requestInfo) {
        latest = server
        // A 2025 session is asked questions once it is initialized; a 2026-07-28 client, in the rounds of its calls.
        if (request?.era === 'modern')
          session.open('rounds')
        else
          server.oninitialized = () => session.open(server)
      }
      return server
    },
    ready,
    refresh,
    tools: () => current!.tools,
    drift: () => current!.drift,
    snapshot: generator => toSnapshot(current!.listed, { generator, upstream: upstream.getServerVersion() ?? { name: 'unknown', version: '0' }, preset: current!.preset, profiles, ...(overrides ? { overrides, fixed: current!.fixed } : {}) }),
    where: connection.where,
    onNotification(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onUpstreamEnd: handler => connection.onEnd(handler),
    close: () => connection.close(),
  }
}
