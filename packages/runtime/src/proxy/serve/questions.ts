// An upstream's questions (roots, sampling, elicitation) carried to a 2026-07-28 client, which keeps no
// session a server could ask on: each is asked by ending one of the client's calls with
// `input_required`, and answered when the client calls again with it. A question asked during a call
// ends a waiting call's round (the upstream's call goes on, waiting for the answer): a 2025 upstream's
// question does not say which call it belongs to, so it goes to the newest call still listening, and
// its answer goes back to the upstream's request that asked it. One asked while no call listens (the
// roots a server asks for once initialized) waits for the next call that comes or comes back. Behind a
// gateway, a question names the server that asks, and only a call that went to that server asks it;
// one from a server with no such call is refused.
import type { InputRequest } from '../../elicit/replay'
import type { InputRounds } from '../../service/options'
import { InputRequired } from '../../elicit/replay'
import { outsideCalls } from '../upstream/gateway/member-questions'

/** A question the upstream asked, and how its answer goes back. */
interface Question {
  request: InputRequest
  /** Behind a gateway: the server that asks. */
  asker?: string
  /** A 2026-07-28 server's question in a call's rounds: that call, the only one that may ask it. */
  of?: object
  answer: (result: unknown) => void
  refuse: (error: Error) => void
}

/** One downstream call in rounds: its upstream call (once sent), what it is waiting for, the questions its last round asked. */
interface Call {
  upstream?: Promise<unknown>
  /** Behind a gateway: the server its upstream call went to, once sent. */
  to?: string
  /** Hears the next question the upstream asks while this call waits. */
  hear?: (question: Question) => void
  asked: Map<string, Question>
  /** Drops the call when its client does not come back. */
  timer?: ReturnType<typeof setTimeout>
  /** Its first round asked what the upstream asked between calls. */
  settled?: boolean
}

/** How long a call waits after its round answered questions asked between calls. */
const SETTLE_MS = 100

/** A refusal the upstream gets for a question no client answered. */
function unanswered(method: string): Error {
  return Object.assign(new Error(`the client behind this proxy did not answer ${method}`), { code: -32603 })
}

export interface QuestionBridge {
  /**
   * Asks the 2026-07-28 client `request` for the upstream (behind a gateway, the server `asker`):
   * through the call now waiting, else at the next call (behind a gateway, of that server's calls
   * only). Settles with the client's answer (or a refusal after `timeoutMs`).
   */
  ask: (request: InputRequest, signal?: AbortSignal, asker?: string, asking?: object) => Promise<unknown>
  /**
   * Runs one round of a call: answers what the last round asked (`rounds`), sends the call upstream
   * (`send`, once across rounds), and gives its result, or throws `InputRequired` with the next
   * questions the upstream asks meanwhile. `send` names the server the call went to, behind a gateway,
   * and is given the call's token, which a question asked in its upstream rounds carries (`ask`'s `asking`).
   */
  call: (rounds: InputRounds, send: (routedTo: (server: string) => void, asking: object) => Promise<unknown>) => Promise<unknown>
}

/** A call whose client came back: each question its last round asked answered with the client's response, or refused. */
function answerRound(call: Call, responses: Record<string, unknown> | undefined): void {
  clearTimeout(call.timer)
  for (const [key, question] of call.asked) {
    const response = responses?.[key]
    if (response === undefined)
      question.refuse(unanswered(question.request.method))
    else
      question.answer(response)
  }
}

/**
 * Whether `call` may ask `question`: any call, a single upstream's; behind a gateway, a call to the
 * server that asks; one asked in a call's upstream rounds, that call only.
 */
const asksOf = (call: Call, question: Question): boolean => (question.asker === undefined || call.to === question.asker) && (question.of === undefined || question.of === call)

/** The queued questions `call` may ask, taken from the queue. */
function takenBy(queued: Question[], call: Call): Question[] {
  const taken = queued.filter(question => asksOf(call, question))
  queued.splice(0, queued.length, ...queued.filter(question => !taken.includes(question)))
  return taken
}

/**
 * The newest waiting call still listening (that may ask it) hears `question` (each hears one a round,
 * so none is lost); false where none listens: the next call that comes, or comes back, asks it first.
 */
function heardBy(waiting: readonly Call[], question: Question): boolean {
  const call = [...waiting].reverse().find(waiter => waiter.hear !== undefined && asksOf(waiter, question))
  const hear = call?.hear
  if (!call || !hear)
    return false
  call.hear = undefined
  hear(question)
  return true
}

/** The calls a bridge holds: those in rounds by their state, the questions queued, the calls waiting. */
interface Calls {
  byState: Map<string, Call>
  /** Questions asked while no call waits: the next call asks them first. */
  queued: Question[]
  /** The calls waiting on their upstream call, newest last: a question goes to the newest still listening. */
  waiting: Call[]
}

/** A question the upstream asks (QuestionBridge's `ask`): heard by a waiting call, else queued; refused after `timeoutMs`. */
function askOver(held: Calls, timeoutMs: number, request: InputRequest, signal?: AbortSignal, asker?: string, asking?: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Behind a gateway, a server none of whose calls is in rounds has nowhere to ask.
    if (asker !== undefined && ![...held.waiting, ...held.byState.values()].some(call => call.to === asker)) {
      reject(outsideCalls(asker, request.method))
      return
    }
    const timer = setTimeout(() => refuse(unanswered(request.method)), timeoutMs)
    const settle = <T>(fn: (value: T) => void) => (value: T): void => {
      clearTimeout(timer)
      fn(value)
    }
    const refuse = settle(reject)
    const question: Question = { request, answer: settle(resolve), refuse, ...(asker === undefined ? {} : { asker }), ...(asking === undefined ? {} : { of: asking }) }
    signal?.addEventListener('abort', () => refuse(unanswered(request.method)), { once: true })
    if (!heardBy(held.waiting, question))
      held.queued.push(question)
  })
}

/** A bridge whose calls wait at most `timeoutMs` for their client to come back with answers. */
export function questionBridge(timeoutMs: number): QuestionBridge {
  const held: Calls = { byState: new Map(), queued: [], waiting: [] }
  const { byState: calls, queued, waiting } = held
  let next = 0

  /** Ends the round asking `questions`; the call is kept for its client's return. */
  const askRound = (call: Call, questions: Question[]): never => {
    const state = `q${++next}:${crypto.randomUUID()}`
    call.asked = new Map(questions.map((question, i) => [`q${i}`, question]))
    call.timer = setTimeout(() => {
      calls.delete(state)
      for (const question of call.asked.values())
        question.refuse(unanswered(question.request.method))
    }, timeoutMs)
    calls.set(state, call)
    throw new InputRequired(Object.fromEntries([...call.asked].map(([key, question]) => [key, question.request])), state)
  }

  return {
    ask: (request, signal, asker, asking) => askOver(held, timeoutMs, request, signal, asker, asking),
    async call(rounds, send) {
      const known = typeof rounds.state === 'string' ? calls.get(rounds.state) : undefined
      let call: Call
      if (known) {
        calls.delete(rounds.state as string)
        answerRound(known, rounds.responses)
        call = known
        // Questions asked while no call listened: this call, come back, asks them before it waits again.
        const taken = takenBy(queued, call)
        if (taken.length > 0)
          askRound(call, taken)
      }
      else {
        call = { asked: new Map() }
        // What the upstream asked between calls is asked before this call goes upstream.
        const taken = takenBy(queued, call)
        if (taken.length > 0) {
          call.settled = true
          askRound(call, taken)
        }
      }
      // A call whose round answered questions asked between calls goes upstream a moment later: the
      // upstream takes the answers in first (the roots a server asks for once initialized change what
      // its calls may touch, as they would have long before a direct client's first call).
      // Its failure is heard by the round that waits on it, whichever that is.
      const routedTo = (server: string): void => {
        call.to = server
      }
      call.upstream ??= (known?.settled ? new Promise(resolve => setTimeout(resolve, SETTLE_MS)).then(() => send(routedTo, call)) : send(routedTo, call))
      call.upstream.catch(() => {})
      const upstream = call.upstream
      const question = new Promise<Question>((resolve) => {
        call.hear = resolve
      })
      waiting.push(call)
      try {
        const first = await Promise.race([upstream.then(result => ({ result })), question.then(asked => ({ asked }))])
        return 'asked' in first ? askRound(call, [first.asked]) : first.result
      }
      finally {
        call.hear = undefined
        waiting.splice(waiting.indexOf(call), 1)
      }
    },
  }
}
