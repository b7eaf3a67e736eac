// An upstream's HTTP answer to one request, with that request's result rewritten on the way back:
// a JSON body read whole, an event stream rewritten event by event as it flows (progress and other
// messages pass untouched, in order). Anything else, or a body that is not what it says, goes as it came.
import type { ForwardedResult } from '../serve/outputs'
import { isObject } from '../../util/object'

type Shape = (result: ForwardedResult) => ForwardedResult

/** What becomes of the answer to one request: its result shaped, and (where given) its JSON-RPC error made a result. */
interface Shaping { result: Shape, error?: (error: { message?: unknown }) => ForwardedResult }

/** A JSON-RPC message with `id`'s result shaped (or its error made a result); anything else as it came. */
function shapedMessage(message: unknown, id: unknown, shape: Shaping): unknown {
  if (!isObject(message) || message.id !== id)
    return message
  if (isObject(message.result))
    return { ...message, result: shape.result(message.result) }
  if (isObject(message.error) && shape.error) {
    const { error, ...rest } = message
    return { ...rest, result: shape.error(error) }
  }
  return message
}

/** What becomes of each JSON-RPC message of an answer: itself where nothing changes. */
type MapMessage = (message: unknown) => unknown

/** One server-sent event's text, its `data` rewritten where `map` changes its message. */
function shapedEvent(event: string, map: MapMessage): string {
  const lines = event.split(/\r?\n/)
  const data = lines.filter(line => line.startsWith('data:')).map(line => line.slice(line.startsWith('data: ') ? 6 : 5))
  if (data.length === 0)
    return event
  let message: unknown
  try {
    message = JSON.parse(data.join('\n'))
  }
  catch {
    return event
  }
  const shaped = map(message)
  if (shaped === message)
    return event
  return [...lines.filter(line => !line.startsWith('data:')), `data: ${JSON.stringify(shaped)}`].join('\n')
}

/** The answer, with the result of request `id` shaped (and its error made a result, where `shape.error` is given). */
export function answerShaped(answer: Response, id: unknown, shape: Shaping): Promise<Response> {
  return answerMapped(answer, message => shapedMessage(message, id, shape))
}

/** The answer with each of its messages (a JSON body's, or each event's as it flows) passed through `map`. */
export async function answerMapped(answer: Response, map: MapMessage): Promise<Response> {
  const type = answer.headers.get('content-type') ?? ''
  if (!answer.body)
    return answer
  if (type.includes('application/json')) {
    const text = await answer.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    }
    catch {
      return new Response(text, answer)
    }
    const mapped = map(body)
    return mapped === body ? new Response(text, answer) : new Response(JSON.stringify(mapped), answer)
  }
  if (!type.includes('text/event-stream'))
    return answer
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let pending = ''
  const events = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true })
      // Events end at a blank line; what follows the last one waits for the next chunk.
      const parts = pending.split(/\r?\n\r?\n/)
      pending = parts.pop()!
      for (const event of parts)
        controller.enqueue(encoder.encode(`${shapedEvent(event, map)}\n\n`))
    },
    flush(controller) {
      pending += decoder.decode()
      if (pending !== '')
        controller.enqueue(encoder.encode(shapedEvent(pending, map)))
    },
  })
  return new Response(answer.body.pipeThrough(events), answer)
}
