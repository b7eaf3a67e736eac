// Asking the user for a value of any schema during a call: the schema as elicitation forms (a union
// in rounds, nested keys as flat fields), the answers rebuilt into the value, the original schema as
// the judge, and a bad answer asked again with the reason, a bounded number of times.
import type * as Compiler from '@flatmcp/core'
import type { InferInput, InferOutput, StandardSchemaV1 } from '../define-tool'
import { loadCompiler } from '../serve/compiled'
import { modelIssues } from '../validate/messages'
import { validate } from '../validate/validate'
import { nextRound, rebuildValue } from './answers'

/** One `elicitation/create` of the call's session, and the client's answer. */
export type AskForm = (params: { mode: 'form', message: string, requestedSchema: Compiler.FormRound['requestedSchema'] }) => Promise<{ action: string, content?: Record<string, unknown> }>

/** How an elicitation ended: the parsed value, the user's refusal, or answers the schema kept refusing. */
export type ElicitOutcome<T> =
  | { action: 'accept', value: T }
  | { action: 'decline' }
  | { action: 'cancel' }
  | { action: 'invalid', message: string }

export interface ElicitOptions {
  /** How many times the whole form is asked before the outcome is `invalid`. Default: 3. */
  attempts?: number
}

/** A schema written to be asked for: the schema itself (it validates as the schema does), carrying its forms once a build made them. */
export type ElicitForm<S extends StandardSchemaV1 = StandardSchemaV1> = StandardSchemaV1<InferInput<S>, InferOutput<S>> & {
  /** The schema's own: it validates as the schema does. */
  readonly '~standard': S['~standard']
  readonly schema: S
  readonly name: string
}

const FORM_MARK: unique symbol = Symbol.for('flatmcp.form')
/** Where a build's precomputed forms hang on an `elicitForm()` value. */
const FORM_COMPILED: unique symbol = Symbol.for('flatmcp.form.compiled')

export function isElicitForm(value: unknown): value is ElicitForm {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[FORM_MARK] === true
}

/** Called by the build's generated code: an `elicitForm()` value's forms. */
export function attachForm(value: unknown, form: Compiler.ElicitationForm): void {
  if (isElicitForm(value))
    Object.defineProperty(value, FORM_COMPILED, { value: form, configurable: true })
}

/**
 * Marks a schema as one to ask the user for: exported from a tool module, the build compiles its
 * forms (what no form can hold is a build error naming the path), so asking needs no compiler.
 * `context.elicit` takes it, or any schema (compiled when first asked for).
 */
export function elicitForm<S extends StandardSchemaV1>(schema: S, options: { name?: string } = {}): ElicitForm<S> {
  const form = { 'schema': schema, 'name': options.name ?? 'form', '~standard': schema['~standard'] }
  Object.defineProperty(form, FORM_MARK, { value: true })
  return form as ElicitForm<S>
}

/** Forms by schema, compiled once (with `@flatmcp/core`, loaded when first asked for). */
const forms = new WeakMap<object, Compiler.ElicitationForm>()

function formOf(schema: StandardSchemaV1): Compiler.ElicitationForm {
  const built = (schema as unknown as Record<symbol, Compiler.ElicitationForm | undefined>)[FORM_COMPILED]
  if (built)
    return built
  let form = forms.get(schema)
  if (!form) {
    const original = isElicitForm(schema) ? schema.schema : schema
    form = loadCompiler(`the elicitation form "${isElicitForm(schema) ? schema.name : 'form'}"`).compileForm(original)
    forms.set(schema, form)
  }
  return form
}

/**
 * Asks for a value of `schema` through `ask`, round by round, and parses the answer with `schema`
 * itself. A refused answer is asked for again with what was wrong, up to `attempts` times.
 */
export async function elicitValue<S extends StandardSchemaV1>(ask: AskForm, schema: S, message: string, options: ElicitOptions = {}): Promise<ElicitOutcome<InferOutput<S>>> {
  const form = formOf(schema)
  const attempts = Math.max(1, options.attempts ?? 3)
  let said = message
  let problem = ''
  for (let attempt = 0; attempt < attempts; attempt++) {
    const answers: Record<string, unknown>[] = []
    for (let round = nextRound(form, answers); round; round = nextRound(form, answers)) {
      const answer = await ask({ mode: 'form', message: said, requestedSchema: round.requestedSchema })
      if (answer.action === 'decline' || answer.action === 'cancel')
        return { action: answer.action }
      answers.push(answer.content ?? {})
    }
    const value = rebuildValue(form, answers)
    const result = await validate(schema, value)
    if (result.ok)
      return { action: 'accept', value: result.value as InferOutput<S> }
    problem = modelIssues(result.issues, value, form.union?.key).map(issue => `${issue.path?.length ? `${issue.path.map(step => typeof step === 'object' ? step.key : step).join('.')}: ` : ''}${issue.message}`).join('; ')
    said = `${message}\n\nThe last answer was not accepted: ${problem}`
  }
  return { action: 'invalid', message: problem }
}

/** Thrown by a replayed `ask` that has no answer yet: the call ends asking for it (2026-07-28). */
export class InputNeeded extends Error {
  constructor(readonly key: string, readonly params: Parameters<AskForm>[0], readonly answered: readonly unknown[]) {
    super('flatmcp: this call needs the user\'s answer first; it is asked, and the call is made again with it')
    this.name = 'InputNeeded'
  }
}

/** The answers a retried 2026-07-28 call carries back, at most this much JSON text. */
const MAX_STATE = 1 << 16

/**
 * 2026-07-28 has no server-to-client requests: a call that needs an answer ends with `input_required`,
 * and the client calls again with it. `ask` replays the answers given so far (the `requestState` it
 * minted, then the new `inputResponses`) in order, and throws `InputNeeded` at the first it lacks; the
 * handler runs again from its start on each retry, so what it does before its last question runs again.
 * The answers come from the client either way: the schema still parses the value they rebuild.
 */
export function replayedAsk(requestState: unknown, inputResponses: Record<string, unknown> | undefined): AskForm {
  let answered: unknown[] = []
  if (typeof requestState === 'string' && requestState.length <= MAX_STATE) {
    try {
      const state = JSON.parse(requestState) as unknown
      answered = Array.isArray(state) ? state : []
    }
    catch {
      answered = []
    }
  }
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

/** The `input_required` result that asks for what `InputNeeded` lacks, with the answers so far as the state. */
export function inputRequiredFor(needed: InputNeeded): Record<string, unknown> {
  return { resultType: 'input_required', inputRequests: { [needed.key]: { method: 'elicitation/create', params: needed.params } }, requestState: JSON.stringify(needed.answered) }
}
