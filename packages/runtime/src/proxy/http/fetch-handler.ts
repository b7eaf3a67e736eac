// A proxy as a fetch handler, for where servers scale out (Cloudflare Workers, any serverless
// platform): stateless, from a snapshot, in front of a Streamable HTTP upstream (or many: see
// fetch-gateway.ts). It holds no connection and no session of its own: every request goes to the
// upstream as the client sent it (its session header, its streams, its protocol era; a body as it
// was read, written anew, and one it cannot read refused), except that `tools/list` is answered from
// the snapshot and a `tools/call`'s arguments are repaired and mapped back on the way (fetch-calls.ts). No
// MCP SDK and no compiler are loaded.
import type * as Compiler from '@flatmcp/core'
import type { RequestFacts } from '../../service/profile-choice'
import type { ForwardedResult } from '../serve/outputs'
import type { ProxyHandler, ProxyHandlerOptions } from './fetch-options'
import type { Handler, Posted, Send } from './fetch-state'
import type { JsonRpcRequest } from './json-rpc'
import type { NameMap } from '../upstream/name-map'
import type { UpstreamFetch } from './upstream-fetch'
import { answerDisclosure, DISCLOSURE_CAPABILITY, isDisclosureMethod } from '../../search/disclosure'
import { instanceProfile } from '../../service/profile-choice'
import { choiceWithRules, choiceWithViews } from '../../search/views'
import { logLine, shown } from '../../util/log'
import { isObject } from '../../util/object'
import { callTelemetry } from '../../telemetry/call-telemetry'
import { readSnapshot } from '../compile/snapshot-drift'
import { recordedNames } from '../upstream/name-map'
import { servedOverrides } from '../serve/served-overrides'
import { servedTools } from '../serve/served-tools'
import { answerShaped } from './answer-shaped'
import { headedByBody } from './body-era'
import { answerCalls } from './fetch-calls'
import { answerGateway, gatewayServers, sendGateway } from './fetch-gateway'
import { answered, scoped } from './fetch-state'
import { tracedRequest } from '../../telemetry/fetch-telemetry'
import { httpGuard } from './guard'
import { boundedText, jsonResponse, readMessages, rpcError, tooLarge } from './json-rpc'
import { headerDeclarations } from './param-headers'
import { upstreamFetch } from './upstream-fetch'

/** The requests whose answer says what the server offers: a 2025 session's `initialize`, a 2026-07-28 `server/discover`. */
const HANDSHAKES = new Set(['initialize', 'server/discover'])

/** A handshake's result with `tools.progressiveDisclosure` among its capabilities (where it offers tools). */
function offersDisclosure(result: ForwardedResult): ForwardedResult {
  const capabilities = (result as { capabilities?: unknown }).capabilities
  if (!isObject(capabilities) || !isObject(capabilities.tools))
    return result
  return { ...result, capabilities: { ...capabilities, tools: { ...capabilities.tools, ...DISCLOSURE_CAPABILITY } } } as ForwardedResult
}

function factsOf(request: Request, message: JsonRpcRequest, caller: string | undefined): RequestFacts {
  const meta = isObject(message.params?._meta) ? message.params._meta : {}
  return {
    era: 'io.modelcontextprotocol/protocolVersion' in meta ? 'modern' : 'legacy',
    url: new URL(request.url),
    headers: request.headers,
    // The caller's name, as the guard found its credential: what the rules hold it to.
    ...(caller === undefined ? {} : { authInfo: { clientId: caller } }),
    clientInfo: () => meta['io.modelcontextprotocol/clientInfo'] as never,
  }
}

/** Whether a message lists tools (tools/list, tools/catalog, tools/describe): answered from the snapshot. */
const listing = (message: JsonRpcRequest): boolean => message.method === 'tools/list' || isDisclosureMethod(message.method)

/** The snapshot served, the overrides it was made with, and the way upstream: made once per handler. */
function handlerOf(options: ProxyHandlerOptions): Handler {
  const { snapshot, tools } = readSnapshot(options.snapshot)
  const log = options.log ?? logLine
  const overrides = servedOverrides(undefined, snapshot.overrides, options.alwaysLoad)
  const refused = (): never => {
    throw new Error('the proxy handler forwards calls; it does not run them')
  }
  // The snapshot's name map: a call reaches a served name's own server and name, nothing else.
  const names = recordedNames(tools, snapshot.upstream.name)
  const served = servedTools(tools, {
    preset: snapshot.options.preset as Compiler.PresetName,
    ...(options.validator ? { validator: options.validator } : {}),
    profile: options.profile,
    handler: () => refused,
    unknownTool: message => new Error(message),
    withdrawn: new Set(),
    ...(options.outputs ? { outputs: options.outputs } : {}),
    ...(options.surface ? { surface: options.surface } : {}),
    ...(overrides.alwaysLoad.length > 0 ? { alwaysLoad: overrides.alwaysLoad } : {}),
    ...(overrides.views ? { views: overrides.views } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
    originOf: names.origin,
    onWithdraw: tool => log(`flatmcp proxy: tool ${shown(tool.name)} answered with structuredContent its output schema does not take; its output schema is no longer listed by this instance (said once for this tool)`),
  })
  const withOutput = new Set(tools.filter(tool => tool.precomputed.tool.outputSchema !== undefined).map(tool => tool.name))
  const base = { fetch: options.fetch ?? ((request: Request) => fetch(request)), guarded: (options.tokens?.length ?? 0) > 0, log }
  const gateway = options.upstreams ? gatewayServers(options.upstreams, tools, names, base) : undefined
  const forward = gateway ? async () => rpcError(null, -32600, 'Send this to one of the servers behind this proxy.', 400) : upstreamFetch({
    ...base,
    upstream: new URL(options.upstream!),
    ...(options.headers ? { headers: options.headers } : {}),
    declarations: new Map(tools.map(tool => [names.origin(tool.name)!.name, headerDeclarations(tool.upstream.tool)])),
  })
  const instructions = snapshot.handshake?.instructions
  return {
    options,
    profile: choiceWithRules(overrides.views ? choiceWithViews(options.profile, Object.keys(overrides.views)) : options.profile, options.rules),
    upstream: snapshot.upstream,
    ...(instructions === undefined ? {} : { instructions }),
    served,
    overrides,
    fixed: new Map(Object.entries(snapshot.overrides?.fixed ?? {})),
    withOutput,
    forward,
    send: gateway ? sendGateway(gateway, names) : sendOne(forward, names),
    ...(gateway ? { gateway } : {}),
    names,
    // Each tool's upstream: the server it comes from (a snapshot of many), else the one upstream.
    ...(options.telemetry ? { telemetry: callTelemetry(options.telemetry, gateway ? tool => names.origin(tool)?.server : () => snapshot.upstream.name) } : {}),
  }
}

/**
 * What goes to the one upstream: each call under its tool's own name (the name map's), a lone
 * 2026-07-28 call with its mirrored headers made from the arguments sent on.
 */
function sendOne(forward: UpstreamFetch, names: NameMap): Send {
  const own = (message: JsonRpcRequest): JsonRpcRequest => {
    const origin = message.method === 'tools/call' && typeof message.params?.name === 'string' ? names.origin(message.params.name) : undefined
    return origin ? { ...message, params: { ...message.params, name: origin.name } } : message
  }
  return (request, body, era) => {
    const sent = Array.isArray(body) ? body.map(own) : own(body)
    const params = Array.isArray(sent) ? undefined : sent.params
    const call = era === 'modern' && typeof params?.name === 'string' ? { name: params.name, arguments: params.arguments } : undefined
    return forward(request, JSON.stringify(sent), call)
  }
}

/**
 * A stateless proxy for an HTTP upstream, from its snapshot: `tools/list` served from the snapshot
 * (no upstream round trip, no compiling), `tools/call` repaired and mapped back with each profile's
 * inverse, the reading chosen by the upstream's schema, then forwarded; everything else (sessions,
 * streams, resources, prompts, notifications, both protocol eras) forwarded as the client sent it,
 * and every answer returned as the upstream gave it.
 */
export function createProxyHandler(options: ProxyHandlerOptions): ProxyHandler {
  const handler = handlerOf(options)
  const max = options.maxRequestBodySize ?? 4 * 1024 * 1024
  const guard = httpGuard(options)
  return {
    fetch: async (request) => {
      const admitted = await guard(request)
      if (admitted instanceof Response)
        return admitted
      if (request.method !== 'POST')
        return handler.gateway ? (await answerGateway(handler, handler.gateway, request))! : handler.forward(request)
      const text = await boundedText(request, max)
      if (text === undefined)
        return tooLarge(max)
      const read = readMessages(text)
      if ('error' in read)
        return rpcError(null, read.error.code, read.error.message, 400)
      // A body that names another revision than the header is served, and sent on, in the body's.
      const headed = read.batch ? request : headedByBody(request, read.messages[0], handler.options.log ?? logLine)
      const posted = postedOf(headed, read, admitted.caller)
      // Traced where telemetry is on: each lone request (a notification answers nothing; a 2025-03-26 batch goes untraced).
      return handler.telemetry && !read.batch && read.messages[0]!.id !== undefined
        ? tracedRequest(handler.telemetry, headed, posted, each => answerPost(handler, headed, each))
        : answerPost(handler, headed, posted)
    },
  }
}

/** A POST's messages as read, and the body that goes upstream where nothing in it changes: the messages written anew, never the text as it came. */
function postedOf(request: Request, read: { batch: boolean, messages: JsonRpcRequest[], text: string }, caller: string | undefined): Omit<Posted, 'profile'> {
  const { batch, messages, text } = read
  return { text, batch, messages, facts: factsOf(request, messages[0]!, caller) }
}

/** A POST answered: a listing from the snapshot, a handshake with what this handler offers besides, a call read and sent on, anything else as it came. */
async function answerPost(handler: Handler, request: Request, read: Omit<Posted, 'profile'>): Promise<Response> {
  const { batch, messages } = read
  const message = messages[0]!
  if (batch && messages.some(listing))
    return rpcError(null, -32600, 'Send tools/list, tools/catalog and tools/describe on their own, not in a batch: this proxy answers them from its snapshot.', 400)
  // Each request is decided alone: a stateless proxy has no session to keep a profile in.
  const { profile } = await instanceProfile(handler.profile)(read.facts, listing(message) ? 'list' : 'call')
  const posted: Posted = { ...read, profile }
  const own = handler.gateway && await answerGateway(handler, handler.gateway, request, posted)
  if (own)
    return own
  if (!batch && message.method === 'tools/list') {
    if (message.params?.cursor !== undefined)
      return rpcError(message.id, -32602, 'Invalid cursor: this proxy serves the whole list on one page.')
    return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(handler, posted, scoped(handler, request, await handler.served.service().list(profile))) })
  }
  if (!batch && isDisclosureMethod(message.method)) {
    const answer = await answerDisclosure(message.method, message.params, await handler.served.service().list(profile))
    return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, ...('error' in answer ? answer : { result: answered(handler, posted, answer.result) }) })
  }
  // The handshake's answer offers what this handler serves besides the upstream: tools/catalog and tools/describe.
  if (!batch && HANDSHAKES.has(message.method as string) && message.id !== undefined)
    return answerShaped(await handler.forward(request, posted.text), message.id, { result: offersDisclosure })
  if (!messages.some(m => m.method === 'tools/call'))
    return handler.forward(request, posted.text)
  return answerCalls(handler, request, posted)
}
