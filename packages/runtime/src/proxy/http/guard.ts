// Who may use a proxy served over HTTP, checked on every request before anything reaches the upstream
// (which the proxy reaches with the operator's credentials): a caller credential the operator set (a
// bearer token, compared in constant time), the Origin a browser page sends (loopback origins, and
// those the operator allows: a page elsewhere cannot drive it), and the Host it was asked by (a name
// that resolves to the proxy only by DNS rebinding is refused). The HTTP server and the fetch handler
// share it; it needs nothing but Web Crypto.
import { isLoopback } from './loopback'

/** A caller's credential by name: the name is what logs and limits say, never the token. */
export interface CallerCredential {
  name: string
  token: string
}

export interface HttpGuardOptions {
  /** Bearer tokens a caller must present (any one of them; each is the caller `token`); none and no `callers`: no credential asked. */
  tokens?: readonly string[]
  /** Named callers' tokens, taken beside `tokens`. */
  callers?: readonly CallerCredential[]
  /** Origins allowed besides loopback ones (`https://app.example.com`); a request from any other Origin is refused. */
  origins?: readonly string[]
  /**
   * Host names (with or without a port) the proxy may be asked by; none: any (where the address it
   * listens on is not one name, or behind a platform that routes by host).
   */
  hosts?: readonly string[]
}

/** What the guard reads of a request: its headers alone, so it runs before a URL is made of what a client sent. */
export interface GuardedRequest { headers: Headers }

/** A request the guard let through: the name of the credential it presented, where one is asked. */
export interface Admitted {
  caller?: string
}

/** Checks one request: who it is where it may go on, else the answer that refuses it. */
export type HttpGuard = (request: GuardedRequest) => Promise<Response | Admitted>

/** The name the unnamed tokens (`tokens`) go by. */
export const UNNAMED_CALLER = 'token'


/** A host header or URL host without its port, lowercase (`[::1]:8080` → `[::1]`). */
function hostName(host: string): string {
  const lower = host.toLowerCase()
  return lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : lower.replace(/:\d+$/, '')
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
}

/** Equal digests, compared without stopping at the first difference. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let differ = a.length ^ b.length
  for (let i = 0; i < a.length && i < b.length; i++)
    differ |= a[i]! ^ b[i]!
  return differ === 0
}

function refuse(status: 401 | 403, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message } }), { status, headers: { 'content-type': 'application/json', ...headers } })
}

/** Whether an Origin is a loopback one, or one the operator allowed. */
function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin.toLowerCase().replace(/\/$/, '')))
    return true
  try {
    const url = new URL(origin)
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopback(url.hostname)
  }
  catch {
    return false
  }
}

/** The credential a request presents, by name, every one compared (the time says nothing of which came close); undefined where none matches. */
async function presented(request: GuardedRequest, wanted: readonly { name: string, digest: Uint8Array }[]): Promise<string | undefined> {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1]
  const digest = await sha256(given ?? '')
  let matched: string | undefined
  for (const credential of wanted) {
    if (sameBytes(credential.digest, digest) && matched === undefined)
      matched = credential.name
  }
  return given === undefined ? undefined : matched
}

/** The check of one proxy's HTTP face. */
export function httpGuard(options: HttpGuardOptions): HttpGuard {
  const credentials = [...(options.tokens ?? []).map(token => ({ name: UNNAMED_CALLER, token })), ...options.callers ?? []]
  const wanted = Promise.all(credentials.map(async ({ name, token }) => ({ name, digest: await sha256(token) })))
  const origins = new Set((options.origins ?? []).map(origin => origin.toLowerCase().replace(/\/$/, '')))
  const hosts = options.hosts === undefined ? undefined : new Set(options.hosts.map(hostName))
  return async (request) => {
    const host = request.headers.get('host')
    if (hosts && (host === null || !hosts.has(hostName(host))))
      return refuse(403, 'This proxy is not served under that host name.')
    const origin = request.headers.get('origin')
    if (origin !== null && !originAllowed(origin, origins))
      return refuse(403, 'Requests from that origin are not allowed here.')
    if (credentials.length === 0)
      return {}
    const caller = await presented(request, await wanted)
    if (caller === undefined)
      return refuse(401, 'This proxy needs a caller credential: Authorization: Bearer <token>.', { 'www-authenticate': 'Bearer realm="flatmcp proxy"' })
    return { caller }
  }
}

/** The Access-Control headers for a request from an origin the operator allowed (none for a loopback or absent one). */
export function corsHeaders(request: GuardedRequest, options: HttpGuardOptions): Record<string, string> {
  const origin = request.headers.get('origin')
  const allowed = new Set((options.origins ?? []).map(o => o.toLowerCase().replace(/\/$/, '')))
  if (origin === null || !allowed.has(origin.toLowerCase().replace(/\/$/, '')))
    return {}
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id',
    'access-control-expose-headers': 'mcp-session-id',
    'vary': 'Origin',
  }
}
