// A proxy as a fetch handler, for where servers scale out (Cloudflare Workers, any serverless
// platform): stateless, from a snapshot, in front of a Streamable HTTP upstream. It holds no
// connection and no session of its own: every request goes to the upstream as the client sent it
// (its session header, its streams, its protocol era), except that `tools/list` is answered from the
// snapshot and a `tools/call`'s arguments are repaired and mapped back on the way. No MCP SDK and no
// compiler are loaded.
import type * as Compiler from '@flatmcp/core'
import type { Surface } from '../../service/options'
import type { ProfileChoice, RequestFacts } from '../../service/profile-choice'
import type { Validator } from '../compile/chooser'
import type { ForwardedResult } from '../serve/outputs'
import type { HttpGuardOptions } from './guard'
import { answerDisclosure, DISCLOSURE_CAPABILITY, isDisclosureMethod } from '../../service/disclosure'
import { instanceProfile } from '../../service/profile-choice'
import { errorResult } from '../../service/results'
import { callTarget, SURFACE_TOOLS } from '../../service/surface'
import { logLine } from '../../util/log'
import { isObject } from '../../util/object'
import { answerShaped } from '../serve/answer-shaped'
import { readOverrides, withFixed } from '../compile/overrides'
import { httpGuard } from './guard'
import { headerDeclarations, mirrorCall } from './param-headers'
import { servedTools } from '../serve/served-tools'
import { readSnapshot } from '../compile/snapshot-drift'
import { shown } from '../compile/read-list'

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

/** The redirects that keep their method and body: the only ones a JSON-RPC request is sent on after. */
const REDIRECTS = new Set([307, 308])

/** Headers that belong to one hop of HTTP, not to the request: never forwarded. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length', 'accept-encoding', 'proxy-authorization', 'proxy-connection', 'te', 'trailer'])

interface JsonRpcRequest { jsonrpc?: unknown, id?: unknown, method?: unknown, params?: Record<string, unknown> }

/** A `tools/call` as it goes upstream: its headers mirror these. */
interface SentCall { name: string, arguments: unknown }

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

/** A request body as text, or undefined when it is longer than `max` bytes (read no further). */
async function boundedText(request: Request, max: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > max)
    return undefined
  if (!request.body)
    return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done)
      break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}

/** The requests whose answer says what the server offers: a 2025 session's `initialize`, a 2026-07-28 `server/discover`. */
const HANDSHAKES = new Set(['initialize', 'server/discover'])

/** A handshake's result with `tools.progressiveDisclosure` among its capabilities (where it offers tools). */
function offersDisclosure(result: ForwardedResult): ForwardedResult {
  const capabilities = (result as { capabilities?: unknown }).capabilities
  if (!isObject(capabilities) || !isObject(capabilities.tools))
    return result
  return { ...result, capabilities: { ...capabilities, tools: { ...capabilities.tools, ...DISCLOSURE_CAPABILITY } } } as ForwardedResult
}

/** The search surface's own tools (in a batch, refused: MCP has had no batches since 2025-06-18). */
const SURFACED = new Set<string>(Object.values(SURFACE_TOOLS))

/**
 * A stateless proxy for an HTTP upstream, from its snapshot: `tools/list` served from the snapshot
 * (no upstream round trip, no compiling), `tools/call` repaired and mapped back with each profile's
 * inverse, the reading chosen by the upstream's schema, then forwarded; everything else (sessions,
 * streams, resources, prompts, notifications, both protocol eras) forwarded as the client sent it,
 * and every answer returned as the upstream gave it.
 */
export function createProxyHandler(options: ProxyHandlerOptions): ProxyHandler {
  const { snapshot, tools } = readSnapshot(options.snapshot)
  const preset = snapshot.options.preset as Compiler.PresetName
  const upstreamUrl = new URL(options.upstream)
  const send = options.fetch ?? ((request: Request) => fetch(request))
  const max = options.maxRequestBodySize ?? 4 * 1024 * 1024
  const log = options.log ?? logLine
  const refused = (): never => {
    throw new Error('the proxy handler forwards calls; it does not run them')
  }
  const served = servedTools(tools, {
    preset,
    ...(options.validator ? { validator: options.validator } : {}),
    profile: options.profile,
    handler: () => refused,
    unknownTool: message => new Error(message),
    withdrawn: new Set(),
    ...(options.outputs ? { outputs: options.outputs } : {}),
    ...(options.surface ? { surface: options.surface } : {}),
    ...(options.alwaysLoad ? { alwaysLoad: options.alwaysLoad } : {}),
    onWithdraw: tool => log(`flatmcp proxy: tool ${shown(tool.name)} answered with structuredContent its output schema does not take; its output schema is no longer listed by this instance (said once for this tool)`),
  })
  // The operator's overrides the snapshot was made with: a hidden tool is no tool, a fixed parameter is set on every call.
  const recorded = snapshot.overrides
  const hidden = new Set(recorded ? Object.entries(readOverrides(recorded.file).tools).filter(([, tool]) => tool.hide).map(([name]) => name) : [])
  const fixed = new Map(Object.entries(recorded?.fixed ?? {}))
  /** Each tool's `x-mcp-header` declarations, as its upstream schema makes them. */
  const declarations = new Map(tools.map(tool => [tool.name, headerDeclarations(tool.upstream.tool)]))
  /** The tools whose results the handler reads on the way back: those that list an output schema. */
  const withOutput = new Set(tools.filter(tool => tool.precomputed.tool.outputSchema !== undefined).map(tool => tool.name))

  /** The request as it goes upstream: the client's headers, less one hop's, with the operator's over them. */
  const upstreamRequest = (request: Request, body: string | undefined, call?: SentCall): Request => {
    const headers = new Headers()
    request.headers.forEach((value, name) => {
      // The caller's credential is for the proxy, never the upstream's to see.
      if (!HOP_BY_HOP.has(name.toLowerCase()) && !(guarded && name.toLowerCase() === 'authorization'))
        headers.append(name, value)
    })
    if (call)
      mirrorCall(headers, call.name, call.arguments, declarations.get(call.name) ?? [])
    for (const [name, value] of Object.entries(options.headers ?? {}))
      headers.set(name, value)
    return new Request(upstreamUrl, { method: request.method, headers, ...(body === undefined ? {} : { body }), signal: request.signal, redirect: 'manual' })
  }

  /** The upstream's answer, as it came: its body streamed through, less the headers of its own hop. */
  const passBack = async (response: Response): Promise<Response> => {
    const headers = new Headers(response.headers)
    // The body is decoded by the fetch that read it: its encoding and length no longer hold.
    for (const name of ['content-encoding', 'content-length', 'transfer-encoding', 'connection'])
      headers.delete(name)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }

  const forward = async (request: Request, body?: string, call?: SentCall): Promise<Response> => {
    try {
      let sent = upstreamRequest(request, body, call)
      let answer = await send(sent)
      // A redirect is followed only within the upstream's origin (a few hops): elsewhere the
      // operator's headers would go with it.
      for (let hops = 0; REDIRECTS.has(answer.status) && answer.headers.has('location'); hops++) {
        const next = new URL(answer.headers.get('location')!, sent.url)
        if (next.origin !== upstreamUrl.origin || hops >= 3) {
          log(`flatmcp proxy: the upstream redirected to ${next.origin === upstreamUrl.origin ? 'itself more than 3 times' : 'another origin'}; not followed`)
          return jsonResponse({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'The server behind this proxy redirected elsewhere; the proxy does not follow it.' } }, 502)
        }
        sent = new Request(next, { method: sent.method, headers: sent.headers, ...(body === undefined ? {} : { body }), signal: request.signal, redirect: 'manual' })
        answer = await send(sent)
      }
      return await passBack(answer)
    }
    catch (error) {
      log(`flatmcp proxy: the upstream could not be reached: ${(error as Error).message}`)
      return jsonResponse({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'The server behind this proxy could not be reached.' } }, 502)
    }
  }

  const factsOf = (request: Request, message: JsonRpcRequest): RequestFacts => {
    const meta = isObject(message.params?._meta) ? message.params._meta : {}
    return {
      era: 'io.modelcontextprotocol/protocolVersion' in meta ? 'modern' : 'legacy',
      url: new URL(request.url),
      headers: request.headers,
      clientInfo: () => meta['io.modelcontextprotocol/clientInfo'] as never,
    }
  }

  /** A `tools/call` with its arguments as the upstream's parser should read them; the message as it was when there is nothing to do. */
  const readCall = async (message: JsonRpcRequest, profile: string | undefined): Promise<JsonRpcRequest> => {
    const name = message.params?.name
    if (typeof name !== 'string')
      return message
    const read = await served.service().read(name, message.params!.arguments, profile)
    const input = read?.ok ? read.input : message.params!.arguments
    return read?.ok || fixed.has(name) ? { ...message, params: { ...message.params, arguments: withFixed(input, fixed.get(name)) } } : message
  }

  /** A result this handler answers itself: in 2026-07-28, complete and saying which server answered (as the SDKs' servers stamp them). */
  const answered = (facts: RequestFacts, result: object): object => facts.era === 'modern' ? { ...result, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': snapshot.upstream } } : result

  const guard = httpGuard(options)
  const guarded = (options.tokens?.length ?? 0) > 0
  return {
    fetch: async (request) => {
      const refused = await guard(request)
      if (refused)
        return refused
      if (request.method !== 'POST')
        return forward(request)
      const text = await boundedText(request, max)
      if (text === undefined)
        return jsonResponse({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `The request body is over ${max} bytes.` } }, 413)
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      }
      catch {
        return forward(request, text)
      }
      const messages = Array.isArray(parsed) ? parsed : [parsed]
      if (!messages.every(isObject))
        return forward(request, text)
      const listing = (m: { method?: unknown }): boolean => m.method === 'tools/list' || isDisclosureMethod(m.method)
      if (Array.isArray(parsed) && messages.some(listing))
        return jsonResponse({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Send tools/list, tools/catalog and tools/describe on their own, not in a batch: this proxy answers them from its snapshot.' } }, 400)
      const message = messages[0] as JsonRpcRequest
      const facts = factsOf(request, message)
      // Each request is decided alone: a stateless proxy has no session to keep a profile in.
      const { profile } = await instanceProfile(options.profile)(facts, listing(message) ? 'list' : 'call')
      if (!Array.isArray(parsed) && message.method === 'tools/list') {
        if (message.params?.cursor !== undefined)
          return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, error: { code: -32602, message: 'Invalid cursor: this proxy serves the whole list on one page.' } })
        return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(facts, await served.service().list(profile)) })
      }
      if (!Array.isArray(parsed) && isDisclosureMethod(message.method)) {
        const answer = await answerDisclosure(message.method, message.params, await served.service().list(profile))
        return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, ...('error' in answer ? answer : { result: answered(facts, answer.result) }) })
      }
      // The handshake's answer offers what this handler serves besides the upstream: tools/catalog and tools/describe.
      if (!Array.isArray(parsed) && HANDSHAKES.has(message.method as string) && message.id !== undefined)
        return answerShaped(await forward(request, text), message.id, offersDisclosure)
      if (!messages.some(m => m.method === 'tools/call'))
        return forward(request, text)
      // The tool a call reaches: the one named, or the one a call_tool names.
      const reached = (m: JsonRpcRequest): unknown => options.surface === 'search' && m.params?.name === SURFACE_TOOLS.call ? (callTarget(m.params.arguments) as { name?: unknown }).name : m.params?.name
      const hiddenCall = (messages as JsonRpcRequest[]).find(m => m.method === 'tools/call' && hidden.has(reached(m) as string))
      if (hiddenCall)
        return jsonResponse({ jsonrpc: '2.0', id: Array.isArray(parsed) ? null : hiddenCall.id ?? null, error: { code: -32602, message: `Unknown tool ${JSON.stringify(reached(hiddenCall))}.` } }, Array.isArray(parsed) ? 400 : 200)
      // The search surface: finding and describing are answered here; a call_tool names the call that goes on.
      const surfacedIn = (m: JsonRpcRequest): boolean => options.surface === 'search' && m.method === 'tools/call' && SURFACED.has(m.params?.name as string)
      const surfaced = surfacedIn(message)
      if (Array.isArray(parsed) && (messages as JsonRpcRequest[]).some(surfacedIn))
        return jsonResponse({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Send ${[...SURFACED].join(', ')} on their own, not in a batch.` } }, 400)
      if (surfaced && message.params!.name !== SURFACE_TOOLS.call)
        return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(facts, await served.service().call(message.params!.name as string, message.params!.arguments, { signal: request.signal }, profile)) })
      if (surfaced) {
        const target = callTarget(message.params!.arguments)
        if ('error' in target)
          return jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: answered(facts, errorResult(target.error)) })
        messages[0] = { ...message, params: { ...message.params, name: target.name, arguments: target.arguments } }
      }
      const rewritten = await Promise.all((messages as JsonRpcRequest[]).map(m => m.method === 'tools/call' ? readCall(m, profile) : m))
      // A lone 2026-07-28 call's mirrored headers are made from the arguments sent on.
      const sent = rewritten[0]!.params
      const call = !Array.isArray(parsed) && facts.era === 'modern' && typeof sent?.name === 'string' ? { name: sent.name, arguments: sent.arguments } : undefined
      const answer = await forward(request, JSON.stringify(Array.isArray(parsed) ? rewritten : rewritten[0]), call)
      // A lone call's result is shaped as its tool's listed output says (wrapped, checked).
      const name = (messages[0] as JsonRpcRequest).params?.name
      return !Array.isArray(parsed) && typeof name === 'string' && withOutput.has(name) && message.id !== undefined
        ? answerShaped(answer, message.id, result => served.shape(name, result))
        : answer
    },
  }
}
