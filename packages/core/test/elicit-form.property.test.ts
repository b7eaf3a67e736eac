// Elicitation forms by property, over generated schemas: a form is spec-valid or a FormError, and every
// value the original accepts has answers that rebuild it. Case by case: elicit-form.test.ts.
import type { ElicitationForm } from '@flatmcp/core'
import { compileForm, FormError } from '@flatmcp/core'
import { nextRound, rebuildValue } from '@flatmcp/runtime'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cases, RUNS, SEED, toZod } from '../../../test/support/schema-arbitrary'
import { SLOW } from '../../../test/support/timeouts'
import { expectSpecValid } from './form-checks'

/**
 * What a user answers, round by round, to mean `value`: each field's value at its path. Undefined
 * where no form can say it: a null at a key that may also be left out (left empty, it is left out).
 */
function answersFor(form: ElicitationForm, value: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const answers: Record<string, unknown>[] = []
  for (let round = nextRound(form, answers); round; round = nextRound(form, answers)) {
    const answer: Record<string, unknown> = {}
    for (const field of round.fields) {
      const item = field.path.reduce<unknown>((at, step) => typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[step] : undefined, value)
      if (item === null && field.emptyAs !== null)
        return undefined
      if (field.presence)
        answer[field.key] = typeof item === 'object' && item !== null
      else if (item !== undefined && item !== null)
        answer[field.key] = item
    }
    answers.push(answer)
  }
  return answers
}

describe('elicitation forms (property)', () => {
  it(`by property, over ${RUNS} generated schemas: a form is spec-valid or a FormError, and every value the original accepts has answers that rebuild it to the same output`, () => {
    let rebuilt = 0
    let forms = 0
    fc.assert(fc.property(cases, ([s, values]) => {
      // The schema the server would judge answers with is the one the form is made from.
      const schema = toZod(s)
      let form: ElicitationForm
      try {
        form = compileForm(schema)
      }
      catch (error) {
        expect(error).toBeInstanceOf(FormError)
        return
      }
      forms++
      expectSpecValid(form)
      for (const raw of values) {
        const value = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>
        const parsed = schema.safeParse(value)
        if (!parsed.success)
          continue
        const answers = answersFor(form, value)
        if (!answers)
          continue
        const again = schema.safeParse(rebuildValue(form, answers))
        expect(again.success, JSON.stringify({ value, answers })).toBe(true)
        expect(again.data).toEqual(parsed.data)
        rebuilt++
      }
    }), { numRuns: RUNS, seed: SEED })
    // Most generated schemas hold what no form can (lists of objects, records, inner unions): the rest must still be many.
    console.log(`elicitation forms: ${forms} of ${RUNS} schemas made forms, ${rebuilt} values rebuilt`)
    expect(forms).toBeGreaterThan(RUNS / 40)
    expect(rebuilt).toBeGreaterThan(RUNS / 10)
  }, SLOW)
})
