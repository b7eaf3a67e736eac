// What `createMcpServer` takes, on either SDK major, and what a call's handler learns of its request.
import type { OtelApi } from '../telemetry/otel-api'
import type { AskForm } from '../elicit/ask'
import type { InferOutput, ProgressUpdate, StandardSchemaV1, TraceContext } from '../tool/define-tool'
import type { CallerRules } from './caller-rules'
import type { ServedAs } from './choice-key'
import type { ProfileChoice } from './profile-choice'
import { unknownKeys } from '../util/closest-name'

/**
 * Which tools a session's list holds: every one (`full`, the default), the three that find, describe
 * and call them (`search`, search/surface.ts), or whichever costs a session less (`auto`, search/auto-surface.ts).
 */
export type Surface = 'full' | 'search' | 'auto'

/** What `surface: 'auto'` chose for one profile's list, and the tokens it chose by. */
export interface SurfaceChoice {
  profile: string | undefined
  surface: 'full' | 'search'
  tools: number
  /** The full list's tokens. */
  full: number
  /** The search surface's list (its three tools and the ones loaded always), and one describe answer of a median tool. */
  search: { list: number, describe: number }
}

/** What one view serves: some of the tools (all where none are named), a profile, a surface. */
export interface ToolView {
  tools?: readonly string[]
  profile?: string
  surface?: 'full' | 'search'
}

/** What `extend.resolve` learns of the request besides the shared fields. */
export interface RequestInfo {
  signal: AbortSignal
  sessionId?: string
  authInfo?: unknown
  /** Where the call asked for progress: sends one `notifications/progress` for it. */
  progress?: (progress: ProgressUpdate) => Promise<void>
  /** The call's `_meta`, as the client sent it. */
  meta?: Record<string, unknown>
  /** Asks the client one form, where it offers elicitation: `elicitation/create` in a 2025 session, a replayed answer or `InputNeeded` in 2026-07-28. */
  ask?: AskForm
  /** In a 2026-07-28 call: what the last `input_required` round minted and the client's answers to it. */
  rounds?: InputRounds
  /**
   * Filled as the call is read, where someone observes calls (`onCall`): the name called and the
   * arguments sent (through `call_tool`, those it named), the tool reached (none for a name no tool
   * has) and the input the arguments were read as.
   */
  observed?: { called?: string, sent?: unknown, tool?: string, input?: unknown, served?: ServedAs }
  /** The OpenTelemetry context that holds the request's SERVER span, where the server traces: the handler's `trace`. */
  trace?: TraceContext
}

/** One tools/call as `onCall` hears it: never an argument's value, a result or a credential. */
export interface ObservedCall {
  /** When it came, as an ISO 8601 time. */
  time: string
  /** The tool called (through `call_tool`, the tool it named). */
  tool: string
  /** The name of the credential the caller presented (`authInfo.clientId`), where there is one. */
  caller?: string
  /** The profile it was read in (a view's own, where it came through one; none: the base profile). */
  profile?: string
  /** The view it came through, where one applies (one a request named, or the one its caller is pinned to). */
  view?: string
  /** The request's JSON-RPC id (a string cut as `caller` is). */
  id?: string | number
  /** `ok`; `tool-error`: the result says `isError`; `error`: a protocol error (an unknown tool, refused arguments). */
  outcome: 'ok' | 'tool-error' | 'error'
  durationMs: number
  /** The JSON Pointers where the input the tool was given differs from the arguments sent (the repair, the inverse map). */
  repaired: string[]
}

/** A 2026-07-28 call's answers to the questions its last round asked (`InputRequired`), and that round's state. */
export interface InputRounds {
  state: unknown
  responses: Record<string, unknown> | undefined
}

/**
 * Fields every tool shares (a tenant, an auth token…): added to every tool's advertised input,
 * parsed once per call, resolved into the handler's `context`, and removed from the tool's own input.
 */
export interface ExtendOptions<S extends StandardSchemaV1 = StandardSchemaV1, C = unknown> {
  schema: S
  // A method, so a typed extend is still an `ExtendOptions` where the service takes any.
  resolve(fields: InferOutput<S>, request: RequestInfo): C | Promise<C>
}

/** What an MCP SDK 2.x serving entry tells its server factory (`McpRequestContext`). */
export interface ServedRequest {
  era?: 'legacy' | 'modern'
  authInfo?: unknown
  requestInfo?: Request
}

export interface McpServerOptions<S extends StandardSchemaV1 = StandardSchemaV1, C = unknown> {
  /** Fields every tool shares; `resolve` gets them typed by `schema`. */
  extend?: ExtendOptions<S, C>
  instructions?: string
  /** Passed through to the SDK's `Server` (the `tools` capability is always on). */
  capabilities?: Record<string, unknown>
  /**
   * Where an error thrown outside a handler goes (a `.refine()` or `.transform()` that throws while
   * the arguments are checked, `extend.resolve` failing). The model gets a plain tool error without
   * the message, which may hold secrets. Default: one line on stderr.
   */
  onError?: (error: unknown, where: CallPhase) => void
  /** Hears each tools/call once it is answered (an audit trail, metrics): what was called, by whom, how it went. */
  onCall?: (call: ObservedCall) => void
  /**
   * OpenTelemetry's API (`await import('@opentelemetry/api')`, with an SDK started): each tools/call
   * traced (a SERVER span as the semantic conventions for MCP name it) and measured. Default: none,
   * and nothing of OpenTelemetry loads.
   */
  telemetry?: OtelApi
  /**
   * The profile this server serves (built with the plugin's `profiles` option): a name for every
   * caller, or a function of what the request carries (`ProfileRequest`: era, URL, headers,
   * authorization, `clientInfo`). A server instance keeps the profile its first list was served.
   * Default: the build's base profile for every caller.
   */
  profile?: ProfileChoice
  /**
   * Points of Anthropic's combined strict grammar the `anthropic-strict` tools may spend together
   * (`flatmcp proxy --strict-budget`'s, for a server of one's own): past it the tools strictness buys
   * least are served in their base form there, each said once on stderr. Default: the compiler's
   * `DEFAULT_STRICT_BUDGET`, 48.
   */
  strictBudget?: number
  /**
   * The request this server instance was made for, as the MCP SDK 2.x serving entries hand their
   * factory (`createMcpHandler(request => createMcpServer(tools, info, { profile, request }))`, or
   * `serveStdio`): its era, authorization and HTTP request reach a `profile` function.
   */
  request?: ServedRequest
  /**
   * The cache hints `tools/list` carries (MCP 2026-07-28, SEP-2549). Default: a list that cannot vary
   * (no `profile`, or a plain name) is `public` for an hour; one a choice function may vary is `private`
   * for an hour. Either field may be set.
   */
  cache?: { ttlMs?: number, scope?: 'public' | 'private' }
  /**
   * How a 2026-07-28 call's round state is sealed (`context.elicit`'s answers so far travel in it):
   * HMAC-SHA256 with `key` (32 bytes or more; every instance that may get a round back needs the same
   * one), valid for `ttlSeconds`. Default: a key made per process, 600 s: a deployment whose rounds may
   * reach another instance sets its own.
   */
  requestState?: { key?: string | Uint8Array, ttlSeconds?: number }
  /**
   * What a session's tools/list holds: every tool (`full`, the default), or three tools that find,
   * describe and call the others (`search`): a session then starts with a few hundred tokens instead
   * of every schema, for clients that send every listed tool to the model on every turn. Calls read
   * their arguments the same either way, and a tool is still called by its own name.
   */
  surface?: Surface
  /** With `surface: 'search'`: tools listed as they are beside the three (the ones nearly every session uses). */
  alwaysLoad?: readonly string[]
  /** With `surface: 'auto'`: how tokens are counted (a tokenizer's count of a text). Default: four characters a token. */
  countTokens?: (text: string) => number
  /** With `surface: 'auto'`: told what was chosen for each profile's list, and the tokens it was chosen by. */
  onSurface?: (choice: SurfaceChoice) => void
  /**
   * Named subsets of the tools, each in a profile and behind a surface: a profile choice that answers
   * `view:NAME` serves that view (its tools/list, its search surface and its calls keep to it).
   */
  views?: Readonly<Record<string, ToolView>>
  /**
   * Which caller is served which tools (`authInfo.clientId`; over a connection that is no HTTP
   * request, `stdio`): a tool a caller's rule does not admit is not listed, not found or described by
   * the search surface, and a call of it is answered as one of a name no tool has; a caller pinned to a view
   * is served that view whatever it asks. See `CallerRules`.
   */
  rules?: CallerRules
}

/** Which tool a failure outside its handler happened in, and while doing what. */
export interface CallPhase { tool: string, phase: 'validate' | 'extend' }

/** The default `ttlMs` of a tools/list answer: the list is static, but a deploy may change it. */
const LIST_TTL_MS = 3_600_000

/** The cache hints of a server's lists, checked once: a bad one fails at start-up. */
/** Every option `createMcpServer` takes: another is a mistyped one, which would be ignored in silence. */
const OPTION_KEYS: readonly (keyof McpServerOptions)[] = ['extend', 'instructions', 'capabilities', 'onError', 'onCall', 'telemetry', 'profile', 'strictBudget', 'request', 'cache', 'requestState', 'surface', 'alwaysLoad', 'countTokens', 'onSurface', 'views', 'rules']

/** Refuses an option `createMcpServer` does not take, naming the one meant. */
export function checkOptionKeys(options: McpServerOptions): void {
  const unknown = typeof options === 'object' && options !== null ? unknownKeys(options, OPTION_KEYS) : []
  if (unknown.length > 0)
    throw new TypeError(`createMcpServer: unknown option ${unknown.join(', ')}; its options are ${OPTION_KEYS.join(', ')}`)
}

export function cacheHints(options: McpServerOptions): { ttlMs: number, cacheScope: 'public' | 'private' } {
  const { ttlMs = LIST_TTL_MS, scope = typeof options.profile === 'function' || options.rules !== undefined ? 'private' : 'public' } = options.cache ?? {}
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0)
    throw new RangeError(`createMcpServer: cache.ttlMs must be a non-negative integer of milliseconds (got ${String(ttlMs)})`)
  if (scope !== 'public' && scope !== 'private')
    throw new RangeError(`createMcpServer: cache.scope must be "public" or "private" (got ${String(scope)})`)
  return { ttlMs, cacheScope: scope }
}

/** The surface a server serves, checked once: a bad one fails at start-up. */
export function surfaceOf(options: McpServerOptions): Surface {
  const { surface = 'full', alwaysLoad } = options
  if (surface !== 'full' && surface !== 'search' && surface !== 'auto')
    throw new RangeError(`createMcpServer: surface must be "full", "search" or "auto" (got ${JSON.stringify(surface)})`)
  if (alwaysLoad !== undefined && (!Array.isArray(alwaysLoad) || alwaysLoad.some(name => typeof name !== 'string')))
    throw new TypeError('createMcpServer: alwaysLoad must be a list of tool names')
  return surface
}
