// A server that speaks only MCP 2026-07-28 asks its client in the rounds of a call: the call ends
// `input_required` with its questions, and is made again with their answers. The proxy answers those
// rounds itself, each question asked of the client behind it by the handler a 2025 server's own
// request would reach (a 2025 session gets `elicitation/create`; a 2026-07-28 client, the rounds of
// its own call), so a client of either era is asked in its own. Bounded as a flatmcp server's own
// rounds are: at most `MAX_ANSWERS` questions and rounds a call, no question nor round state longer
// (in bytes) than a message the proxy reads from a client, each answered within the call's time limit; else the call fails
// naming the question (`UnansweredQuestion`, a tool error for a tool call).
import type { AskedContext, Message } from './upstream'
import { MAX_ANSWERS } from '../../elicit/replay'
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../host/stdio-transport'
import { isObject } from '../../util/object'
import { within } from '../../util/wait'

/** The questions 2026-07-28 lets a server ask in its rounds. */
const QUESTIONS: ReadonlySet<string> = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list'])

/**
 * A round that asks nothing, only to be called again (a server shedding load), is made again after
 * the pause the MCP SDK's client makes, and a call takes at most as many as that client takes rounds
 * in all: nothing else slows such rounds, so a server could otherwise keep the proxy busy for nothing.
 */
export const IDLE_ROUND_MS = 250
export const MAX_IDLE_ROUNDS = 10

/** A call whose server's question was not answered: said to the client as a tool error. */
export class UnansweredQuestion extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnansweredQuestion'
  }
}

/** Whether a 2026-07-28 answer asks its client first. */
export const asksFirst = (result: unknown): result is { inputRequests?: unknown, requestState?: unknown } =>
  isObject(result) && result.resultType === 'input_required'

/** How many bytes `value` takes as JSON in UTF-8: what the message carrying it takes. */
const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value) ?? '').byteLength

/** What a question asks, for a line about it: its method and the start of its message. */
function named(key: string, request: unknown): string {
  const { method, params } = isObject(request) ? request : {}
  const message = isObject(params) && typeof params.message === 'string' ? `: "${params.message.slice(0, 200)}${params.message.length > 200 ? '…' : ''}"` : ''
  return `${typeof method === 'string' ? method.slice(0, 64) : 'a question'} (${JSON.stringify(key.slice(0, 64))})${message}`
}

export interface RoundsOptions {
  /** Asks the client behind the proxy, as the upstream's own request would. */
  ask: (request: Message, ctx: AskedContext) => Promise<unknown>
  /** Makes the call again with these added to its params. */
  retry: (added: Record<string, unknown>) => Promise<unknown>
  /** How long a question waits for its answer. */
  timeout: number
  signal?: AbortSignal
}

/** One question asked of the client and its answer; an unanswered one names itself. */
async function answer(key: string, request: unknown, options: RoundsOptions, signal: AbortSignal): Promise<unknown> {
  const { method, params } = isObject(request) ? request : {}
  if (typeof method !== 'string' || !QUESTIONS.has(method))
    throw new UnansweredQuestion(`The server behind this proxy asked ${named(key, request)}, which is no question MCP 2026-07-28 lets a server ask; the call was not completed.`)
  if (jsonBytes(request) > DEFAULT_MAX_MESSAGE_BYTES)
    throw new UnansweredQuestion(`The server behind this proxy asked ${named(key, request)}, a question over ${DEFAULT_MAX_MESSAGE_BYTES / 1024 / 1024} MiB, which is not passed on; the call was not completed.`)
  let failure = 'no answer came in time'
  const asked = options.ask({ method, ...(isObject(params) ? { params } : {}) }, { mcpReq: { signal } }).catch((error: unknown) => {
    failure = (error as Error | undefined)?.message ?? String(error)
    return undefined
  })
  const answered = await within(asked, options.timeout, signal)
  if (answered === undefined)
    throw new UnansweredQuestion(`The server behind this proxy asked ${named(key, request)}, and the client did not answer it (${failure}); the call was not completed.`)
  return answered
}

/** The result of a call whose first answer is `first`, each round's questions answered by the client and the call made again. */
export async function answerRounds(first: { inputRequests?: unknown, requestState?: unknown }, options: RoundsOptions): Promise<unknown> {
  let result: unknown = first
  let asked = 0
  let idle = 0
  for (let round = 1; asksFirst(result); round++) {
    const requests = isObject(result.inputRequests) ? Object.entries(result.inputRequests) : []
    asked += requests.length
    if (requests.length === 0 && ++idle > MAX_IDLE_ROUNDS)
      throw new UnansweredQuestion(`The server behind this proxy went on past ${MAX_IDLE_ROUNDS} rounds that asked nothing but to be called again in one call; the call was not completed.`)
    if (round > MAX_ANSWERS || asked > MAX_ANSWERS)
      throw new UnansweredQuestion(`The server behind this proxy went on asking past ${MAX_ANSWERS} questions (or rounds) in one call${requests[0] ? `, the last ${named(...requests[0])}` : ''}; the call was not completed.`)
    const { requestState } = result
    // Held while the client answers and sent back each round: bounded as a question is.
    if (requestState !== undefined && jsonBytes(requestState) > DEFAULT_MAX_MESSAGE_BYTES)
      throw new UnansweredQuestion(`The server behind this proxy kept a round state (requestState) over ${DEFAULT_MAX_MESSAGE_BYTES / 1024 / 1024} MiB, which is not kept${requests[0] ? `, asking ${named(...requests[0])}` : ''}; the call was not completed.`)
    // A round that asks nothing is paced (IDLE_ROUND_MS).
    if (requests.length === 0) {
      await within(new Promise(() => {}), IDLE_ROUND_MS, options.signal)
      options.signal?.throwIfAborted()
    }
    // One question at a time: a client asked in the rounds of its own call answers one a round.
    const controller = new AbortController()
    const abort = (): void => controller.abort()
    options.signal?.addEventListener('abort', abort, { once: true })
    const responses: Record<string, unknown> = {}
    try {
      for (const [key, request] of requests)
        responses[key] = await answer(key, request, options, controller.signal)
    }
    catch (error) {
      // A call its client cancelled ends as cancelled, not for want of an answer.
      options.signal?.throwIfAborted()
      throw error
    }
    finally {
      options.signal?.removeEventListener('abort', abort)
      controller.abort()
    }
    result = await options.retry({ ...(requests.length > 0 ? { inputResponses: responses } : {}), ...(requestState === undefined ? {} : { requestState }) })
  }
  return result
}
