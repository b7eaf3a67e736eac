// What serving tools means, on any MCP SDK major: the tools collected once, the tools/list answer
// built and serialized once, and one tools/call run as read (repair, inverse map, the original's
// parse) → resolve the shared fields → call. The hosts (`host/`) only register these with a `Server`.
import type { ElicitOptions, StandardSchemaV1, ToolDefinition } from '../tool/define-tool'
import type { Reading } from './arguments'
import type { CallPhase, ExtendOptions, McpServerOptions, RequestInfo } from './options'
import type { CallToolResult } from './results'
import type { ToolService, UnknownToolCall } from './service'
import type { ToolEntry } from './tools'
import { elicitValue } from '../elicit/ask'
import { InputRequired } from '../elicit/replay'
import { logOnce } from '../util/log'
import { clip, quoteClipped } from '../validate/messages'
import { readArgs, readUnsure } from './arguments'
import { cacheHints, checkOptionKeys, surfaceOf } from './options'
import { preserialize } from './preserialized'
import { errorResult, isProtocolError, toResult } from './results'
import { checkProfileBuilt, checkTools, collectTools, formFor } from './tools'
import { BUDGETED_PROFILE, keepStrictBudget } from './strict-budget'

export type { ToolService, UnknownToolCall } from './service'

/** Logs to stderr: stdout may be the stdio transport. */
function logError(error: unknown, where: CallPhase): void {
  // Once per tool and phase: a check that throws may throw on every call, with what the client sent in its message.
  logOnce(`error:${where.tool}:${where.phase}`, `flatmcp: tool "${where.tool}" failed while ${where.phase === 'extend' ? 'resolving its shared fields' : 'checking its arguments'}: ${clip(error instanceof Error ? error.message : String(error), 300)} (said once for this tool)`)
}

/**
 * What `make` returns; what it throws also goes to stderr, once per message. A server factory that an
 * SDK's serving entry calls per session or request (`serveStdio`, `createMcpHandler`) has its error
 * answered as -32603 and said nowhere: a bad tool or option would fail every request in silence.
 */
export function saidOnce<T>(make: () => T): T {
  try {
    return make()
  }
  catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    logOnce(`setup:${message}`, `flatmcp: ${message}`)
    throw error
  }
}

/**
 * The tools, checked and collected once (compiled lazily where the build did not precompute them).
 * `unknownTool` makes the error an SDK answers a call for a name no tool has. Its surface and views
 * are put around it by those that serve it (`servedService`, search/served.ts).
 */
export function createToolService(tools: readonly ToolDefinition[], options: McpServerOptions, unknownTool: (message: string) => Error, unknown?: UnknownToolCall): ToolService {
  checkOptionKeys(options)
  const { extend } = options
  checkTools(tools, extend)
  checkProfileBuilt(tools, options.profile)
  const hints = cacheHints(options)
  // Checked with the other options, so a bad surface fails at start-up in the same order as before.
  surfaceOf(options)
  const missing = (options.alwaysLoad ?? []).filter(name => !tools.some(tool => tool.name === name))
  if (missing.length > 0 && !unknown)
    throw new TypeError(`createMcpServer: alwaysLoad names no tool called ${missing.map(name => JSON.stringify(name)).join(', ')}`)
  const ready = collectTools(tools, extend)
  ready.catch(() => {}) // surfaced by the first request instead of as an unhandled rejection
  const lists = new Map<string | undefined, Awaited<ReturnType<ToolService['list']>>>()
  // The strict budget is chosen over the whole list the first time the budgeted profile is asked for, list or call.
  let budgeted = false
  const formIn = (byName: ReadonlyMap<string, ToolEntry>, entry: ToolEntry, profile: string | undefined): ReturnType<typeof formFor> => {
    if (profile === BUDGETED_PROFILE && !budgeted) {
      budgeted = true
      keepStrictBudget(byName, extend, options.strictBudget)
    }
    return formFor(entry, profile, extend)
  }
  const service: ToolService = {
    async list(profile) {
      const byName = await ready
      let list = lists.get(profile)
      if (!list) {
        list = preserialize({ tools: [...byName.values()].map(entry => formIn(byName, entry, profile).tool), ...hints })
        lists.set(profile, list)
      }
      return list
    },
    async call(name, args, request, profile, unsure = false) {
      const byName = await ready
      const entry = byName.get(name)
      // What is observed is the tool's own call (through call_tool, the one it names): its name, and the repair measured from its arguments.
      if (request.observed)
        Object.assign(request.observed, { called: name, sent: args ?? {} })
      if (!entry && unknown)
        return unknown(name, args, request)
      if (!entry)
        throw unknownTool(`Unknown tool ${quoteClipped(name)}. Available tools: ${[...byName.keys()].join(', ')}.`)
      const where: CallPhase = { tool: entry.definition.name, phase: 'validate' }
      try {
        const form = formIn(byName, entry, profile)
        const raw = args ?? {}
        const read = unsure
          ? () => readUnsure(entry, form, raw, extend, other => formIn(byName, entry, other))
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
      const { checked } = await readArgs(entry, formIn(byName, entry, profile), args ?? {}, extend)
      return checked.ok ? { ok: true, input: checked.input } : { ok: false, message: checked.message }
    },
  }
  return service
}

/** Validate (as `read` gives the arguments), resolve the shared fields, call: one `tools/call`. `where` says which phase runs. */
async function callTool(entry: ToolEntry, read: () => Promise<Reading>, request: RequestInfo, extend: ExtendOptions | undefined, where: CallPhase): Promise<CallToolResult> {
  const { definition } = entry
  // The tool is reached (its name one the server has) before its arguments are read: a refused reading is still its call.
  if (request.observed)
    request.observed.tool = definition.name
  const { checked } = await read()
  if (!checked.ok)
    return errorResult(checked.message)
  if (request.observed)
    request.observed.input = checked.input
  let context: unknown
  if (extend) {
    where.phase = 'extend'
    context = await extend.resolve(checked.fields as never, request)
    where.phase = 'validate'
  }
  try {
    const ask = request.ask
    const elicit = ask && ((schema: StandardSchemaV1, message: string, options?: ElicitOptions) => elicitValue(ask, schema, message, options))
    const value = await definition.handler(checked.input as never, { params: checked.params as never, context: context as never, signal: request.signal, ...(request.progress ? { progress: request.progress } : {}), ...(request.meta ? { meta: request.meta } : {}), ...(elicit ? { elicit: elicit as never } : {}), ...(request.rounds ? { rounds: request.rounds } : {}), ...(request.trace === undefined ? {} : { trace: request.trace }) })
    return toResult(value, definition.output !== undefined, entry.compiled.outputWrap)
  }
  catch (error) {
    if (isProtocolError(error))
      throw error
    // A 2026-07-28 call that needs the client's answers ends asking for them; the client calls again with them.
    if (error instanceof InputRequired)
      return error.result as never
    // A handler's own message is meant for the model (README); it is still capped.
    return errorResult(`Tool "${definition.name}" failed: ${clip(error instanceof Error ? error.message : String(error), 2000)}`)
  }
}
