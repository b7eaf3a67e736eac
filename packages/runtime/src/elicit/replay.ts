// Asking in MCP 2026-07-28, which has no server-to-client requests: a call that needs an answer ends
// with `input_required`, and the client calls again with it; the handler runs again from its start,
// its questions so far answered from the state the last round minted.
import type { AskForm } from './ask'

/** A question a 2026-07-28 result asks the client, as `inputRequests` holds it. */
export interface InputRequest { method: string, params?: unknown }

/**
 * Thrown by a handler to end a 2026-07-28 call asking the client first: the call's result is
 * `input_required` with these requests, and the client calls again with their answers and this
 * state (`ToolCallContext.rounds`).
 */
export class InputRequired extends Error {
  /**
   * `state` comes back with the client's answers (`ToolCallContext.rounds.state`): a server made by
   * `createMcpServer` seals it (HMAC) and verifies it before the handler sees it, so it may carry
   * what the round learnt; elsewhere it goes as given, and should then be a string that tells nothing.
   */
  constructor(readonly inputRequests: Record<string, InputRequest>, readonly state: unknown) {
    super('flatmcp: this call needs the client\'s answers first; they are asked, and the call is made again with them')
    this.name = 'InputRequired'
  }

  /** The call's result that asks (its `requestState` the state, sealed by the host where it seals). */
  get result(): Record<string, unknown> {
    return { resultType: 'input_required', inputRequests: this.inputRequests, requestState: this.state }
  }
}

/** Thrown by a replayed `ask` that has no answer yet: the call ends asking for it (2026-07-28). */
export class InputNeeded extends InputRequired {
  constructor(readonly key: string, readonly params: Parameters<AskForm>[0], readonly answered: readonly unknown[]) {
    super({ [key]: { method: 'elicitation/create', params } }, answered)
    this.name = 'InputNeeded'
  }
}

/** The answers a retried 2026-07-28 call carries back, at most this many. */
export const MAX_ANSWERS = 64

/**
 * 2026-07-28 has no server-to-client requests: a call that needs an answer ends with `input_required`,
 * and the client calls again with it. `ask` replays the answers given so far (the state the last
 * round minted, sealed and verified by the server before the handler runs, then the new
 * `inputResponses`) in order, and throws `InputNeeded` at the first it lacks; the handler runs again
 * from its start on each retry, so what it does before its last question runs again. The answers
 * come from the client either way: the schema still parses the value they rebuild.
 */
export function replayedAsk(state: unknown, inputResponses: Record<string, unknown> | undefined): AskForm {
  let answered: unknown[] = Array.isArray(state) ? state.slice(0, MAX_ANSWERS) : []
  const next = `ask${answered.length}`
  const response = inputResponses && Object.prototype.hasOwnProperty.call(inputResponses, next) ? inputResponses[next] : undefined
  if (response !== undefined)
    answered = [...answered, response]
  let asked = 0
  return async (params) => {
    const n = asked++
    if (n < answered.length) {
      const answer = answered[n] as { action?: unknown, content?: unknown } | null
      return { action: typeof answer?.action === 'string' ? answer.action : 'cancel', ...(typeof answer?.content === 'object' && answer.content !== null ? { content: answer.content as Record<string, unknown> } : {}) }
    }
    throw new InputNeeded(`ask${n}`, params, answered)
  }
}

