// A request sent on to an HTTP upstream as the client sent it: its headers less one hop's (and less
// the caller's credential, which is for the proxy), the operator's over them, a rewritten call's
// mirrored headers made anew; redirects followed only within the upstream's origin; the answer passed
// back as it came, its body streamed through.
import type { HeaderDeclarations } from './param-headers'
import { rpcError } from './json-rpc'
import { mirrorCall } from './param-headers'

/** The redirects that keep their method and body: the only ones a JSON-RPC request is sent on after. */
const REDIRECTS = new Set([307, 308])

/** Headers that belong to one hop of HTTP, not to the request: never forwarded. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length', 'accept-encoding', 'proxy-authorization', 'proxy-connection', 'te', 'trailer'])

/** A `tools/call` as it goes upstream: its headers mirror these. */
export interface SentCall { name: string, arguments: unknown }

export interface UpstreamFetchOptions {
  upstream: URL
  /** The operator's headers, over the client's own of the same name. */
  headers?: Record<string, string>
  fetch: (request: Request) => Promise<Response>
  /** Whether callers present a credential to the proxy: theirs is then never sent on. */
  guarded: boolean
  /** Each tool's `x-mcp-header` declarations. */
  declarations: ReadonlyMap<string, HeaderDeclarations>
  log: (line: string) => void
  /** The server's entry name, where the handler is in front of many: its messages name it. */
  name?: string
}

export type UpstreamFetch = (request: Request, body?: string, call?: SentCall) => Promise<Response>

/** Sends requests on to the upstream, answering 502 where it cannot be reached or redirects elsewhere. */
export function upstreamFetch(options: UpstreamFetchOptions): UpstreamFetch {
  const { upstream, log } = options
  const server = options.name === undefined ? 'The server behind this proxy' : `The server "${options.name}" behind this proxy`
  const said = options.name === undefined ? 'the upstream' : `server "${options.name}"`
  const outgoing = (request: Request, body: string | undefined, call?: SentCall): Request => {
    const headers = new Headers()
    request.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name.toLowerCase()) && !(options.guarded && name.toLowerCase() === 'authorization'))
        headers.append(name, value)
    })
    if (call)
      mirrorCall(headers, call.name, call.arguments, options.declarations.get(call.name) ?? [])
    for (const [name, value] of Object.entries(options.headers ?? {}))
      headers.set(name, value)
    return new Request(upstream, { method: request.method, headers, ...(body === undefined ? {} : { body }), signal: request.signal, redirect: 'manual' })
  }
  return async (request, body, call) => {
    try {
      let sent = outgoing(request, body, call)
      let answer = await options.fetch(sent)
      // A redirect is followed only within the upstream's origin (a few hops): elsewhere the
      // operator's headers would go with it.
      for (let hops = 0; REDIRECTS.has(answer.status) && answer.headers.has('location'); hops++) {
        const next = new URL(answer.headers.get('location')!, sent.url)
        if (next.origin !== upstream.origin || hops >= 3) {
          log(`flatmcp proxy: ${said} redirected to ${next.origin === upstream.origin ? 'itself more than 3 times' : 'another origin'}; not followed`)
          return rpcError(null, -32603, `${server} redirected elsewhere; the proxy does not follow it.`, 502)
        }
        sent = new Request(next, { method: sent.method, headers: sent.headers, ...(body === undefined ? {} : { body }), signal: request.signal, redirect: 'manual' })
        answer = await options.fetch(sent)
      }
      return passBack(answer)
    }
    catch (error) {
      log(`flatmcp proxy: ${said} could not be reached: ${(error as Error).message}`)
      return rpcError(null, -32603, `${server} could not be reached.`, 502)
    }
  }
}

/** The upstream's answer, as it came: its body streamed through, less the headers of its own hop. */
function passBack(response: Response): Response {
  const headers = new Headers(response.headers)
  // The body is decoded by the fetch that read it: its encoding and length no longer hold.
  for (const name of ['content-encoding', 'content-length', 'transfer-encoding', 'connection'])
    headers.delete(name)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}
