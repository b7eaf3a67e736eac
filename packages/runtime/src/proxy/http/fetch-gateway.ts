// Many servers' tools behind one fetch handler, from a snapshot of the whole set (`flatmcp snapshot
// --config`): a call goes to the server its tool came from, under the tool's own name (a folded one to
// the replica its `target` names). Still stateless: a 2025 session is one session with each server,
// opened when the client's opens and carried in one composite `Mcp-Session-Id`; a 2026-07-28 request
// goes as it came. Tools are what it serves: prompts and resources are the command's (`proxy --config`).
import type { ProxiedTool, ToolOrigin } from '../../artifact/format'
import type { NameMap } from '../upstream/name-map'
import type { UpstreamEndpoint } from './fetch-options'
import type { Handler, GatewayServers, Posted, Send } from './fetch-state'
import type { JsonRpcRequest } from './json-rpc'
import type { UpstreamFetch, UpstreamFetchOptions } from './upstream-fetch'
import { DISCLOSURE_CAPABILITY } from '../../search/disclosure'
import { errorResult } from '../../service/results'
import { isObject } from '../../util/object'
import { chosenReplica } from '../upstream/gateway/replicas'
import { answered, scoped } from './fetch-state'
import { jsonResponse, rpcError } from './json-rpc'
import { headerDeclarations } from './param-headers'
import { upstreamFetch } from './upstream-fetch'

/** Each server's part of a 2025 session: the session it gave (none where it keeps none) and the protocol version it answered. */
type Sessions = Record<string, { id?: string, version?: string }>

/** What a composite session id starts with: the rest is base64url of its sessions' JSON. */
const COMPOSITE = 'flatmcp1.'

const FIRST_VERSION = '2025-03-26'
const MODERN_VERSION = '2026-07-28'

/** The servers a tool's calls may go to: its own, or each replica's. */
const serversOf = (origin: ToolOrigin): readonly string[] => origin.replicas ?? [origin.server]

/** One way upstream per server: what the snapshot's tools come from (its name map) must each have an endpoint. */
export function gatewayServers(endpoints: Readonly<Record<string, UpstreamEndpoint>>, tools: readonly ProxiedTool[], names: NameMap, base: Omit<UpstreamFetchOptions, 'upstream' | 'headers' | 'declarations' | 'name'>): GatewayServers {
  const unplaced = tools.find(tool => tool.origin === undefined)
  if (unplaced)
    throw new TypeError(`the snapshot does not say which server tool ${JSON.stringify(unplaced.name)} comes from: make it with flatmcp snapshot --config, or give the handler one upstream`)
  const needed = [...new Set([...names.entries()].flatMap(([, origin]) => serversOf(origin)))]
  const missing = needed.filter(name => !Object.hasOwn(endpoints, name))
  if (missing.length > 0)
    throw new TypeError(`upstreams gives no endpoint for ${missing.map(name => JSON.stringify(name)).join(', ')}, whose tools the snapshot holds`)
  const servers = new Map(needed.map((name) => {
    const endpoint = endpoints[name]!
    const { url, headers } = typeof endpoint === 'string' || endpoint instanceof URL ? { url: endpoint, headers: undefined } : endpoint
    const upstream = URL.canParse(String(url)) ? new URL(url) : undefined
    if (!upstream)
      throw new TypeError(`upstreams[${JSON.stringify(name)}]: ${JSON.stringify(String(url))} is not a URL`)
    const declarations = new Map(tools.filter(tool => serversOf(tool.origin!).includes(name)).map(tool => [tool.origin!.name, headerDeclarations(tool.upstream.tool)]))
    return [name, upstreamFetch({ ...base, upstream, ...(headers ? { headers } : {}), declarations, name })] as const
  }))
  return { servers }
}

/** Text as base64url, and back: what a header may carry. */
function base64url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text))).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}
function fromBase64url(text: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), c => c.charCodeAt(0)))
}

/** A request's composite session, read: none given, its servers' sessions, or `unknown` where it is not one this handler made. */
function sessionsOf(request: Request): Sessions | undefined | 'unknown' {
  const header = request.headers.get('mcp-session-id')
  if (header === null)
    return undefined
  try {
    const sessions: unknown = header.startsWith(COMPOSITE) ? JSON.parse(fromBase64url(header.slice(COMPOSITE.length))) : undefined
    const fits = isObject(sessions) && Object.values(sessions).every(part => isObject(part) && ['id', 'version'].every(key => part[key] === undefined || typeof part[key] === 'string'))
    return fits ? sessions as Sessions : 'unknown'
  }
  catch {
    return 'unknown'
  }
}

/** The request with some headers set anew (undefined: removed), its body left to the sender. */
export function reheaded(request: Request, headers: Record<string, string | undefined>, method = request.method): Request {
  const copied = new Headers(request.headers)
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined)
      copied.delete(name)
    else
      copied.set(name, value)
  }
  return new Request(request.url, { method, headers: copied, signal: request.signal })
}

/** The result an answer (JSON, or an event stream) gives request `id`; undefined where it gives none. */
async function resultOf(answer: Response, id: unknown): Promise<Record<string, unknown> | undefined> {
  if (!answer.ok)
    return void await answer.body?.cancel()
  const text = await answer.text()
  const type = answer.headers.get('content-type') ?? ''
  const bodies = type.includes('text/event-stream')
    ? text.split(/\r?\n\r?\n/).map(event => event.split(/\r?\n/).filter(line => line.startsWith('data:')).map(line => line.slice(5).trimStart()).join('\n'))
    : [text]
  for (const body of bodies) {
    try {
      const message: unknown = JSON.parse(body)
      if (isObject(message) && message.id === id && isObject(message.result))
        return message.result
    }
    catch {
      // An event that is no JSON (a comment, a keep-alive) holds no result.
    }
  }
  return undefined
}

/** One server's part of a new session: its `initialize` answered, then told the client is initialized. */
async function openOne(name: string, forward: UpstreamFetch, request: Request, message: JsonRpcRequest, log: (line: string) => void): Promise<[string, Sessions[string]] | undefined> {
  const answer = await forward(request, JSON.stringify(message))
  const result = await resultOf(answer, message.id)
  if (!result) {
    log(`flatmcp proxy: server "${name}" did not answer initialize (HTTP ${answer.status}); this session reaches its tools with an error naming it`)
    return undefined
  }
  const id = answer.headers.get('mcp-session-id') ?? undefined
  const version = typeof result.protocolVersion === 'string' ? result.protocolVersion : undefined
  const told = await forward(reheaded(request, { 'mcp-session-id': id, 'mcp-protocol-version': version }), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))
  await told.body?.cancel()
  return [name, { ...(id === undefined ? {} : { id }), ...(version === undefined ? {} : { version }) }]
}

/**
 * A 2025 client's `initialize`: each server's session opened at once, their ids carried in one
 * composite `Mcp-Session-Id`; the answer offers tools (and describing them), the version the client
 * asked where every server answered with it, else the oldest one answered.
 */
async function openSessions(handler: Handler, gateway: GatewayServers, request: Request, message: JsonRpcRequest): Promise<Response> {
  const log = handler.options.log ?? (() => {})
  const opened = (await Promise.all([...gateway.servers].map(([name, forward]) => openOne(name, forward, request, message, log)))).filter(part => part !== undefined)
  const asked = message.params?.protocolVersion
  const versions = opened.flatMap(([, part]) => part.version === undefined ? [] : [part.version]).sort()
  const version = typeof asked === 'string' && versions.every(answeredVersion => answeredVersion === asked) ? asked : versions[0] ?? FIRST_VERSION
  const instructions = handler.instructions
  const result = { protocolVersion: version, capabilities: { tools: { ...DISCLOSURE_CAPABILITY } }, serverInfo: handler.upstream, ...(instructions ? { instructions } : {}) }
  const answer = jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result })
  answer.headers.set('mcp-session-id', `${COMPOSITE}${base64url(JSON.stringify(Object.fromEntries(opened)))}`)
  return answer
}

/** A 2025 session ended: each server's part of it ended too. */
async function endSessions(gateway: GatewayServers, request: Request): Promise<Response> {
  const sessions = sessionsOf(request)
  if (sessions === 'unknown')
    return rpcError(null, -32001, 'Session not found.', 404)
  await Promise.all(Object.entries(sessions ?? {}).filter(([name, part]) => part.id !== undefined && gateway.servers.has(name)).map(async ([name, part]) => {
    const ended = await gateway.servers.get(name)!(reheaded(request, { 'mcp-session-id': part.id, 'mcp-protocol-version': part.version }))
    await ended.body?.cancel()
  }))
  return new Response(null, { status: 200 })
}

/**
 * A lone call, sent to the server its tool came from under the tool's own name (a folded tool's to the
 * replica `target` names, without it); in a 2025 session, with that server's part of it.
 */
export function sendGateway(gateway: GatewayServers, names: NameMap): Send {
  return async (request, body, era) => {
    const message = body as JsonRpcRequest
    const reply = (text: string): Response => jsonResponse({ jsonrpc: '2.0', id: message.id ?? null, result: errorResult(text) })
    const origin = typeof message.params?.name === 'string' ? names.origin(message.params.name) : undefined
    if (!origin)
      return rpcError(message.id, -32602, `Unknown tool ${JSON.stringify(message.params?.name)}.`)
    const chosen = origin.replicas ? chosenReplica(message.params?.arguments, origin.replicas) : { replica: origin.server, arguments: message.params?.arguments }
    if ('error' in chosen)
      return reply(chosen.error)
    const sessions = era === 'modern' ? undefined : sessionsOf(request)
    if (sessions === 'unknown')
      return rpcError(message.id, -32001, 'Session not found.', 404)
    // Its own part only: an entry named as an object's key (`constructor`) finds nothing inherited.
    const part = sessions && Object.hasOwn(sessions, chosen.replica) ? sessions[chosen.replica] : undefined
    if (sessions && !part)
      return reply(`The server "${chosen.replica}" behind this proxy did not answer when this session began; start a new session to reach its tools.`)
    const sent = reheaded(request, part ? { 'mcp-session-id': part.id, 'mcp-protocol-version': part.version } : {})
    const call = { name: origin.name, arguments: chosen.arguments }
    return gateway.servers.get(chosen.replica)!(sent, JSON.stringify({ ...message, params: { ...message.params, ...call } }), era === 'modern' ? call : undefined)
  }
}

/**
 * What the handler answers for many servers besides tools: a 2025 `initialize` (sessions opened), a
 * 2026-07-28 `server/discover`, `ping`, notifications taken; a DELETE ends the session, a GET has no
 * stream. Anything else is not served here. Undefined: the request is the tools' (listed or called).
 */
export async function answerGateway(handler: Handler, gateway: GatewayServers, request: Request, posted?: Posted): Promise<Response | undefined> {
  if (!posted)
    return request.method === 'DELETE' ? endSessions(gateway, request) : new Response(null, { status: 405, headers: { allow: 'POST, DELETE' } })
  const message = posted.messages[0]!
  if (posted.batch)
    return rpcError(null, -32600, 'Send one message per request: this proxy sends each to the server it is for.', 400)
  if (message.id === undefined)
    return new Response(null, { status: 202 })
  switch (message.method) {
    case 'initialize':
      return openSessions(handler, gateway, request, message)
    case 'server/discover': {
      // A cacheable result in 2026-07-28 (ttlMs and cacheScope required): as lasting as the list it offers.
      const { ttlMs, cacheScope } = await handler.served.service().list(posted.profile)
      return jsonResponse({ jsonrpc: '2.0', id: message.id, result: answered(handler, posted, { supportedVersions: [MODERN_VERSION], capabilities: { tools: { ...DISCLOSURE_CAPABILITY } }, ...(handler.instructions ? { instructions: handler.instructions } : {}), ...scoped(handler, request, { ttlMs, cacheScope }) }) })
    }
    case 'ping':
      return jsonResponse({ jsonrpc: '2.0', id: message.id, result: answered(handler, posted, {}) })
    default:
      return String(message.method).startsWith('tools/') ? undefined : rpcError(message.id, -32601, `Method not found: ${JSON.stringify(message.method)} (this proxy serves the tools of the servers behind it; their prompts and resources are served by flatmcp proxy --config).`)
  }
}
