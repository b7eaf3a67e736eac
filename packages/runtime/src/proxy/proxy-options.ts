// What `createProxy` is given and what it gives back: the options (each default said where it is
// declared) and the proxy's handle. Apart from the function, so each reads in one sitting.
import type * as Compiler from '@flatmcp/core'
import type { Snapshot } from '../artifact/format'
import type { CallerRules } from '../service/caller-rules'
import type { McpServerOptions, ServedRequest, Surface } from '../service/options'
import type { OperatorLog } from '../util/log'
import type { Validator } from './compile/chooser'
import type { Overrides } from './compile/overrides'
import type { Drift } from './compile/snapshot-drift'
import type { ServedAtStart } from './compile/startup-checks'
import type { ProxyHealth } from './serve/health'
import type { ServedTool } from './serve/list-versions'
import type { CallObservers } from './serve/observed'
import type { StartedCommand } from './upstream/command-process'
import type { Message, OfferedCapabilities } from './upstream/upstream'
import type { Server } from '@modelcontextprotocol/server'

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
   * Tools compiled before (a snapshot, parsed, as `proxy.snapshot()` makes it), to compile less: a
   * live tool whose definition has the digest it recorded is taken from it without compiling, and a
   * list whose every tool it recorded so is read with its preset. Unlike `snapshot`, nothing is served
   * from it before the upstream lists, no drift from it is said, and one that does not fit (another
   * profile, not a snapshot at all) is passed over: everything is compiled.
   */
  known?: unknown
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
