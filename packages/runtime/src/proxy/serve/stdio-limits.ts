// Limits over stdio, where the one client is the caller: its requests that go upstream (tool calls,
// resources, prompts, completions) a minute and at once, counted
// as its requests come and released as their answers (or its cancellations) go. Past a limit the call
// is answered at once with an MCP error that says when to try again (`data.retryAfter`, in seconds),
// and nothing goes upstream.
import type { JsonRpcMessage } from '../../service/preserialized'
import type { StdioTransport } from '../../host/stdio-transport'
import type { CallerLimits } from './caller-limits'
import type { RateLimits } from './limit-charges'
import { isObject } from '../../util/object'
import type { RefusedCall } from './upstream-methods'
import { callerLimits, refusalOf } from './caller-limits'
import { toolCalled } from './limit-charges'
import { refusedCall, sentUpstream } from './upstream-methods'
import { STDIO_CALLER } from '../../service/caller-rules'

/** The caller's name over stdio, where the callers file's `stdio` entry limits the client: as the audit log says it. */
export { STDIO_CALLER }

/** The JSON-RPC error code of a call refused at a limit (the implementation-defined server range). */
export const AT_LIMIT = -32000

/** The id of a cancellation's request, where `message` is one. */
function cancelled(message: JsonRpcMessage): unknown {
  const { method, params } = message as { method?: unknown, params?: unknown }
  return method === 'notifications/cancelled' && isObject(params) ? params.requestId : undefined
}

/**
 * Counts the client's requests that go upstream (`UPSTREAM_METHODS`) against `limits` and the tools'
 * (`tools`) on `transport`, refusing those past them, each refusal told to `onRefused`. Wrap after anything that owes answers.
 */
export function limitStdio(transport: StdioTransport, limits: CallerLimits, onRefused?: (refused: RefusedCall) => void, tools: Readonly<Record<string, RateLimits>> = {}): void {
  const take = callerLimits({}, limits, Date.now, tools)
  // By id, the places its requests hold: an id sent again while its request runs takes a place too.
  const running = new Map<unknown, (() => void)[]>()
  const release = (id: unknown): void => {
    const held = running.get(id)
    held?.shift()?.()
    if (held?.length === 0)
      running.delete(id)
  }
  const receive = transport.onmessage!
  // A refusal goes out past the count below: it frees no place (its id may be another request's, running).
  const send = transport.send.bind(transport)
  transport.onmessage = (message) => {
    const { id } = message as { id?: unknown }
    if (!sentUpstream(message)) {
      release(cancelled(message))
      receive(message)
      return
    }
    const taken = take(undefined, [{ tool: toolCalled(message) }])
    if ('release' in taken) {
      running.set(id, [...running.get(id) ?? [], taken.release])
      receive(message)
      return
    }
    onRefused?.(refusedCall(message, STDIO_CALLER, taken.why))
    const { message: refusal, retryAfter } = refusalOf('The client', taken)
    void send({ jsonrpc: '2.0', id, error: { code: AT_LIMIT, message: refusal, ...(retryAfter === undefined ? {} : { data: { retryAfter } }) } } as JsonRpcMessage)
  }
  transport.send = async (message) => {
    const { id, method } = message as { id?: unknown, method?: unknown }
    if (method === undefined)
      release(id)
    return send(message)
  }
}
