// Asking the user for a value of any schema during a call: the schema as elicitation forms (a union
// in rounds, nested keys as flat fields), the answers rebuilt into the value, the original schema as
// the judge, and a bad answer asked again with the reason, a bounded number of times.
import type * as Compiler from '@flatmcp/core'
import type { ElicitOptions, ElicitOutcome, InferInput, InferOutput, StandardSchemaV1 } from '../tool/define-tool'
import { loadCompiler } from '../precomputed/compiler'
import { modelIssues } from '../validate/messages'
import { validate } from '../validate/validate'
import { nextRound, rebuildValue } from './answers'

/** One `elicitation/create` of the call's session, and the client's answer. */
export type AskForm = (params: { mode: 'form', message: string, requestedSchema: Compiler.FormRound['requestedSchema'] }) => Promise<{ action: string, content?: Record<string, unknown> }>

export type { ElicitOptions, ElicitOutcome } from '../tool/define-tool'

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
