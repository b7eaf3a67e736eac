// What serving tools means, on any MCP SDK major: the tools collected once, the tools/list answer
// built and serialized once, and one tools/call run as coerce → validate → call. The SDK adapters
// (`create-server.ts` for 1.x, `create-server-v2.ts` for 2.x) only register these with their `Server`.
import type { InferOutput, ProgressUpdate, StandardSchemaV1, ToolDefinition } from '../define-tool'
import type { McpTool, PrecomputedTool, ProfiledTool } from './compiled'
import type { ProfileChoice } from './profiles'
import { coerceArgs } from '../coerce/coerce-args'
import type { InverseTry } from '../coerce/inverse-args'
import { inverseArgs, repairsOf, triesOf } from '../coerce/inverse-args'
import { readInTurn } from '../coerce/readings'
import { clip, describeIssues, quoteClipped } from '../validate/messages'
import { validate } from '../validate/validate'
import { compileLazily, compileProfileLazily, precomputedOf } from './compiled'
import type { AskForm, ElicitOptions } from '../elicit/ask'
import { elicitValue, InputNeeded, inputRequiredFor } from '../elicit/ask'
import { logOnce } from './log'
import { preserialize } from './preserialized'

/** A `tools/call` result, as every SDK major shapes it. */
export interface CallToolResult {
  content: unknown[]
  isError?: boolean
  structuredContent?: Record<string, unknown>
  [key: string]: unknown
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
  onError?: (error: unknown, where: { tool: string, phase: 'validate' | 'extend' }) => void
  /**
   * The profile this server serves (built with the plugin's `profiles` option): a name for every
   * caller, or a function of what the request carries (`ProfileRequest`: era, URL, headers,
   * authorization, `clientInfo`). A server instance keeps the profile its first list was served.
   * Default: the build's base profile for every caller.
   */
  profile?: ProfileChoice
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
}

/** The default `ttlMs` of a tools/list answer: the list is static, but a deploy may change it. */
const LIST_TTL_MS = 3_600_000

/** The cache hints of a server's lists, checked once: a bad one fails at start-up. */
function cacheHints(options: McpServerOptions): { ttlMs: number, cacheScope: 'public' | 'private' } {
  const { ttlMs = LIST_TTL_MS, scope = typeof options.profile === 'function' ? 'private' : 'public' } = options.cache ?? {}
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0)
    throw new RangeError(`createMcpServer: cache.ttlMs must be a non-negative integer of milliseconds (got ${String(ttlMs)})`)
  if (scope !== 'public' && scope !== 'private')
    throw new RangeError(`createMcpServer: cache.scope must be "public" or "private" (got ${String(scope)})`)
  return { ttlMs, cacheScope: scope }
}

/** Logs to stderr: stdout may be the stdio transport. */
function logError(error: unknown, where: { tool: string, phase: 'validate' | 'extend' }): void {
  // Once per tool and phase: a check that throws may throw on every call, with what the client sent in its message.
  logOnce(`error:${where.tool}:${where.phase}`, `flatmcp: tool "${where.tool}" failed while ${where.phase === 'extend' ? 'resolving its shared fields' : 'checking its arguments'}: ${clip(error instanceof Error ? error.message : String(error), 300)} (said once for this tool)`)
}

/** A tool as one profile serves it: what tools/list shows and how tools/call maps arguments back. */
interface Form {
  tool: McpTool
  plan: ProfiledTool
  /** False when the plan changes nothing on a first try: the coercer is skipped then. */
  coerce: boolean
  /** Each reading of a strict target's nulls, then scalar repairs: tried in turn until the original accepts one. */
  tries: InverseTry[]
}

interface Prepared {
  definition: ToolDefinition
  compiled: PrecomputedTool
  /** Compiled at start-up (no build data): other profiles are compiled when first asked for. */
  lazy: boolean
  /** The base form, and the others as sessions ask for them. */
  forms: Map<string | undefined, Form>
}

function formOf(tool: McpTool, plan: ProfiledTool): Form {
  return { tool, plan, coerce: repairsOf(plan).first, tries: triesOf(plan) }
}

/** Collects the tools by name once; each profile's list answer is built once and served as is afterwards. */
async function prepare(tools: readonly ToolDefinition[], extend: ExtendOptions | undefined): Promise<Map<string, Prepared>> {
  const byName = new Map<string, Prepared>()
  for (const definition of tools) {
    const built = precomputedOf(definition)
    const compiled = built ?? await compileLazily(definition, extend?.schema)
    const base = formOf(compiled.tool, { inputSchema: compiled.tool.inputSchema, coercion: compiled.coercion })
    byName.set(definition.name, { definition, compiled, lazy: !built, forms: new Map([[undefined, base]]) })
  }
  return byName
}

/**
 * A tool in a profile: as built, compiled now (a tool without build data), or, when its build did
 * not include that profile, in its base form (said once on stderr).
 */
function formFor(entry: Prepared, profile: string | undefined, extend: ExtendOptions | undefined): Form {
  const known = entry.forms.get(profile)
  if (known)
    return known
  const profiles = entry.compiled.profiles
  // Own entries only: a choice that names `constructor` is a profile the build lacks.
  const built = profiles && Object.prototype.hasOwnProperty.call(profiles, profile!) ? profiles[profile!] : undefined
  const plan = built ?? (entry.lazy && profile !== 'portable' ? lazyProfile(entry, extend, profile!) : undefined)
  // Once per process: a server made per request would say it on every request, with text a client may have chosen.
  if (!plan && profile !== 'portable')
    logOnce(`profile:${profile}`, `flatmcp: a request asked for profile ${quoteClipped(profile)}, which tool "${entry.definition.name}" (and perhaps others) was not built with; add it to the plugin's \`profiles\` option. Serving the base profile (said once).`)
  const form = plan ? formOf({ ...entry.compiled.tool, inputSchema: plan.inputSchema }, plan) : entry.forms.get(undefined)!
  entry.forms.set(profile, form)
  return form
}

/** A profile compiled for a tool with no build data; one the compiler does not know is none (the base form is served). */
function lazyProfile(entry: Prepared, extend: ExtendOptions | undefined, profile: string): ProfiledTool | undefined {
  try {
    return compileProfileLazily(entry.definition, extend?.schema, profile)
  }
  catch {
    return undefined
  }
}

/** Fails early on what would otherwise fail on every call: bad tools, or a build made with other shared fields. */
function checkTools(tools: readonly ToolDefinition[], extend: ExtendOptions | undefined): void {
  const seen = new Set<string>()
  for (const tool of tools) {
    if (!tool || typeof tool.name !== 'string' || typeof tool.handler !== 'function')
      throw new TypeError('createMcpServer: every tool needs a name and a handler (use defineTool)')
    if (seen.has(tool.name))
      throw new TypeError(`createMcpServer: two tools are named "${tool.name}"`)
    seen.add(tool.name)
    for (const part of ['params', 'input'] as const) {
      const schema = tool[part] as { '~standard'?: { validate?: unknown } } | undefined
      if (schema !== undefined && typeof schema?.['~standard']?.validate !== 'function')
        throw new TypeError(`createMcpServer: tool "${tool.name}" ${part} has no ~standard.validate, so no call could be parsed; a JSON Schema given as data needs a validator: wrap it as a Standard Schema with vendor "json-schema" whose validate runs one (ajv, @cfworker/json-schema)`)
    }
    const built = precomputedOf(tool)?.slices?.extend
    if (built && !extend)
      throw new TypeError(`createMcpServer: tool "${tool.name}" was built with shared extend fields (${built.join(', ')}); pass the same extend option`)
    if (precomputedOf(tool) && !built && extend)
      throw new TypeError(`createMcpServer: tool "${tool.name}" was built without the shared extend fields; build it with the same extend option`)
  }
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] }
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content)
}

/**
 * A handler's value as a tool result: with an output schema, its JSON as text and as
 * `structuredContent` (wrapped as `{ result: … }` where the schema says so). An error result goes
 * without `structuredContent`: clients check it against the output schema, errors included.
 */
function toResult(value: unknown, hasOutput: boolean, wrap: PrecomputedTool['outputWrap']): CallToolResult {
  if (isCallToolResult(value)) {
    if (value.isError !== true || value.structuredContent === undefined)
      return value
    const { structuredContent: _, ...error } = value
    return error
  }
  if (hasOutput)
    return { structuredContent: (wrap ? { [wrap]: value } : value) as Record<string, unknown>, content: [{ type: 'text', text: JSON.stringify(value) }] }
  if (value === undefined)
    return { content: [] }
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] }
}

/** The arguments whose keys `keep` accepts, as own data properties (a `__proto__` key stays a key). */
function select(args: Record<string, unknown>, keep: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(args)) {
    if (keep(key))
      Object.defineProperty(out, key, { value: args[key], enumerable: true, writable: true, configurable: true })
  }
  return out
}


export interface ToolService {
  /** The tools/list answer for a profile (undefined: the base one): the same object every time, serialized once. */
  list: (profile?: string) => Promise<{ tools: McpTool[], ttlMs: number, cacheScope: 'public' | 'private' }>
  /**
   * One tools/call, read with `profile`'s inverse (`unsure`: its list is not known, see
   * `Decision`); a name no tool has throws the SDK's own protocol error (`unknownTool`).
   */
  call: (name: string, args: unknown, request: RequestInfo, profile?: string, unsure?: boolean) => Promise<CallToolResult>
  /**
   * The input a call's arguments are read as under `profile` (repaired, mapped back, the reading its
   * schema accepts), without calling the handler; undefined for a name no tool has. A proxy forwards it.
   */
  read: (name: string, args: unknown, profile?: string) => Promise<{ ok: true, input: unknown } | { ok: false, message: string } | undefined>
}

/**
 * Marks an error a handler throws to be answered as the JSON-RPC error it carries (`code`,
 * `message`, `data`) instead of a tool error: a proxied tool's upstream answered with one.
 */
export const PROTOCOL_ERROR: unique symbol = Symbol.for('flatmcp.protocolError')

function isProtocolError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[PROTOCOL_ERROR] === true
}

/** What serves a call for a name no tool has, instead of the unknown-tool error (a proxy forwards it). */
export type UnknownToolCall = (name: string, args: unknown, request: RequestInfo) => Promise<CallToolResult>

/**
 * The tools, checked and collected once (compiled lazily where the build did not precompute them).
 * `unknownTool` makes the error an SDK answers a call for a name no tool has.
 */
export function createToolService(tools: readonly ToolDefinition[], options: McpServerOptions, unknownTool: (message: string) => Error, unknown?: UnknownToolCall): ToolService {
  const { extend } = options
  checkTools(tools, extend)
  const hints = cacheHints(options)
  const ready = prepare(tools, extend)
  ready.catch(() => {}) // surfaced by the first request instead of as an unhandled rejection
  const lists = new Map<string | undefined, Awaited<ReturnType<ToolService['list']>>>()
  return {
    async list(profile) {
      const byName = await ready
      let list = lists.get(profile)
      if (!list) {
        list = preserialize({ tools: [...byName.values()].map(entry => formFor(entry, profile, extend).tool), ...hints })
        lists.set(profile, list)
      }
      return list
    },
    async call(name, args, request, profile, unsure = false) {
      const byName = await ready
      const entry = byName.get(name)
      if (!entry && unknown)
        return unknown(name, args, request)
      if (!entry)
        throw unknownTool(`Unknown tool ${quoteClipped(name)}. Available tools: ${[...byName.keys()].join(', ')}.`)
      const where: CallPhase = { tool: entry.definition.name, phase: 'validate' }
      try {
        const form = formFor(entry, profile, extend)
        const raw = args ?? {}
        const read = unsure
          ? () => readUnsure(entry, form, raw, extend, other => formFor(entry, other, extend))
          : () => readArgs(entry, form, raw, extend)
        return await callTool(entry, read, request, extend, where)
      }
      catch (error) {
        if (isProtocolError(error))
          throw error
        // What the tool's own schemas or shared fields throw is the server's business: logged, not shown.
        const report = options.onError ?? logError
        report(error, where)
        return errorResult(`Tool "${where.tool}" could not check its arguments: an internal error occurred (logged on the server). Try again or report it.`)
      }
    },
    async read(name, args, profile) {
      const byName = await ready
      const entry = byName.get(name)
      if (!entry)
        return undefined
      const { checked } = await readArgs(entry, formFor(entry, profile, extend), args ?? {}, extend)
      return checked.ok ? { ok: true, input: checked.input } : { ok: false, message: checked.message }
    },
  }
}

interface Connectable<T extends { onmessage?: ((message: never, extra?: never) => void) | undefined }> {
  connect: (transport: T) => Promise<void>
}

/**
 * Some clients send a tool's whole arguments object as a JSON string. An SDK would reject such a
 * request before any handler runs, so the server's transport parses it as the message arrives (when
 * it holds an object; anything else is left for the SDK to reject).
 */
export function repairStringArguments<T extends { onmessage?: ((message: never, extra?: never) => void) | undefined }>(server: Connectable<T>): void {
  const connect = server.connect.bind(server)
  server.connect = async (transport) => {
    await connect(transport)
    const handle = transport.onmessage
    transport.onmessage = ((message: never, extra?: never) => handle?.(repairToolCall(message), extra)) as T['onmessage']
  }
}

/** A tools/call message whose arguments are a JSON string holding an object, with them parsed; else as it was. */
function repairToolCall<M>(message: M): M {
  const params = (message as { method?: unknown, params?: { arguments?: unknown } }).method === 'tools/call' ? (message as { params?: { arguments?: unknown } }).params : undefined
  if (!params || typeof params.arguments !== 'string')
    return message
  const parsed = coerceArgs(params.arguments, {})
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...message, params: { ...params, arguments: parsed } } : message
}

interface CallPhase { tool: string, phase: 'validate' | 'extend' }

type Checked = { ok: true, fields: unknown, params: unknown, input: unknown } | { ok: false, message: string }

/** Validates the shared fields, `params` and `input` of one reading of the arguments. */
async function checkArgs(entry: Prepared, form: Form, args: unknown, extend: ExtendOptions | undefined): Promise<Checked> {
  const { definition, compiled } = entry
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return { ok: false, message: `Invalid arguments for tool "${definition.name}": expected a JSON object.` }
  const all = args as Record<string, unknown>
  const extendKeys = compiled.slices?.extend ?? []
  const paramKeys = compiled.slices?.params ?? []
  let fields: unknown
  if (extend) {
    const parsed = await validate(extend.schema, select(all, key => extendKeys.includes(key)))
    if (!parsed.ok)
      return { ok: false, message: describeIssues(definition.name, parsed.issues, all) }
    fields = parsed.value
  }
  let params: unknown
  if (definition.params) {
    const parsed = await validate(definition.params, select(all, key => paramKeys.includes(key)))
    if (!parsed.ok)
      return { ok: false, message: describeIssues(definition.name, parsed.issues, all) }
    params = parsed.value
  }
  const inputArgs = extendKeys.length + paramKeys.length === 0 ? all : select(all, key => !extendKeys.includes(key) && !paramKeys.includes(key))
  const input = await validate(definition.input, inputArgs)
  if (!input.ok)
    return { ok: false, message: describeIssues(definition.name, input.issues, inputArgs, compiled.discriminator) }
  return { ok: true, fields, params, input: input.value }
}

interface Reading { checked: Checked, args: unknown }

/**
 * Map back and validate (shared fields, params, input) under one form, reading after reading (see
 * `readInTurn`: a strict profile's nulls, then scalars' JSON text; bounded).
 */
async function readArgs(entry: Prepared, form: Form, raw: unknown, extend: ExtendOptions | undefined): Promise<Reading> {
  const tried = await readInTurn(form.tries, ([nulls, scalars]) => form.coerce || scalars ? inverseArgs(raw, form.plan, nulls, scalars) : raw, args => checkArgs(entry, form, args, extend), checked => checked.ok)
  // A schema that only chooses (a proxied tool's: the upstream's parser decides) lets the first reading through.
  if (!tried.result.ok && isChooser(entry.definition.input)) {
    const args = form.coerce ? inverseArgs(raw, form.plan, ...form.tries[0]!) : raw
    if (typeof args === 'object' && args !== null && !Array.isArray(args))
      return { checked: { ok: true, fields: undefined, params: undefined, input: args }, args }
  }
  return { checked: tried.result, args: tried.args }
}

/**
 * Whether a tool's input schema only picks among readings of a call (`'~flatmcp': { chooser: true }`),
 * for a parser that runs elsewhere: a proxy's upstream.
 */
function isChooser(schema: unknown): boolean {
  return (schema as { '~flatmcp'?: { chooser?: unknown } } | undefined)?.['~flatmcp']?.chooser === true
}

/**
 * A call whose list is not known (see `Decision.unsure`), read under every form the server serves
 * the tool in: the readings the original accepts must agree, or the call is refused rather than
 * read as some list it may not have come from.
 */
async function readUnsure(entry: Prepared, chosen: Form, raw: unknown, extend: ExtendOptions | undefined, formOf: (profile: string | undefined) => Form): Promise<Reading> {
  const profiles = [undefined, ...Object.keys(entry.compiled.profiles ?? {})]
  const forms = [...new Set([chosen, ...profiles.map(formOf)])]
  const readings = await Promise.all(forms.map(form => readArgs(entry, form, raw, extend)))
  const accepted = readings.filter(reading => reading.checked.ok)
  const texts = new Set(accepted.map(reading => JSON.stringify(reading.args)))
  if (texts.size > 1) {
    const message = `Invalid arguments for tool "${entry.definition.name}": the lists this server serves read them differently, and the call does not say which one it came from (it carries no clientInfo). Send clientInfo in the _meta of every request.`
    return { checked: { ok: false, message }, args: raw }
  }
  return accepted[0] ?? readings[0]!
}

/** Validate (as `read` gives the arguments), resolve the shared fields, call: one `tools/call`. `where` says which phase runs. */
async function callTool(entry: Prepared, read: () => Promise<Reading>, request: RequestInfo, extend: ExtendOptions | undefined, where: CallPhase): Promise<CallToolResult> {
  const { definition } = entry
  const { checked } = await read()
  if (!checked.ok)
    return errorResult(checked.message)
  let context: unknown
  if (extend) {
    where.phase = 'extend'
    context = await extend.resolve(checked.fields as never, request)
    where.phase = 'validate'
  }
  try {
    const ask = request.ask
    const elicit = ask && ((schema: StandardSchemaV1, message: string, options?: ElicitOptions) => elicitValue(ask, schema, message, options))
    const value = await definition.handler(checked.input as never, { params: checked.params as never, context: context as never, signal: request.signal, ...(request.progress ? { progress: request.progress } : {}), ...(request.meta ? { meta: request.meta } : {}), ...(elicit ? { elicit: elicit as never } : {}) })
    return toResult(value, definition.output !== undefined, entry.compiled.outputWrap)
  }
  catch (error) {
    if (isProtocolError(error))
      throw error
    // A 2026-07-28 call that needs the user's answer ends asking for it; the client calls again with it.
    if (error instanceof InputNeeded)
      return inputRequiredFor(error) as never
    // A handler's own message is meant for the model (README); it is still capped.
    return errorResult(`Tool "${definition.name}" failed: ${clip(error instanceof Error ? error.message : String(error), 2000)}`)
  }
}
