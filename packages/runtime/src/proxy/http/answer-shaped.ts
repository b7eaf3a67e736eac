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

/** One server-sent event's text, its `data` rewritten where it is a message with the result. */
function shapedEvent(event: string, id: unknown, shape: Shaping): string {
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
  const shaped = shapedMessage(message, id, shape)
  if (shaped === message)
    return event
  return [...lines.filter(line => !line.startsWith('data:')), `data: ${JSON.stringify(shaped)}`].join('\n')
}

/** The answer, with the result of request `id` shaped (and its error made a result, where `shape.error` is given). */
export async function answerShaped(answer: Response, id: unknown, shape: Shaping): Promise<Response> {
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
    return new Response(JSON.stringify(shapedMessage(body, id, shape)), answer)
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
        controller.enqueue(encoder.encode(`${shapedEvent(event, id, shape)}\n\n`))
    },
    flush(controller) {
      pending += decoder.decode()
      if (pending !== '')
        controller.enqueue(encoder.encode(shapedEvent(pending, id, shape)))
    },
  })
  return new Response(answer.body.pipeThrough(events), answer)
}
