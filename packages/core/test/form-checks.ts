// What every elicitation form must be, checked by the forms' case-by-case and property tests alike.
import type { ElicitationForm } from '@flatmcp/core'
import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/sdk/types.js'
import { expect } from 'vitest'

/** Every round a form may ask. */
function roundsOf(form: ElicitationForm): ElicitationForm['first'][] {
  return [form.first, ...Object.values(form.union?.rounds ?? {})]
}

/** Each round passes the SDK's schema for a form request, which strips what it does not know: nothing may be stripped. */
export function expectSpecValid(form: ElicitationForm): void {
  for (const round of roundsOf(form)) {
    const params = { message: 'm', requestedSchema: round.requestedSchema }
    const parsed = ElicitRequestFormParamsSchema.safeParse(params)
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true)
    expect(parsed.data).toEqual(params)
  }
}
