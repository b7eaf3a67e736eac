// The host for the MCP SDK 2.x (`@modelcontextprotocol/server`): the tool service's list and call
// registered on its `Server`, in both protocol eras, each request's profile chosen from what it carries.
import type { RequestStateCodec, ServerContext } from '@modelcontextprotocol/server'
import type { AskForm } from '../elicit/ask'
import type { McpServerOptions } from '../service/options'
import type { ClientInfo, RequestFacts } from '../service/profile-choice'
import type { ToolService } from '../service/tool-service'
import type { CallTelemetry } from '../telemetry/call-telemetry'
import type { ProgressUpdate, StandardSchemaV1, ToolDefinition } from '../tool/define-tool'
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, createRequestStateCodec, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server'
import { replayedAsk } from '../elicit/replay'
import { callWatch, watchedCall } from './observe-call'
import { serverTelemetry } from '../telemetry/call-telemetry'
import { requestWay, traceCarrier } from '../telemetry/request-way'
import { answerDisclosure, DISCLOSURE_CAPABILITY, DISCLOSURE_METHODS } from '../search/disclosure'
import { instanceProfile } from '../service/profile-choice'
import { servedService } from '../search/served'
import { choiceWithRules } from '../search/views'
import { createToolService, saidOnce } from '../service/tool-service'
import { repairStringArguments } from './string-arguments'

export type { ExtendOptions, McpServerOptions, RequestInfo, ServedRequest } from '../service/options'
export type { ClientInfo, ProfileChoice, ProfileRequest } from '../service/profile-choice'

/**
 * An MCP SDK 2.x `Server` (`@modelcontextprotocol/server`) that serves `tools`, with the same
 * guarantees as the 1.x one: `tools/list` from the precomputed schemas, `tools/call` by coercing the
 * arguments (a whole arguments string too), validating them with each tool's original schemas and
 * calling its handler. Connect it to any 2.x transport, or serve both protocol eras (2025 sessions
 * and stateless 2026-07-28 requests) from a factory: `createMcpHandler(request => createMcpServer(
 * tools, info, { request }))` over HTTP, `serveStdio(...)` the same way over stdio.
 */
export function createMcpServer<S extends StandardSchemaV1 = StandardSchemaV1, C = unknown>(tools: readonly ToolDefinition[], info: { name: string, version: string }, options: McpServerOptions<S, C> = {}): Server {
  const service = saidOnce(() => servedService(createToolService(tools, options, unknownTool), options, unknownTool))
  // A round's state goes out sealed and comes back verified (the spec's integrity MUST): a forged or
  // stale one is refused (-32602) before any handler replays it as the user's answer.
  const codec = stateCodec(options.requestState)
  const server = new Server(info, { capabilities: { ...options.capabilities, tools: { ...DISCLOSURE_CAPABILITY } as { listChanged?: boolean } }, ...(options.instructions === undefined ? {} : { instructions: options.instructions }), requestState: { verify: codec.verify } })
  serveTools(server, () => service, options, codec)
  return server
}

/** A Standard Schema that takes any params object as it is: the disclosure answers read their params themselves. */
const ANY_PARAMS = {
  '~standard': { version: 1 as const, vendor: 'flatmcp', validate: (value: unknown) => ({ value: (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown> }) },
}

/** The key a server's round states are sealed with where none is given: one per process. */
let processKey: Uint8Array | undefined

/** What seals a 2026-07-28 round's state (HMAC-SHA256, bound to the request's method) and verifies it when it comes back. */
export function stateCodec(options: McpServerOptions['requestState'] = {}): RequestStateCodec {
  processKey ??= crypto.getRandomValues(new Uint8Array(32))
  return createRequestStateCodec({ key: options.key ?? processKey, ttlSeconds: options.ttlSeconds ?? 600, bind: ctx => ctx.mcpReq.method })
}

/** The error an SDK 2.x server answers a call for a name no tool has. */
export function unknownTool(message: string): Error {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message)
}

/**
 * Registers `tools/list` and `tools/call` on an SDK 2.x `Server`, each served by the tool service
 * `service()` gives at that request (a proxy swaps it when its upstream's list changes), read with
 * the profile the request's facts choose, and repairs a whole arguments string.
 */
export function serveTools(server: Server, service: () => ToolService, options: McpServerOptions = {}, codec?: RequestStateCodec, traced?: CallTelemetry): void {
  const telemetry = traced ?? (options.telemetry ? serverTelemetry(options.telemetry) : undefined)
  const watch = callWatch(options.onCall, telemetry)
  const profile = instanceProfile(choiceWithRules(options.profile, options.rules))
  const http = options.request?.requestInfo
  const url = http ? URL.parse(http.url) ?? undefined : undefined
  const factsOf = (ctx: ServerContext): RequestFacts => {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined
    const era = options.request?.era ?? (envelope ? 'modern' : 'legacy')
    const authInfo = ctx.http?.authInfo ?? options.request?.authInfo
    return {
      era,
      ...(url ? { url } : {}),
      ...(http ? { headers: http.headers } : {}),
      ...(authInfo === undefined ? {} : { authInfo }),
      // 2026-07-28: this request's own; a 2025 session: what `initialize` said.
      clientInfo: () => (era === 'modern' ? envelope?.[CLIENT_INFO_META_KEY] : server.getClientVersion()) as ClientInfo | undefined,
    }
  }
  // Traced where telemetry is on: each request a SERVER span of its method, under the caller's trace context (`_meta`, else HTTP headers).
  const wayOf = (ctx: ServerContext): ReturnType<typeof requestWay> => requestWay(ctx, () => server.getNegotiatedProtocolVersion(), http?.headers)
  const spanned = <T>(ctx: ServerContext, params: { _meta?: unknown } | undefined, run: () => Promise<T>): Promise<T> => {
    if (!telemetry)
      return run()
    const meta = traceCarrier(params?._meta, ctx.http?.req?.headers)
    return telemetry.serve({ method: ctx.mcpReq.method, ...wayOf(ctx), ...(meta ? { meta } : {}) }, run)
  }
  server.setRequestHandler('tools/list', async (request, ctx) => spanned(ctx, request.params, async () => service().list((await profile(factsOf(ctx), 'list')).profile) as never))
  // Progressive disclosure: views of the same list, for clients that ask for them.
  for (const method of DISCLOSURE_METHODS) {
    server.setRequestHandler(method, { params: ANY_PARAMS }, async (params, ctx) => spanned(ctx, params as { _meta?: unknown }, async () => {
      const answer = await answerDisclosure(method, params, await service().list((await profile(factsOf(ctx), 'list')).profile))
      if ('error' in answer)
        throw new ProtocolError(answer.error.code, answer.error.message, answer.error.data)
      return answer.result as never
    }))
  }
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const authInfo = ctx.http?.authInfo
    const meta = request.params._meta as { progressToken?: string | number } | undefined
    const token = meta?.progressToken
    const progress = token === undefined ? undefined : (update: ProgressUpdate): Promise<void> => ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...update, progressToken: token } })
    // The client can be asked during a call in a 2025 session (stdio, or HTTP with a session) whose
    // client offers elicitation; in 2026-07-28, by ending the call with input_required, where the
    // request says its client takes elicitation.
    const facts = factsOf(ctx)
    const modernAsks = facts.era === 'modern' && (ctx.mcpReq.envelope as { [CLIENT_CAPABILITIES_META_KEY]?: { elicitation?: unknown } } | undefined)?.[CLIENT_CAPABILITIES_META_KEY]?.elicitation !== undefined
    const legacyAsks = facts.era === 'legacy' && (ctx.http === undefined || ctx.sessionId !== undefined) && server.getClientCapabilities()?.elicitation !== undefined
    const ask: AskForm | undefined = modernAsks
      ? replayedAsk(ctx.mcpReq.requestState(), ctx.mcpReq.inputResponses)
      : legacyAsks ? params => ctx.mcpReq.elicitInput(params as never) as never : undefined
    const rounds = facts.era === 'modern' ? { state: ctx.mcpReq.requestState(), responses: ctx.mcpReq.inputResponses as Record<string, unknown> | undefined } : undefined
    const about = { signal: ctx.mcpReq.signal, ...(ctx.sessionId === undefined ? {} : { sessionId: ctx.sessionId }), ...(authInfo === undefined ? {} : { authInfo }), ...(progress ? { progress } : {}), ...(meta ? { meta } : {}), ...(ask ? { ask } : {}), ...(rounds ? { rounds } : {}) }
    const { profile: name, unsure } = await profile(facts, 'call')
    const called = { tool: request.params.name, args: request.params.arguments, authInfo: authInfo ?? facts.authInfo, ...(name === undefined ? {} : { profile: name }) }
    const carried = traceCarrier(meta, ctx.http?.req?.headers)
    const way = { ...wayOf(ctx), ...(carried ? { meta: carried } : {}) }
    const result = await watchedCall(watch, called, way, (observed, trace) => service().call(request.params.name, request.params.arguments, observed || trace !== undefined ? { ...about, ...(observed ? { observed } : {}), ...(trace === undefined ? {} : { trace }) } : about, name, unsure))
    // A round that asks goes out with its state sealed, where this server seals (its own rounds; a proxy's are tokens).
    if (codec && result.resultType === 'input_required' && result.requestState !== undefined)
      return { ...result, requestState: await codec.mint(result.requestState, ctx) } as never
    return result as never
  })
  repairStringArguments(server)
}
