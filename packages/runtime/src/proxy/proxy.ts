// Any MCP server's tools, served flat: the upstream's list compiled as a build compiles a module's
// (JSON Schema front end, the preset its fingerprints name), each tool a tool whose handler
// forwards, served by the runtime's own serving (profiles, repair, inverse maps). Everything else
// passes through both ways unchanged.
import type * as Compiler from '@flatmcp/core'
import type { ToolDefinition } from '../define-tool'
import type { McpTool, PrecomputedTool } from '../serve/compiled'
import type { McpServerOptions, ServedRequest, ToolService } from '../serve/tool-service'
import { Server } from '@modelcontextprotocol/server'
import { attachCompiled, loadCompiler, toPrecomputed } from '../serve/compiled'
import { serveTools, unknownTool } from '../serve/create-server-v2'
import { logLine } from '../serve/log'
import { createToolService } from '../serve/tool-service'

/** A tool as the upstream lists it. */
export interface UpstreamTool extends McpTool {
  [field: string]: unknown
}

interface Message { method: string, params?: Record<string, unknown> }
interface RequestOptions { signal?: AbortSignal, timeout?: number, resetTimeoutOnProgress?: boolean, onprogress?: (progress: { progress: number, total?: number, message?: string }) => void }

/**
 * What the proxy asks of its upstream: a connected MCP SDK 2.x `Client` (`@modelcontextprotocol/client`)
 * has all of it.
 */
export interface UpstreamClient {
  request: (request: Message, resultSchema: unknown, options?: RequestOptions) => Promise<unknown>
  notification: (notification: Message) => Promise<void>
  getServerCapabilities: () => Record<string, unknown> | undefined
  getServerVersion: () => { name: string, version: string } | undefined
  getInstructions: () => string | undefined
  setNotificationHandler: (method: 'notifications/tools/list_changed', handler: () => void) => void
  fallbackNotificationHandler?: (notification: Message) => Promise<void>
  fallbackRequestHandler?: (request: Message, ctx: { mcpReq: { signal: AbortSignal } }) => Promise<never>
}

export interface ProxyOptions {
  /** The profile served, as `createMcpServer`'s `profile` (a name, or a choice per request). Default: `portable`. */
  profile?: McpServerOptions['profile']
  /** The target profiles to compile besides `portable`. Default: the `profile` named, or every one for a choice function. */
  profiles?: Compiler.ProfileName[]
  /** The parser the upstream's schemas were generated for. Default: detected over its whole list. */
  preset?: Compiler.PresetName | 'auto'
  /**
   * Compiles one of the upstream's schemas into a test of a value: it picks which reading of a call
   * goes upstream (the first it accepts; else the first reading), never refuses one: the upstream's
   * parser decides. Default: no choice (the first reading).
   */
  validator?: (schema: object) => (value: unknown) => boolean
  /** A tool the compiler cannot improve: served as it came (default) or left out. Said on stderr either way. */
  onInvalid?: 'serve' | 'drop'
  /** The name and version the proxy gives downstream. Default: the upstream's, as it said them. */
  info?: { name: string, version: string }
  /** How long one request may wait for the upstream, in milliseconds (progress restarts it). Default: 60,000. */
  timeoutMs?: number
  /** Tool calls the upstream may have in flight at once; one more is answered at once with a tool error. Default: 64. */
  maxInFlight?: number
  /** Where operator lines go. Default: one line on stderr. */
  log?: (line: string) => void
}

export interface Proxy {
  /** An SDK 2.x `Server` for one downstream connection (or one stateless request), as a serving entry's factory makes it. */
  server: (request?: ServedRequest) => Server
  /** The upstream's list compiled anew (the proxy does it itself on `notifications/tools/list_changed`). */
  refresh: () => Promise<void>
  /** The tools as they are served now, by name, and the compiler's word on each. */
  tools: () => ReadonlyMap<string, { served: 'compiled' | 'as-is', diagnostics: readonly Compiler.ToolDiagnostic[] }>
}

/** A result schema that takes whatever the other side answers: the proxy passes answers on unchanged. */
const ANY_RESULT = { '~standard': { version: 1, vendor: 'flatmcp', validate: (value: unknown) => ({ value }) } }

const TARGETS: Compiler.ProfileName[] = ['openai-strict', 'anthropic-strict', 'gemini']

/** Every page of the upstream's `tools/list`, bounded: a list that never ends is cut, and said so. */
async function listAll(upstream: UpstreamClient, log: (line: string) => void): Promise<UpstreamTool[]> {
  const tools: UpstreamTool[] = []
  let cursor: string | undefined
  for (let page = 0; page < 100; page++) {
    const result = await upstream.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ANY_RESULT) as { tools?: unknown, nextCursor?: unknown }
    if (!Array.isArray(result?.tools))
      throw new TypeError('the upstream answered tools/list without a tools array')
    tools.push(...result.tools as UpstreamTool[])
    cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined
    if (cursor === undefined)
      return tools
  }
  log('flatmcp proxy: the upstream\'s tools/list has more than 100 pages; serving the first 100')
  return tools
}

/** An upstream schema as a Standard Schema that names its parser and only chooses among readings. */
function upstreamInput(schema: object, preset: Compiler.PresetName, accepts: ((value: unknown) => boolean) | undefined): unknown {
  return {
    '~standard': {
      version: 1,
      vendor: 'json-schema',
      validate: (value: unknown) => accepts === undefined || accepts(value) ? { value } : { issues: [{ message: 'the upstream\'s schema rejects this reading' }] },
      jsonSchema: { input: () => schema, output: () => schema },
    },
    '~flatmcp': { preset, chooser: true },
  }
}

/**
 * A proxy in front of a connected upstream: its tools compiled once per list version (each schema
 * keyed by its text; redone on `list_changed`), served flat; every other request, notification and
 * server-to-client request passed through unchanged; the upstream's capabilities mirrored.
 */
export async function createProxy(upstream: UpstreamClient, options: ProxyOptions = {}): Promise<Proxy> {
  const log = options.log ?? logLine
  const compiler = loadCompiler('a proxied tool')
  const profiles = options.profiles ?? (typeof options.profile === 'function' ? TARGETS : typeof options.profile === 'string' && options.profile !== 'portable' ? [options.profile as Compiler.ProfileName] : [])
  const compiled = new Map<string, { definition: ToolDefinition, served: 'compiled' | 'as-is', diagnostics: readonly Compiler.ToolDiagnostic[] }>()
  let current: { service: ToolService, tools: Map<string, { served: 'compiled' | 'as-is', diagnostics: readonly Compiler.ToolDiagnostic[] }> } | undefined
  let latest: Server | undefined

  const timing = { timeout: options.timeoutMs ?? 60_000, resetTimeoutOnProgress: true }
  const maxInFlight = options.maxInFlight ?? 64
  let inFlight = 0
  const forward = (name: string): ToolDefinition['handler'] => async (input, context) => {
    if (inFlight >= maxInFlight)
      return { isError: true, content: [{ type: 'text', text: `The server behind this proxy has ${inFlight} calls in flight, its limit; try again shortly.` }] } as never
    inFlight++
    try {
      return await upstream.request(
        { method: 'tools/call', params: { name, arguments: input as Record<string, unknown> } },
        ANY_RESULT,
        { ...timing, ...(context.signal ? { signal: context.signal } : {}), ...(context.progress ? { onprogress: update => void context.progress!(update) } : {}) },
      ) as never
    }
    finally {
      inFlight--
    }
  }

  function compileOne(tool: UpstreamTool, preset: Compiler.PresetName): { definition: ToolDefinition, served: 'compiled' | 'as-is', diagnostics: readonly Compiler.ToolDiagnostic[] } | undefined {
    const key = cacheKey(tool, preset)
    const known = compiled.get(key)
    if (known)
      return known
    const accepts = options.validator && safely(() => options.validator!(tool.inputSchema))
    const definition: ToolDefinition = {
      name: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      input: upstreamInput(tool.inputSchema, preset, accepts) as ToolDefinition['input'],
      handler: forward(tool.name),
    }
    let entry: { definition: ToolDefinition, served: 'compiled' | 'as-is', diagnostics: readonly Compiler.ToolDiagnostic[] }
    try {
      const base = compiler.compileTool(definition, { preset })
      const others = profiles.map(profile => compiler.compileTool(definition, { preset, profile }))
      const data: PrecomputedTool = toPrecomputed(base, others)
      // What the upstream says of its output is its own: it comes back as the upstream sends it.
      if (tool.outputSchema !== undefined)
        data.tool.outputSchema = tool.outputSchema
      attachCompiled(definition, data)
      entry = { definition, served: 'compiled', diagnostics: base.diagnostics }
    }
    catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      if (options.onInvalid === 'drop') {
        log(`flatmcp proxy: tool "${tool.name}" left out: ${reason}`)
        return undefined
      }
      log(`flatmcp proxy: tool "${tool.name}" served as it came: ${reason}`)
      attachCompiled(definition, { tool: { ...tool } as McpTool, coercion: {} })
      entry = { definition, served: 'as-is', diagnostics: [] }
    }
    compiled.set(key, entry)
    return entry
  }

  async function refresh(): Promise<void> {
    const listed = (await listAll(upstream, log)).filter(tool => typeof tool?.name === 'string' && typeof tool.inputSchema === 'object' && tool.inputSchema !== null)
    const preset = !options.preset || options.preset === 'auto' ? compiler.detectPreset(listed.map(tool => tool.inputSchema as Compiler.JsonSchemaObject)).preset.name : options.preset
    const keys = new Set(listed.map(tool => cacheKey(tool, preset)))
    const entries = listed.map(tool => compileOne(tool, preset)).filter(entry => entry !== undefined)
    // Only this list version's tools stay compiled: an upstream whose list keeps changing cannot grow the cache.
    for (const key of compiled.keys()) {
      if (!keys.has(key))
        compiled.delete(key)
    }
    const tools = new Map(entries.map(entry => [entry.definition.name, { served: entry.served, diagnostics: entry.diagnostics }]))
    current = { service: createToolService(entries.map(entry => entry.definition), { profile: options.profile }, unknownTool), tools }
  }

  await refresh()
  upstream.setNotificationHandler('notifications/tools/list_changed', () => {
    refresh().then(() => latest?.notification({ method: 'notifications/tools/list_changed' }), error => log(`flatmcp proxy: the upstream's new tool list could not be read: ${(error as Error).message}`))
  })
  // What the upstream sends on its own (logging, progress of other requests, resource updates) goes downstream.
  upstream.fallbackNotificationHandler = async notification => latest?.notification(notification)
  // Sampling, elicitation and roots: the upstream asks the client behind the proxy.
  upstream.fallbackRequestHandler = async (request, ctx) => {
    if (!latest)
      throw new Error(`no client is connected to answer ${request.method}`)
    return latest.request({ method: request.method, params: request.params } as never, ANY_RESULT as never, { signal: ctx.mcpReq.signal }) as Promise<never>
  }

  const mirrored = upstream.getServerCapabilities() ?? {}
  const capabilities = { ...mirrored, tools: { ...(mirrored.tools as object | undefined) } }
  const info = options.info ?? upstream.getServerVersion() ?? { name: 'flatmcp-proxy', version: '0' }
  const instructions = upstream.getInstructions()
  return {
    server(request) {
      const server = new Server(info, { capabilities, ...(instructions === undefined ? {} : { instructions }) })
      serveTools(server, () => current!.service, { profile: options.profile, ...(request ? { request } : {}) })
      server.fallbackRequestHandler = (async (message: Message & { params?: { _meta?: { progressToken?: unknown } } }, ctx: { mcpReq: { signal: AbortSignal, notify: (notification: Message) => Promise<void> } }) => {
        const token = message.params?._meta?.progressToken
        const onprogress = token === undefined ? undefined : (update: object): void => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...update, progressToken: token } })
        return upstream.request({ method: message.method, ...(message.params === undefined ? {} : { params: message.params }) }, ANY_RESULT, { ...timing, signal: ctx.mcpReq.signal, ...(onprogress ? { onprogress } : {}) })
      }) as never
      server.fallbackNotificationHandler = async notification => upstream.notification(notification as Message)
      latest = server
      return server
    },
    refresh,
    tools: () => current!.tools,
  }
}

/** What a compiled tool is kept by: the preset it was read with and the upstream's whole definition. */
function cacheKey(tool: UpstreamTool, preset: Compiler.PresetName): string {
  return `${preset}\u0000${JSON.stringify(tool)}`
}

/** A validator that cannot be built (a hostile or broken schema) chooses nothing. */
function safely<T>(make: () => T): T | undefined {
  try {
    return make()
  }
  catch {
    return undefined
  }
}
