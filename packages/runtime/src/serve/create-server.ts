import type { ServerOptions } from '@modelcontextprotocol/sdk/server/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { InferOutput, StandardSchemaV1, ToolDefinition } from '../define-tool'
import type { McpTool, PrecomputedTool } from './compiled'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { coerceArgs } from '../coerce/coerce-args'
import { clip, describeIssues, quoteClipped } from '../validate/messages'
import { validate } from '../validate/validate'
import { compileLazily, precomputedOf } from './compiled'
import { preserialize } from './stdio-transport'

/** What `extend.resolve` learns of the request besides the shared fields. */
export interface RequestInfo {
  signal: AbortSignal
  sessionId?: string
  authInfo?: unknown
}

/**
 * Fields every tool shares (a tenant, an auth token…): added to every tool's advertised input,
 * parsed once per call, resolved into the handler's `context`, and removed from the tool's own input.
 */
export interface ExtendOptions<S extends StandardSchemaV1 = StandardSchemaV1, C = unknown> {
  schema: S
  resolve: (fields: InferOutput<S>, request: RequestInfo) => C | Promise<C>
}

export interface McpServerOptions {
  extend?: ExtendOptions
  instructions?: string
  /** Passed through to the SDK's `Server`. */
  capabilities?: ServerOptions['capabilities']
  /**
   * Where an error thrown outside a handler goes (a `.refine()` or `.transform()` that throws while
   * the arguments are checked, `extend.resolve` failing). The model gets a plain tool error without
   * the message, which may hold secrets. Default: one line on stderr.
   */
  onError?: (error: unknown, where: { tool: string, phase: 'validate' | 'extend' }) => void
}

/** Logs to stderr: stdout may be the stdio transport. */
function logError(error: unknown, where: { tool: string, phase: 'validate' | 'extend' }): void {
  process.stderr.write(`flatmcp: tool "${where.tool}" failed while ${where.phase === 'extend' ? 'resolving its shared fields' : 'checking its arguments'}: ${error instanceof Error ? error.message : String(error)}\n`)
}

interface Prepared {
  definition: ToolDefinition
  compiled: PrecomputedTool
  /** False when the plan is empty: the coercer is skipped altogether. */
  coerce: boolean
}

/** Collects the tools by name once; the list answer is built once and served as is afterwards. */
async function prepare(tools: readonly ToolDefinition[], extend: ExtendOptions | undefined): Promise<{ byName: Map<string, Prepared>, list: { tools: McpTool[] } }> {
  const byName = new Map<string, Prepared>()
  for (const definition of tools) {
    const compiled = precomputedOf(definition) ?? await compileLazily(definition, extend?.schema)
    byName.set(definition.name, { definition, compiled, coerce: Object.keys(compiled.coercion).length > 0 })
  }
  return { byName, list: preserialize({ tools: [...byName.values()].map(entry => entry.compiled.tool) }) }
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

function toResult(value: unknown, hasOutput: boolean): CallToolResult {
  if (isCallToolResult(value))
    return value
  if (hasOutput)
    return { structuredContent: value as Record<string, unknown>, content: [{ type: 'text', text: JSON.stringify(value) }] }
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

/**
 * An MCP SDK `Server` that serves `tools`: `tools/list` from the precomputed schemas, `tools/call`
 * by coercing the arguments, validating them with each tool's original schemas and calling its
 * handler. Connect it to any transport (stdio, Streamable HTTP).
 */
export function createMcpServer(tools: readonly ToolDefinition[], info: { name: string, version: string }, options: McpServerOptions = {}): Server {
  const { extend } = options
  checkTools(tools, extend)
  const ready = prepare(tools, extend)
  ready.catch(() => {}) // surfaced by the first request instead of as an unhandled rejection

  const server = new Server(info, { capabilities: { ...options.capabilities, tools: {} }, instructions: options.instructions })
  // The same object every time, serialized once: a StdioTransport writes its text as is.
  server.setRequestHandler(ListToolsRequestSchema, async () => (await ready).list)
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { byName } = await ready
    const entry = byName.get(request.params.name)
    if (!entry)
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${quoteClipped(request.params.name)}. Available tools: ${[...byName.keys()].join(', ')}.`)
    const where: CallPhase = { tool: entry.definition.name, phase: 'validate' }
    try {
      return await callTool(entry, request.params.arguments ?? {}, { signal: extra.signal, sessionId: extra.sessionId, authInfo: extra.authInfo }, extend, where)
    }
    catch (error) {
      // What the tool's own schemas or shared fields throw is the server's business: logged, not shown.
      (options.onError ?? logError)(error, where)
      return errorResult(`Tool "${where.tool}" could not check its arguments: an internal error occurred (logged on the server). Try again or report it.`)
    }
  })
  repairStringArguments(server)
  return server
}

interface CallPhase { tool: string, phase: 'validate' | 'extend' }

/** Coerce, validate (shared fields, params, input), call: one `tools/call`. `where` says which phase runs. */
async function callTool(entry: Prepared, raw: unknown, request: RequestInfo, extend: ExtendOptions | undefined, where: CallPhase): Promise<CallToolResult> {
  const { definition, compiled } = entry
  const args = entry.coerce ? coerceArgs(raw, compiled.coercion) : raw
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return errorResult(`Invalid arguments for tool "${definition.name}": expected a JSON object.`)
  const all = args as Record<string, unknown>
  const extendKeys = compiled.slices?.extend ?? []
  const paramKeys = compiled.slices?.params ?? []

  let context: unknown
  if (extend) {
    const fields = await validate(extend.schema, select(all, key => extendKeys.includes(key)))
    if (!fields.ok)
      return errorResult(describeIssues(definition.name, fields.issues, all))
    where.phase = 'extend'
    context = await extend.resolve(fields.value, request)
    where.phase = 'validate'
  }
  let params: unknown
  if (definition.params) {
    const parsed = await validate(definition.params, select(all, key => paramKeys.includes(key)))
    if (!parsed.ok)
      return errorResult(describeIssues(definition.name, parsed.issues, all))
    params = parsed.value
  }
  const inputArgs = extendKeys.length + paramKeys.length === 0 ? all : select(all, key => !extendKeys.includes(key) && !paramKeys.includes(key))
  const input = await validate(definition.input, inputArgs)
  if (!input.ok)
    return errorResult(describeIssues(definition.name, input.issues, inputArgs, compiled.discriminator))
  try {
    const value = await definition.handler(input.value as never, { params: params as never, context: context as never, signal: request.signal })
    return toResult(value, definition.output !== undefined)
  }
  catch (error) {
    // A handler's own message is meant for the model (README); it is still capped.
    return errorResult(`Tool "${definition.name}" failed: ${clip(error instanceof Error ? error.message : String(error), 2000)}`)
  }
}

/**
 * Some clients send a tool's whole arguments object as a JSON string. The SDK would reject such a
 * request before any handler runs, so the string is parsed as the message arrives (when it holds
 * an object; anything else is left for the SDK to reject).
 */
function repairStringArguments(server: Server): void {
  const connect = server.connect.bind(server)
  server.connect = async (transport) => {
    await connect(transport)
    const handle = transport.onmessage
    transport.onmessage = (message, extra) => {
      const params = 'method' in message && message.method === 'tools/call' ? message.params : undefined
      if (params && typeof params.arguments === 'string') {
        const parsed = coerceArgs(params.arguments, {})
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
          message = { ...message, params: { ...params, arguments: parsed } }
      }
      handle?.(message, extra)
    }
  }
}
