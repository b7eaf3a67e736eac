// An upstream reached over Streamable HTTP: the operator's headers sent with every request (never
// logged, `${NAME}` read from the environment, none holding a credential of the proxy's own), or the proxy's OAuth client credentials (one provider
// for every connection, so its token outlives a session connected anew). A request the upstream
// answers 404 was not run: the session is gone (it restarted), and it is sent once more on a new one.
import type { OfferedCapabilities, UpstreamOAuth, UpstreamTransport } from './upstream'
import type { ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { expandVariables, refuseWithheld } from './environment'
import { boundedFetch } from './http-bounds'

/** A URL as a log line may show it: no user, password, query or fragment. */
export function redacted(url: string): string {
  const parsed = new URL(url)
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
}

/** Whether a connection failed for want of authorization (401, or the SDK's OAuth errors). */
function unauthorized(error: unknown): boolean {
  const { code, status, message, name } = (error ?? {}) as { code?: unknown, status?: unknown, message?: unknown, name?: unknown }
  return code === 401 || status === 401 || name === 'UnauthorizedError' || (typeof message === 'string' && /\b401\b|unauthori[sz]ed|invalid_(?:client|token)|issuer/i.test(message))
}

/** Whether an error says the HTTP upstream no longer knows the session (it restarted, or dropped it). */
function lostSession(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown, message?: unknown }
  return code === 404 || (typeof message === 'string' && /\b404\b|session not found/i.test(message))
}

/**
 * A request whose JSON-RPC message carries a W3C trace context in `_meta` (a traced call) sends it as
 * HTTP headers too, for the upstream's HTTP layer and anything between.
 */
function withTraceHeaders(init: RequestInit | undefined): RequestInit | undefined {
  if (typeof init?.body !== 'string' || !init.body.includes('"traceparent"'))
    return init
  let meta: Record<string, unknown> | undefined
  try {
    meta = (JSON.parse(init.body) as { params?: { _meta?: Record<string, unknown> } }).params?._meta
  }
  catch {
    return init
  }
  if (typeof meta?.traceparent !== 'string')
    return init
  const headers = new Headers(init.headers)
  // A caller's value passed through may be no HTTP header value (a line break, a character past
  // Latin-1): it stays in `_meta` only, and the request goes.
  try {
    headers.set('traceparent', meta.traceparent)
    if (typeof meta.tracestate === 'string')
      headers.set('tracestate', meta.tracestate)
  }
  catch {
    return init
  }
  return { ...init, headers }
}

/** The transport of an upstream at `url`. */
export function httpTransport(target: { url: string, headers?: Record<string, string>, oauth?: UpstreamOAuth, withheld?: readonly string[] }): UpstreamTransport {
  const headers = Object.fromEntries(Object.entries(target.headers ?? {}).map(([name, value]) => [name, expandVariables(value, `the upstream's header ${JSON.stringify(name)}`)]))
  const { oauth } = target
  refuseWithheld(headers, [...(target.withheld ?? []), ...(oauth ? [oauth.clientSecret] : [])], name => `the upstream's header ${JSON.stringify(name)}`)
  const where = redacted(target.url)
  // The client SDK, loaded before the first connection (ready is awaited before each open), not with
  // the proxy; and the one OAuth provider, made with it.
  let sdk: { Transport: typeof StreamableHTTPClientTransport, authProvider: ClientCredentialsProvider | undefined } | undefined
  return {
    where,
    ready: async (offer: OfferedCapabilities | Promise<OfferedCapabilities>) => {
      if (sdk === undefined) {
        const { ClientCredentialsProvider: Provider, StreamableHTTPClientTransport: Transport } = await import('@modelcontextprotocol/client')
        // The secret is taken as given: a file or a variable that holds "${…}" holds that text.
        const authProvider = oauth && new Provider({
          clientId: oauth.clientId,
          clientSecret: oauth.clientSecret,
          expectedIssuer: oauth.issuer,
          ...(oauth.scope === undefined ? {} : { scope: oauth.scope }),
        })
        sdk ??= { Transport, authProvider }
      }
      return offer
    },
    open: () => {
      // Each connection's requests given up on (a time out, a cancel) are aborted, its answers bounded.
      const bounded = boundedFetch(where)
      const { Transport, authProvider } = sdk!
      return new Transport(new URL(target.url), { requestInit: { headers }, fetch: (url, init) => bounded(url, withTraceHeaders(init)), ...(authProvider ? { authProvider } : {}) })
    },
    restart: async () => {},
    endsOnClose: false,
    lostSession,
    explain: error => !unauthorized(error)
      ? ''
      : oauth
        ? ' (the OAuth client credentials were refused, or the upstream\'s authorization server is not the issuer given)'
        : '. It asks for OAuth: give the proxy client credentials (--oauth-client-id, --oauth-client-secret-file, --oauth-issuer), or a token (--header \'Authorization: Bearer …\')',
  }
}
