// A proxy as a fetch handler, for where servers scale out (Cloudflare Workers, any serverless
// platform): stateless, from a snapshot, in front of a Streamable HTTP upstream. It holds no
// connection and no session of its own: every request goes to the upstream as the client sent it
// (its session header, its streams, its protocol era; a body as it was read, written anew, and one
// it cannot read refused), except that `tools/list` is answered from the
// snapshot and a `tools/call`'s arguments are repaired and mapped back on the way. No MCP SDK and no
// compiler are loaded.
import type * as Compiler from '@flatmcp/core'
import type { Surface } from '../../service/options'
import type { ProfileChoice, RequestFacts } from '../../service/profile-choice'
import type { Validator } from '../compile/chooser'
import type { FixedParameter } from '../compile/overrides'
import type { ForwardedResult } from '../serve/outputs'
import type { ServedOverrides } from '../serve/served-overrides'
import type { ServedTools } from '../serve/served-tools'
import type { HttpGuardOptions } from './guard'
import type { JsonRpcRequest } from './json-rpc'
import type { UpstreamFetch } from './upstream-fetch'
import { answerDisclosure, DISCLOSURE_CAPABILITY, isDisclosureMethod } from '../../service/disclosure'
import { instanceProfile } from '../../service/profile-choice'
import { errorResult } from '../../service/results'
import { callTarget, SURFACE_TOOLS } from '../../service/surface'
import { logLine, shown } from '../../util/log'
import { isObject } from '../../util/object'
import { overriddenArguments } from '../compile/overrides'
import { readSnapshot } from '../compile/snapshot-drift'
import { servedOverrides } from '../serve/served-overrides'
import { servedTools } from '../serve/served-tools'
import { answerShaped } from './answer-shaped'
import { httpGuard } from './guard'
import { boundedText, jsonResponse, readMessages, rpcError } from './json-rpc'
import { headerDeclarations } from './param-headers'
import { upstreamFetch } from './upstream-fetch'

export interface ProxyHandlerOptions extends HttpGuardOptions {
  /** The upstream's Streamable HTTP endpoint. */
  upstream: string | URL
  /** The upstream's snapshot (`flatmcp snapshot <url> --out …`), parsed: what `tools/list` serves. */
  snapshot: unknown
  /**
   * The profile served: a name for every caller, or a function of what the request carries (its URL,
   * headers). Every request is decided alone, so choose by what each one carries (a path, a header).
   * Default: `portable`.
   */
  profile?: ProfileChoice
  /** Headers sent upstream with every request, over the client's own of the same name (an operator's token). */
  headers?: Record<string, string>
  /**
   * Builds a test of a value from the upstream's schema, to pick the reading of a call that goes
   * upstream (see `createProxy`). On Workers, where code cannot be generated at run time, use
   * `@cfworker/json-schema`. Default: no choice (the first reading).
   */
  validator?: Validator
  /** What reaches the upstream. Default: the global `fetch`. */
  fetch?: (request: Request) => Promise<Response>
  /** The largest request body read, in bytes; a larger one is answered 413. Default: 4 MiB. */
  maxRequestBodySize?: number
  /** How the snapshot's output schemas are listed: as compiled (the default), or not at all (`unlisted`, see `createProxy`). */
  outputs?: 'compiled' | 'unlisted'
  /**
   * What `tools/list` holds: every tool (the default), or three that find, describe and call them
   * (`search`, see `createProxy`): finding and describing are answered here, a `call_tool` goes
   * upstream as a call of the tool it names.
   */
  surface?: Surface
  /** With `surface: 'search'`: the tools listed beside the three, as they are. */
  alwaysLoad?: readonly string[]
  /** Where operator lines go. Default: one line on stderr (on the console where there is no process). */
  log?: (line: string) => void
}

export interface ProxyHandler {
  /** Serves one HTTP request (the web-standard face: `export default { fetch: handler.fetch }`). */
  fetch: (request: Request) => Promise<Response>
}

/** The requests whose answer says what the server offers: a 2025 session's `initialize`, a 2026-07-28 `server/discover`. */
const HANDSHAKES = new Set(['initialize', 'server/discover'])

/** The search surface's own tools (in a batch, refused: MCP has had no batches since 2025-06-18). */
const SURFACED = new Set<string>(Object.values(SURFACE_TOOLS))

/** What one handler holds for every request: the snapshot's tools served, what the overrides mean, the way upstream. */
interface Handler {
  options: ProxyHandlerOptions
  upstream: { name: string, version: string }
  served: ServedTools
  overrides: ServedOverrides
  fixed: ReadonlyMap<string, Record<string, FixedParameter>>
  /** The tools whose results the handler reads on the way back: those that list an output schema. */
  withOutput: ReadonlySet<string>
  forward: UpstreamFetch
}

/** One POST's messages as parsed: a lone message, or a batch. */
interface Posted { text: string, batch: boolean, messages: JsonRpcRequest[], facts: RequestFacts, profile: string | undefined }

/** A handshake's result with `tools.progressiveDisclosure` among its capabilities (where it offers tools). */
function offersDisclosure(result: ForwardedResult): ForwardedResult {
  const capabilities = (result as { capabilities?: unknown }).capabilities
  if (!isObject(capabilities) || !isObject(capabilities.tools))
    return result
  return { ...result, capabilities: { ...capabilities, tools: { ...capabilities.tools, ...DISCLOSURE_CAPABILITY } } } as ForwardedResult
}

function factsOf(request: Request, message: JsonRpcRequest): RequestFacts {
  const meta = isObject(message.params?._meta) ? message.params._meta : {}
  return {
    era: 'io.modelcontextprotocol/protocolVersion' in meta ? 'modern' : 'legacy',
    url: new URL(request.url),
    headers: request.headers,
    clientInfo: () => meta['io.modelcontextprotocol/clientInfo'] as never,
  }
}

/** Whether a message lists tools (tools/list, tools/catalog, tools/describe): answered from the snapshot. */
const listing = (message: JsonRpcRequest): boolean => message.method === 'tools/list' || isDisclosureMethod(message.method)

/** A result this handler answers itself: in 2026-07-28, complete and saying which server answered (as the SDKs' servers stamp them). */
function answered(handler: Handler, posted: Posted, result: object): object {
  return posted.facts.era === 'modern' ? { ...result, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': handler.upstream } } : result
}

/**
 * A list answer as a shared cache may keep it: `private` where the caller presents a credential (the
 * handler's `tokens`, or one of its own it sends on), so no cache answers one caller with another's.
 */
function scoped(handler: Handler, request: Request, list: { cacheScope: 'public' | 'private' }): object {
  const credentialed = (handler.options.tokens?.length ?? 0) > 0 || request.headers.has('authorization') || request.headers.has('cookie')
  return credentialed ? { ...list, cacheScope: 'private' } : list
}

/** The snapshot served, the overrides it was made with, and the way upstream: made once per handler. */
function handlerOf(options: ProxyHandlerOptions): Handler {
  const { snapshot, tools } = readSnapshot(options.snapshot)
  const log = options.log ?? logLine
  const overrides = servedOverrides(undefined, snapshot.overrides, options.alwaysLoad)
  const refused = (): never => {
    throw new Error('the proxy handler forwards calls; it does not run them')
  }
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
    onWithdraw: tool => log(`flatmcp proxy: tool ${shown(tool.name)} answered with structuredContent its output schema does not take; its output schema is no longer listed by this instance (said once for this tool)`),
  })
  const forward = upstreamFetch({
    upstream: new URL(options.upstream),
    ...(options.headers ? { headers: options.headers } : {}),
    fetch: options.fetch ?? ((request: Request) => fetch(request)),
    guarded: (options.tokens?.length ?? 0) > 0,
    declarations: new Map(tools.map(tool => [tool.name, headerDeclarations(tool.upstream.tool)])),
    log,
  })
  const withOutput = new Set(tools.filter(tool => tool.precomputed.tool.outputSchema !== undefined).map(tool => tool.name))
  return { options, upstream: snapshot.upstream, served, overrides, fixed: new Map(Object.entries(snapshot.overrides?.fixed ?? {})), withOutput, forward }
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
      const refused = await guard(request)
      if (refused)
        return refused
      if (request.method !== 'POST')
        return handler.forward(request)
      const text = await boundedText(request, max)
      if (text === undefined)
        return rpcError(null, -32600, `The request body is over ${max} bytes.`, 413)
      const read = readMessages(text)
      if ('error' in read)
        return rpcError(null, read.error.code, read.error.message, 400)
      return answerPost(handler, request, postedOf(request, read))
    },
  }
}

/** A POST's messages as read, and the body that goes upstream where nothing in it changes: the messages written anew, never the text as it came. */
function postedOf(request: Request, read: { batch: boolean, messages: JsonRpcRequest[] }): Omit<Posted, 'profile'> {
  const { batch, messages } = read
  return { text: JSON.stringify(batch ? messages : messages[0]), batch, messages, facts: factsOf(request, messages[0]!) }
}

/** A POST answered: a listing from the snapshot, a handshake with what this handler offers besides, a call read and sent on, anything else as it came. */
async function answerPost(handler: Handler, request: Request, read: Omit<Posted, 'profile'>): Promise<Response> {
  const { batch, messages } = read
  const message = messages[0]!
  if (batch && messages.some(listing))
    return rpcError(null, -32600, 'Send tools/list, tools/catalog and tools/describe on their own, not in a batch: this proxy answers them from its snapshot.', 400)
  // Each request is decided alone: a stateless proxy has no session to keep a profile in.
  const { profile } = await instanceProfile(handler.options.profile)(read.facts, listing(message) ? 'list' : 'call')
  const posted: Posted = { ...read, profile }
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

/** The tool a call reaches: the one named, or the one a call_tool names. */
function reached(handler: Handler, message: JsonRpcRequest): unknown {
  return handler.options.surface === 'search' && message.params?.name === SURFACE_TOOLS.call ? (callTarget(message.params.arguments) as { name?: unknown }).name : message.params?.name
}

/** Whether a message calls one of the search surface's own tools. */
function surfacedIn(handler: Handler, message: JsonRpcRequest): boolean {
  return handler.options.surface === 'search' && message.method === 'tools/call' && SURFACED.has(message.params?.name as string)
}

/**
 * Calls: a hidden tool's refused; the search surface's finding and describing answered here, its
 * call_tool sent on as the call it names; each call's arguments read by the upstream's schema, the
 * fixed parameters set; a lone call's result shaped as its tool's listed output says.
 */
async function answerCalls(handler: Handler, request: Request, posted: Posted): Promise<Response> {
  const { batch, messages, profile } = posted
  const message = messages[0]!
  const hiddenCall = messages.find(m => m.method === 'tools/call' && handler.overrides.hidden.has(reached(handler, m) as string))
  // A hidden tool is no tool: called by name (or in a batch), a protocol error; a lone call_tool answers below.
  if (hiddenCall && (batch || !surfacedIn(handler, hiddenCall)))
    return rpcError(batch ? null : hiddenCall.id, -32602, `Unknown tool ${JSON.stringify(reached(handler, hiddenCall))}.`, batch ? 400 : 200)
  if (batch && messages.some(m => surfacedIn(handler, m)))
    return rpcError(null, -32600, `Send ${[...SURFACED].join(', ')} on their own, not in a batch.`, 400)
  const sent = [...messages]
  if (surfacedIn(handler, message)) {
    if (message.params!.name !== SURFACE_TOOLS.call)
      return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(handler, posted, await handler.served.service().call(message.params!.name as string, message.params!.arguments, { signal: request.signal }, profile)) })
    const target = callTarget(message.params!.arguments)
    if ('error' in target)
      return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(handler, posted, errorResult(target.error)) })
    // call_tool answers for a hidden tool as for a name no tool has: its tool error.
    if (handler.overrides.hidden.has(target.name))
      return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(handler, posted, errorResult(`Unknown tool ${JSON.stringify(target.name)}.`)) })
    sent[0] = { ...message, params: { ...message.params, name: target.name, arguments: target.arguments } }
  }
  const rewritten = await Promise.all(sent.map(m => m.method === 'tools/call' ? readCall(handler, m, profile) : m))
  // A lone 2026-07-28 call's mirrored headers are made from the arguments sent on.
  const params = rewritten[0]!.params
  const call = !batch && posted.facts.era === 'modern' && typeof params?.name === 'string' ? { name: params.name, arguments: params.arguments } : undefined
  const answer = await handler.forward(request, JSON.stringify(batch ? rewritten : rewritten[0]), call)
  if (batch || message.id === undefined)
    return answer
  // A lone call's result is shaped as its tool's listed output says; through call_tool, the upstream's
  // protocol error is call_tool's tool error (as a direct call's is, where the proxy serves the surface).
  const name = sent[0]!.params?.name as string
  const shaped = handler.withOutput.has(name)
  const viaCallTool = sent[0] !== message
  if (!shaped && !viaCallTool)
    return answer
  return answerShaped(answer, message.id, {
    result: shaped ? result => handler.served.shape(name, result) : result => result,
    ...(viaCallTool ? { error: error => errorResult(String(error.message)) as ForwardedResult } : {}),
  })
}

/** A `tools/call` with its arguments as the upstream's parser should read them; the message as it was when there is nothing to do. */
async function readCall(handler: Handler, message: JsonRpcRequest, profile: string | undefined): Promise<JsonRpcRequest> {
  const name = message.params?.name
  if (typeof name !== 'string')
    return message
  const read = await handler.served.service().read(name, message.params!.arguments, profile)
  const input = read?.ok ? read.input : message.params!.arguments
  const overridden = handler.fixed.has(name) || handler.overrides.hiddenParameters.has(name)
  return read?.ok || overridden ? { ...message, params: { ...message.params, arguments: overriddenArguments(input, handler.fixed.get(name), handler.overrides.hiddenParameters.get(name)) } } : message
}
