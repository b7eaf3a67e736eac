// A request the guard let through, on its way to the MCP handler: the caller's name handed on as the
// request's `authInfo` (its `clientId`; the token is never there), and where callers have limits, the
// tool calls it carries counted against its caller's, refused past them with `429` and `Retry-After`.
import type { Admitted } from './guard'
import type { CallerLimits } from '../serve/caller-limits'
import { callerLimits } from '../serve/caller-limits'
import { boundedText, rpcError } from './json-rpc'

/** The largest body read to count its calls, as the MCP handler reads one. */
const MAX_BODY = 4 * 1024 * 1024

/** What the MCP handler is given beside the request. */
export interface HandlerOptions {
  authInfo?: { token: string, clientId: string, scopes: string[] }
  parsedBody?: unknown
}

/** The tool calls a body carries: one request, or each of a batch. */
function callsIn(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body]
  return messages.filter(message => typeof message === 'object' && message !== null && (message as { method?: unknown }).method === 'tools/call').length
}

/** `handle` behind the caller's name and, where given, the callers' limits (keyed by caller name). */
export function admitted(handle: (request: Request, options: HandlerOptions) => Promise<Response>, limits?: Readonly<Record<string, CallerLimits>>): (request: Request, admitted: Admitted) => Promise<Response> {
  const take = limits && Object.keys(limits).length > 0 ? callerLimits(limits) : undefined
  return async (request, { caller }) => {
    const authInfo = caller === undefined ? undefined : { token: '', clientId: caller, scopes: [] }
    const given = authInfo ? { authInfo } : {}
    if (!take || request.method !== 'POST' || caller === undefined || !Object.hasOwn(limits!, caller))
      return handle(request, given)
    const text = await boundedText(request, MAX_BODY)
    if (text === undefined)
      return rpcError(null, -32600, `The request body is over ${MAX_BODY} bytes.`, 413)
    let parsedBody: unknown
    try {
      parsedBody = JSON.parse(text)
    }
    catch {
      // Not JSON: the handler says so as it always does.
      return handle(new Request(request, { body: text }), given)
    }
    const calls = callsIn(parsedBody)
    if (calls > 0) {
      const taken = take(caller, calls)
      if ('retryAfter' in taken) {
        const refused = rpcError(null, -32000, `Caller "${caller}" is at its limit (${taken.why}); try again in ${taken.retryAfter} s.`, 429)
        refused.headers.set('retry-after', String(taken.retryAfter))
        return refused
      }
      // The request's signal ends with its answer (or its client): the call is in flight until then.
      request.signal.addEventListener('abort', taken.release, { once: true })
    }
    return handle(request, { ...given, parsedBody })
  }
}
