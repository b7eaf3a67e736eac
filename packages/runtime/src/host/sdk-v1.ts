// The host for the MCP SDK 1.x (`@modelcontextprotocol/sdk`): the tool service's list and call
// registered on its `Server`, a session's profile chosen from what its requests carry.
import type { Server as ServerType } from '@modelcontextprotocol/sdk/server/index.js'
import type { AskForm } from '../elicit/ask'
import type { McpServerOptions } from '../service/options'
import type { RequestFacts } from '../service/profile-choice'
import type { StandardSchemaV1, ToolDefinition } from '../tool/define-tool'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { answerDisclosure, DISCLOSURE_CAPABILITY, isDisclosureMethod } from '../search/disclosure'
import { instanceProfile } from '../service/profile-choice'
import { servedService } from '../search/served'
import { choiceWithRules } from '../search/views'
import { createToolService, saidOnce } from '../service/tool-service'
import { callWatch, watchedCall } from './observe-call'
import { serverTelemetry } from '../telemetry/call-telemetry'
import { repairStringArguments } from './string-arguments'

export type { ExtendOptions, McpServerOptions, RequestInfo, ServedRequest } from '../service/options'
export type { ClientInfo, ProfileChoice, ProfileRequest } from '../service/profile-choice'

/**
 * An MCP SDK 1.x `Server` that serves `tools`: `tools/list` from the precomputed schemas, `tools/call`
 * by coercing the arguments, validating them with each tool's original schemas and calling its
 * handler. Connect it to any transport (stdio, Streamable HTTP).
 */
export function createMcpServer<S extends StandardSchemaV1 = StandardSchemaV1, C = unknown>(tools: readonly ToolDefinition[], info: { name: string, version: string }, options: McpServerOptions<S, C> = {}): ServerType {
  const unknownTool = (message: string): Error => new McpError(ErrorCode.InvalidParams, message)
  const service = saidOnce(() => servedService(createToolService(tools, options, unknownTool), options, unknownTool))
  const server = new Server(info, { capabilities: { ...options.capabilities, tools: { ...DISCLOSURE_CAPABILITY } as { listChanged?: boolean } }, instructions: options.instructions })
  // The 1.x SDK speaks the 2025 protocol only: a session's identity is what `initialize` said.
  const profile = instanceProfile(choiceWithRules(options.profile, options.rules))
  const factsOf = (extra: { authInfo?: unknown, requestInfo?: { headers: Record<string, string | string[] | undefined>, url?: URL } }): RequestFacts => {
    const headers = toHeaders(extra.requestInfo?.headers)
    const url = extra.requestInfo?.url
    return { era: 'legacy', ...(url ? { url } : {}), ...(headers ? { headers } : {}), ...(extra.authInfo === undefined ? {} : { authInfo: extra.authInfo }), clientInfo: () => server.getClientVersion() }
  }
  const telemetry = options.telemetry ? serverTelemetry(options.telemetry) : undefined
  const watch = callWatch(options.onCall, telemetry)
  // The same object every time, serialized once: a StdioTransport writes its text as is.
  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => service.list((await profile(factsOf(extra), 'list')).profile))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { profile: name, unsure } = await profile(factsOf(extra), 'call')
    // The client can be asked during a call in a session (stdio, or HTTP with one) whose client offers elicitation.
    const askable = (extra.requestInfo === undefined || extra.sessionId !== undefined) && server.getClientCapabilities()?.elicitation !== undefined
    const ask: AskForm | undefined = askable ? params => server.elicitInput(params as never, { relatedRequestId: extra.requestId }) as never : undefined
    const meta = request.params._meta as Record<string, unknown> | undefined
    const facts = { tool: request.params.name, args: request.params.arguments, authInfo: extra.authInfo, ...(name === undefined ? {} : { profile: name }) }
    const way = { requestId: extra.requestId, transport: extra.requestInfo ? 'tcp' as const : 'pipe' as const, ...(meta ? { meta } : {}), ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }) }
    return watchedCall(watch, facts, way, (observed, trace) => service.call(request.params.name, request.params.arguments, { signal: extra.signal, sessionId: extra.sessionId, authInfo: extra.authInfo, ...(ask ? { ask } : {}), ...(observed ? { observed } : {}), ...(trace === undefined ? {} : { trace }) }, name, unsure))
  })
  // tools/catalog and tools/describe are no 1.x request schema: they are served where no handler is.
  server.fallbackRequestHandler = async (request, extra) => {
    if (!isDisclosureMethod(request.method))
      throw new McpError(ErrorCode.MethodNotFound, 'Method not found')
    const list = await service.list((await profile(factsOf(extra), 'list')).profile)
    const answer = await answerDisclosure(request.method, request.params, list)
    if ('error' in answer)
      throw new McpError(answer.error.code, answer.error.message, answer.error.data)
    return answer.result as never
  }
  repairStringArguments(server)
  return server
}

/** SDK 1.x request headers (`IsomorphicHeaders`) as web `Headers`; malformed ones are left out. */
function toHeaders(headers: Record<string, string | string[] | undefined> | undefined): Headers | undefined {
  if (!headers)
    return undefined
  const out = new Headers()
  for (const [name, value] of Object.entries(headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      try {
        out.append(name, item)
      }
      catch {
        // A value web Headers refuses: not a header a choice can rely on.
      }
    }
  }
  return out
}
