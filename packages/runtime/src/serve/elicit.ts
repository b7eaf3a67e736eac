// Asking the user for a value of any schema during a call: the schema as elicitation forms (a union
// in rounds, nested keys as flat fields), the answers rebuilt into the value, the original schema as
// the judge, and a bad answer asked again with the reason, a bounded number of times.
import type * as Compiler from '@flatmcp/core'
import type { InferOutput, StandardSchemaV1 } from '../define-tool'
import { modelIssues } from '../validate/messages'
import { validate } from '../validate/validate'
import { loadCompiler } from './compiled'

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

/** Forms by schema, compiled once (with `@flatmcp/core`, loaded when first asked for). */
const forms = new WeakMap<object, Compiler.ElicitationForm>()

function formOf(schema: StandardSchemaV1, compiler: typeof Compiler): Compiler.ElicitationForm {
  let form = forms.get(schema)
  if (!form) {
    form = compiler.compileForm(schema)
    forms.set(schema, form)
  }
  return form
}

/**
 * Asks for a value of `schema` through `ask`, round by round, and parses the answer with `schema`
 * itself. A refused answer is asked for again with what was wrong, up to `attempts` times.
 */
export async function elicitValue<S extends StandardSchemaV1>(ask: AskForm, schema: S, message: string, options: ElicitOptions = {}): Promise<ElicitOutcome<InferOutput<S>>> {
  const compiler = loadCompiler('an elicitation form')
  const form = formOf(schema, compiler)
  const attempts = Math.max(1, options.attempts ?? 3)
  let said = message
  let problem = ''
  for (let attempt = 0; attempt < attempts; attempt++) {
    const answers: Record<string, unknown>[] = []
    for (let round = compiler.nextRound(form, answers); round; round = compiler.nextRound(form, answers)) {
      const answer = await ask({ mode: 'form', message: said, requestedSchema: round.requestedSchema })
      if (answer.action === 'decline' || answer.action === 'cancel')
        return { action: answer.action }
      answers.push(answer.content ?? {})
    }
    const value = compiler.rebuildValue(form, answers)
    const result = await validate(schema, value)
    if (result.ok)
      return { action: 'accept', value: result.value as InferOutput<S> }
    problem = modelIssues(result.issues, value, form.union?.key).map(issue => `${issue.path?.length ? `${issue.path.map(step => typeof step === 'object' ? step.key : step).join('.')}: ` : ''}${issue.message}`).join('; ')
    said = `${message}\n\nThe last answer was not accepted: ${problem}`
  }
  return { action: 'invalid', message: problem }
}
