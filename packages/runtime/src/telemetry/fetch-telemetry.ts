// A fetch handler's telemetry, through the hooks the node proxy uses (call-telemetry.ts): a SERVER
// span per request that carries an id, its parent the caller's `_meta.traceparent` (else its
// `traceparent` header); a CLIENT span per call sent upstream, its trace context in the call's
// `_meta` and in the `traceparent` header. A request is over when its answer's body is (a stream
// included): its outcome is what that body says, read as it flows, never held back.
import type { CallRecord, Posted } from '../proxy/http/fetch-state'
import type { JsonRpcRequest } from '../proxy/http/json-rpc'
import type { CallTelemetry } from './call-telemetry'
import type { Failure } from './conventions'
import { answerMapped } from '../proxy/http/answer-shaped'
import { reheaded } from '../proxy/http/fetch-gateway'
import { isObject } from '../util/object'
import { errorType, TOOL_ERROR } from './conventions'
import { requestWay, traceCarrier } from './request-way'

/** What an answer said of one request: its message (result or error), its HTTP status, and what broke its body. */
interface Heard { message?: Record<string, unknown>, status: number, thrown?: unknown }

/** Whether a message answers request `id`: its own, or an error no request could be named in (a 502 from here, a lost session). */
const answers = (message: unknown, id: unknown): message is Record<string, unknown> => isObject(message) && (message.id === id || (message.id === null && isObject(message.error)))

/** The body's end: settles with nothing once read whole, or with what broke it (a cancel: the caller went away). */
function watchedEnd(response: Response): { response: Response, ended: Promise<unknown> } {
  if (!response.body)
    return { response, ended: Promise.resolve(undefined) }
  const reader = response.body.getReader()
  let settle!: (thrown: unknown) => void
  const ended = new Promise<unknown>((resolve) => {
    settle = resolve
  })
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (done) {
          controller.close()
          settle(undefined)
        }
        else {
          controller.enqueue(value)
        }
      }
      catch (error) {
        controller.error(error)
        settle(error ?? {})
      }
    },
    cancel(reason) {
      settle(reason ?? new DOMException('The caller stopped reading the answer.', 'AbortError'))
      return reader.cancel(reason)
    },
  })
  return { response: new Response(body, response), ended }
}

/** The answer as it goes on, and what it says of request `id` once its body has gone. */
export async function heardAnswer(answer: Response, id: unknown): Promise<{ response: Response, heard: Promise<Heard> }> {
  let message: Record<string, unknown> | undefined
  const mapped = await answerMapped(answer, (each) => {
    if (answers(each, id))
      message = each
    return each
  })
  const { response, ended } = watchedEnd(mapped)
  return { response, heard: ended.then(thrown => ({ status: answer.status, ...(message ? { message } : {}), ...(thrown === undefined ? {} : { thrown }) })) }
}

/** How a request failed, as an error its span is named by (`errorType`): what broke, the JSON-RPC error, or an HTTP error with none. */
function errorOf(heard: Heard): unknown {
  return heard.thrown ?? (isObject(heard.message?.error) ? heard.message.error : heard.status >= 400 ? {} : undefined)
}

/** How a call sent upstream failed, as its CLIENT span says it. */
function failureOf(heard: Heard): Failure | undefined {
  const error = errorOf(heard)
  if (error !== undefined)
    return errorType(error)
  return isObject(heard.message?.result) && heard.message.result.isError === true ? { type: TOOL_ERROR } : undefined
}

/**
 * A lone request answered inside its SERVER span: `answer` runs in the span's context (a call sent
 * upstream is its child); the answer goes back at once, and the span ends, a tools/call told to
 * `finish`, once its body has gone.
 */
export function tracedRequest(telemetry: CallTelemetry, request: Request, posted: Omit<Posted, 'profile'>, answer: (posted: Omit<Posted, 'profile'>) => Promise<Response>): Promise<Response> {
  const message = posted.messages[0]!
  const tool = message.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name : undefined
  const call: CallRecord | undefined = tool === undefined ? undefined : { reached: false, tool, repaired: [] }
  const session = request.headers.get('mcp-session-id')
  const way = requestWay({ mcpReq: { id: message.id as string | number, envelope: message.params?._meta }, http: true, ...(session === null ? {} : { sessionId: session }) }, undefined, request.headers)
  const meta = traceCarrier(message.params?._meta, request.headers)
  return new Promise((resolve, reject) => {
    telemetry.serve({ method: String(message.method), ...(tool === undefined ? {} : { tool }), ...way, ...(meta ? { meta } : {}) }, async (trace) => {
      if (call)
        call.trace = trace
      const { response, heard } = await heardAnswer(await answer(call ? { ...posted, call } : posted), message.id)
      resolve(response)
      const told = await heard
      await call?.sent
      const error = errorOf(told)
      if (call) {
        const outcome = error !== undefined ? 'error' : isObject(told.message?.result) && told.message.result.isError === true ? 'tool-error' : 'ok'
        telemetry.finish({ tool: call.tool, ...(call.profile === undefined ? {} : { profile: call.profile }), ...(call.view === undefined ? {} : { view: call.view }), outcome, repaired: call.repaired }, call.reached, error, trace)
      }
      // Thrown for the span to say it: the answer has gone already.
      if (error !== undefined)
        throw error
    }).catch(reject)
  })
}

/**
 * A lone call sent upstream inside a CLIENT span: its trace context in the call's `_meta` and in the
 * `traceparent` header (the caller's own replaced), the span ended once the upstream's answer has gone.
 */
export async function tracedSend(telemetry: CallTelemetry, call: CallRecord, request: Request, message: JsonRpcRequest, send: (request: Request, message: JsonRpcRequest) => Promise<Response>): Promise<Response> {
  const traced = telemetry.upstream(call.tool, isObject(message.params?._meta) ? message.params._meta : undefined, { transport: 'tcp' }, call.trace)
  const header = (key: string): string | undefined => typeof traced.meta[key] === 'string' ? traced.meta[key] : undefined
  const carried = Object.keys(traced.meta).length > 0 ? { ...message, params: { ...message.params, _meta: traced.meta } } : message
  try {
    const { response, heard } = await heardAnswer(await send(reheaded(request, { traceparent: header('traceparent'), tracestate: header('tracestate') }), carried), message.id)
    call.sent = heard.then(told => traced.end(failureOf(told)))
    return response
  }
  catch (error) {
    traced.end(errorType(error))
    throw error
  }
}
