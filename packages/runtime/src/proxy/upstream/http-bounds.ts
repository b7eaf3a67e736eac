// The bounds of what the proxy reads from an HTTP upstream: a request it gave up on (its time ran out,
// or its caller cancelled it) has its HTTP request aborted, so an answer that never ends is read no
// further and its connection closes; and an answer (a JSON body, or one event of a stream) past
// `MAX_ANSWER_BYTES` is refused with an error naming the bound, as a line that long from a command is.
import { MAX_ANSWER_BYTES } from './upstream'

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>

/** The JSON-RPC messages a POST carries: the ids of its requests, and the request ids it cancels. */
function carried(body: unknown): { ids: unknown[], cancels: unknown[] } {
  let parsed: unknown
  try {
    parsed = typeof body === 'string' ? JSON.parse(body) : undefined
  }
  catch {
    return { ids: [], cancels: [] }
  }
  const messages = (Array.isArray(parsed) ? parsed : [parsed]) as ({ id?: unknown, method?: unknown, params?: { requestId?: unknown } } | null)[]
  return {
    ids: messages.filter(message => typeof message?.method === 'string' && message.id !== undefined).map(message => message!.id),
    cancels: messages.filter(message => message?.method === 'notifications/cancelled').map(message => message!.params?.requestId),
  }
}

/** The text of the refusal of an answer past the bound. */
export function tooLarge(where: string): string {
  return `the upstream ${where} answered with over ${MAX_ANSWER_BYTES / 1024 / 1024} MiB in one message; it was refused`
}

/** Where a stream's last blank line ends in `chunk` (-1: none), `lastBytes` the two bytes before it. */
function afterBlankLine(chunk: Uint8Array, lastBytes: readonly number[]): number {
  let after = -1
  const byteAt = (at: number): number | undefined => at >= 0 ? chunk[at] : lastBytes[lastBytes.length + at]
  for (let at = chunk.indexOf(0x0A); at >= 0; at = chunk.indexOf(0x0A, at + 1)) {
    if (byteAt(at - 1) === 0x0A || (byteAt(at - 1) === 0x0D && byteAt(at - 2) === 0x0A))
      after = at + 1
  }
  return after
}

/**
 * A counter of the bytes of the message being read, chunk by chunk: since the body began, or (for an
 * event stream) since its last blank line, wherever the chunks split it.
 */
export function messageBytes(stream: boolean): (chunk: Uint8Array) => number {
  let size = 0
  let last: number[] = []
  return (chunk) => {
    const boundary = stream ? afterBlankLine(chunk, last) : -1
    size = boundary >= 0 ? chunk.length - boundary : size + chunk.length
    last = [...last, ...chunk.subarray(-2)].slice(-2)
    return size
  }
}

interface Reading {
  /** An event stream (read event by event), or one JSON body. */
  stream: boolean
  /** The id of the one request the body answers, where it answers one. */
  id: unknown
  where: string
  /** Closes the connection: past the bound. */
  abort: () => void
  /** The body is read to its end, failed, or was left unread. */
  ended: () => void
}

/**
 * A body read within the bound: JSON whole (past it, an error), an event stream event by event (past
 * it, an error answer for its request in its place, and the stream ends).
 */
function bounded(body: ReadableStream<Uint8Array>, reading: Reading): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  const size = messageBytes(reading.stream)
  const refuse = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    reading.abort()
    reading.ended()
    void reader.cancel().catch(() => {})
    if (!reading.stream || reading.id === undefined)
      return controller.error(new Error(tooLarge(reading.where)))
    // What was read of the event is ended and left unread (it is no message); the error answers its request.
    const refusal = JSON.stringify({ jsonrpc: '2.0', id: reading.id, error: { code: -32603, message: tooLarge(reading.where) } })
    controller.enqueue(new TextEncoder().encode(`\n\nevent: message\ndata: ${refusal}\n\n`))
    controller.close()
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read()
        if (done) {
          reading.ended()
          return controller.close()
        }
        if (size(value) > MAX_ANSWER_BYTES)
          return refuse(controller)
        controller.enqueue(value)
      }
      catch (error) {
        reading.ended()
        controller.error(error)
      }
    },
    async cancel(reason) {
      reading.ended()
      await reader.cancel(reason)
    },
  })
}

/** `fetch` for an HTTP upstream at `where`, within the bounds: each request's given up with it, each answer's size (a stream's too). */
export function boundedFetch(where: string, send: Fetch = fetch): Fetch {
  const inFlight = new Map<unknown, AbortController>()
  return async (url, init) => {
    const { ids, cancels } = carried(init?.body)
    for (const id of cancels)
      inFlight.get(id)?.abort(new Error(`the request was cancelled`))
    const controller = new AbortController()
    for (const id of ids)
      inFlight.set(id, controller)
    const done = (): void => ids.forEach(id => inFlight.get(id) === controller && inFlight.delete(id))
    const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal
    const response = await send(url, { ...init, signal }).catch((error: unknown) => {
      done()
      throw error
    })
    if (!response.body) {
      done()
      return response
    }
    const stream = (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream')
    // Once the answer is read (or given up on), its id is no one's.
    const body = bounded(response.body, { stream, id: ids.length === 1 ? ids[0] : undefined, where, abort: () => controller.abort(), ended: done })
    const read = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
    // Where it came from, as the response said (a redirect is told by it).
    return Object.defineProperties(read, { url: { value: response.url }, redirected: { value: response.redirected } })
  }
}
