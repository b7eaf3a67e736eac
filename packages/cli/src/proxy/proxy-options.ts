// What `flatmcp proxy` runs with: its command line read (commands/proxy.ts) as `runProxy` takes it.
import type { PresetName, ProfileName } from '@flatmcp/core'
import type { CallerLimits, CallerRules, GatewayEntry, HttpServing, OperatorLog, Overrides, RateLimits, UpstreamTarget } from '@flatmcp/runtime/proxy'
import type { StartedCommand } from '@flatmcp/runtime/proxy/spawn'
import type { LogLevel } from './operator-log'
import type { EarlyStdio } from './early-answers'
import type { ListCache } from './list-cache'

export interface ProxyCommandOptions {
  /** The upstream: its command (over stdio), or its URL and the headers sent with every request. */
  upstream?: UpstreamTarget
  /** Or many servers served as one (`--config`): each entry's name, where it is, and the tools its config keeps. */
  gateway?: GatewayEntry[]
  /** The config file the gateway's entries come from (said in the command that refreshes its snapshot). */
  config?: string
  /** How long one request may wait for the upstream, in milliseconds. */
  timeoutMs?: number
  /** How long compiling one upstream tool may take, in milliseconds (past it, the tool is served as it came). */
  compileTimeoutMs?: number
  /** Points of Anthropic's strict grammar the anthropic-strict tools may spend together (`--strict-budget`). */
  strictBudget?: number
  profile?: ProfileName
  /** The profiles compiled (a snapshot's, or every target profile for `--http`'s routes). */
  profiles?: ProfileName[]
  preset?: PresetName | 'auto'
  onInvalid?: 'serve' | 'drop'
  /** A snapshot file (`flatmcp snapshot`'s) to serve from, and whether to serve only what it holds. */
  artifact?: string
  frozen?: boolean
  /** Serve stateless HTTP on this address instead of stdio, to the callers it names. */
  http?: HttpServing
  /** Over HTTP, how long a SIGTERM's drain may wait for the calls in flight (`--drain-timeout`). */
  drainTimeoutMs?: number
  /** How the upstream's output schemas are listed (`--outputs`). */
  outputs?: 'compiled' | 'unlisted'
  /** What a session's list holds (`--surface`), and the tools listed beside the search surface (`--always-load`). */
  surface?: 'full' | 'search' | 'auto'
  alwaysLoad?: string[]
  /** The operator's overrides (`--overrides file`, read by `readOverridesFile`), and the file they were read from. */
  overrides?: Overrides
  overridesFile?: string
  /** Over stdio, the client's limits (`--callers` file's `stdio` entry). */
  limits?: CallerLimits
  /** Each tool's limits, all callers together (`--callers` file's top-level `tools`). */
  toolLimits?: Record<string, RateLimits>
  /** The `--callers` file, whatever it holds (what its next version holds may change the tools listed). */
  callersFile?: string
  /** Which caller is served which tools (the `--callers` file's rules), and that file. */
  rules?: { file: string, rules: CallerRules }
  /** A file that gets one JSON line per tool call (`--audit-log`). */
  auditLog?: string
  /** The upstream command, started already (before the MCP SDK loaded). */
  started?: StartedCommand
  /** Over stdio, the client's first requests, read (and perhaps answered from the answer cache) before the proxy loaded. */
  early?: EarlyStdio
  /** With no snapshot, the list an earlier start with this command line compiled, and where the next is kept. */
  lists?: ListCache
  /** Which operator lines reach stderr (`--log-level`). Default: info. */
  logLevel?: LogLevel
  /** Where operator lines go. Default: stderr, at `logLevel`. */
  log?: OperatorLog
}
