// A request the guard let through, on its way to the MCP handler: the caller's name handed on as the
// request's `authInfo` (its `clientId`; the token is never there), and where callers have limits, the
// requests it sends upstream (tool calls, resources, prompts, completions) counted against its
// caller's, refused past them with `429`, `Retry-After` and a JSON-RPC error carrying each request's id.
import type { Admitted } from './guard'
import type { CallerLimits, TakeCharges, Taken } from '../serve/caller-limits'
import type { RateLimits } from '../serve/limit-charges'
import type { RefusedCall } from '../serve/upstream-methods'
import { chargesFor, limiter, memoryCount, refusalOf } from '../serve/caller-limits'
import { toolCalled } from '../serve/limit-charges'
import { AT_LIMIT } from '../serve/stdio-limits'
import { refusedCall, sentUpstream } from '../serve/upstream-methods'
import { parsedText } from './json-rpc'

/** The largest body read to count its calls, as the MCP handler reads one. */
const MAX_BODY = 4 * 1024 * 1024

/** What the MCP handler is given beside the request. */
export interface HandlerOptions {
  authInfo?: { token: string, clientId: string, scopes: string[] }
  parsedBody?: unknown
}

/** The requests a body carries that go upstream (`UPSTREAM_METHODS`): one request, or each of a batch. */
function sentIn(body: unknown): { method: string, id: string | number, params?: unknown }[] {
  return (Array.isArray(body) ? body : [body]).filter(sentUpstream)
}

/** Beside the callers' own limits: each tool's (all callers together), and where they are counted (default: here). */
export interface SharedLimits {
  tools?: Readonly<Record<string, RateLimits>>
  count?: TakeCharges
}

/**
 * A refusal at the caller's limit: `429` with `Retry-After`, `400` for a batch larger than the
 * limit ever takes, `503` where the limits could not be counted, and a JSON-RPC error for each
 * request refused, by its id (`data.retryAfter` as over stdio).
 */
function refusal(body: unknown, sent: readonly { id: string | number }[], taken: Exclude<Taken, { release: () => void }>, { message, retryAfter }: { message: string, retryAfter?: number }): Response {
  const status = 'unavailable' in taken ? 503 : retryAfter === undefined ? 400 : 429
  const error = { code: AT_LIMIT, message, ...(retryAfter === undefined ? {} : { data: { retryAfter } }) }
  const answer = Array.isArray(body) ? sent.map(({ id }) => ({ jsonrpc: '2.0', id, error })) : { jsonrpc: '2.0', id: sent[0]!.id, error }
  return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }) } })
}

/**
 * `handle` behind the caller's name and, where given, the callers' limits (keyed by caller name) and
 * the tools', each request a body sends upstream counted; a refusal told to `onRefused`.
 */
export function admitted(handle: (request: Request, options: HandlerOptions) => Promise<Response>, limits: Readonly<Record<string, CallerLimits>> = {}, onRefused?: (refused: RefusedCall) => void, shared: SharedLimits = {}): (request: Request, admitted: Admitted) => Promise<Response> {
  const tools = shared.tools ?? {}
  const toolsLimited = Object.keys(tools).length > 0
  const take = toolsLimited || Object.keys(limits).length > 0 ? limiter(chargesFor(limits, {}, tools), shared.count ?? memoryCount()) : undefined
  return async (request, { caller }) => {
    const authInfo = caller === undefined ? undefined : { token: '', clientId: caller, scopes: [] }
    const given = authInfo ? { authInfo } : {}
    if (!take || request.method !== 'POST' || (!toolsLimited && (caller === undefined || !Object.hasOwn(limits, caller))))
      return handle(request, given)
    const read = await parsedText(request, MAX_BODY)
    if (read instanceof Response)
      return read
    if (!('parsed' in read))
      return handle(new Request(request, { body: read.text }), given)
    const parsedBody = read.parsed
    const sent = sentIn(parsedBody)
    if (sent.length > 0) {
      const taken = await take(caller, sent.map(message => ({ tool: toolCalled(message) })))
      if (!('release' in taken)) {
        for (const message of sent)
          onRefused?.(refusedCall(message, caller, 'why' in taken ? taken.why : taken.unavailable))
        return refusal(parsedBody, sent, taken, refusalOf(caller === undefined ? 'The client' : `Caller "${caller}"`, taken))
      }
      // The request's signal ends with its answer (or its client): the call is in flight until then.
      request.signal.addEventListener('abort', taken.release, { once: true })
    }
    return handle(request, { ...given, parsedBody })
  }
}
