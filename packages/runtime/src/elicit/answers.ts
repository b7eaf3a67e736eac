// A form's answers, round by round, back into the value they stand for (`compileForm` of
// `@flatmcp/core` makes the forms, at build time or when first asked for). What a server needs at
// request time, without the compiler.
import type { ElicitationForm, FormRound } from '@flatmcp/core'

/** The rounds a form asks, in order, given the answers so far: the first, then the chosen variant's (when there is one). */
export function nextRound(form: ElicitationForm, answers: readonly Record<string, unknown>[]): FormRound | undefined {
  if (answers.length === 0)
    return form.first
  if (answers.length === 1 && form.union) {
    const chosen = answers[0]![form.union.key]
    return typeof chosen === 'string' && Object.prototype.hasOwnProperty.call(form.union.rounds, chosen) ? form.union.rounds[chosen] : undefined
  }
  return undefined
}

/** The value a form's answers stand for: each field's answer at its path, the fixed values beside them; an unanswered optional field is left out. */
export function rebuildValue(form: ElicitationForm, answers: readonly Record<string, unknown>[]): Record<string, unknown> {
  const value: Record<string, unknown> = {}
  const put = (path: string[], item: unknown): void => {
    let at = value
    for (const step of path.slice(0, -1)) {
      const next = Object.prototype.hasOwnProperty.call(at, step) ? at[step] : undefined
      if (typeof next !== 'object' || next === null)
        Object.defineProperty(at, step, { value: {}, enumerable: true, writable: true, configurable: true })
      at = at[step] as Record<string, unknown>
    }
    Object.defineProperty(at, path.at(-1)!, { value: item, enumerable: true, writable: true, configurable: true })
  }
  answers.forEach((answer, n) => {
    const round = n === 0 ? form.first : nextRound(form, answers.slice(0, n))
    if (!round)
      return
    // A copy: the answers fill the objects put here, and the form is reused.
    for (const fixed of round.fixed ?? [])
      put(fixed.path, JSON.parse(JSON.stringify(fixed.value)))
    for (const field of round.fields) {
      const given = Object.prototype.hasOwnProperty.call(answer, field.key) ? answer[field.key] : undefined
      if (field.presence ? given === true : given !== undefined)
        put(field.path, field.presence ? {} : given)
      else if (field.emptyAs === null)
        put(field.path, null)
    }
  })
  return value
}
