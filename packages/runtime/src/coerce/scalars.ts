// Scalars read from their JSON text: a repair a server tries only after the original rejected the
// arguments as sent. A room of its own, so a bundle of `coerceArgs` alone carries none of it.
import type { CoercionPlan } from '@flatmcp/core'

/** Reads a string as the scalar it is the JSON text of, when the plan's `kinds` list it; `undefined` when it is none. */
export type ScalarReader = (text: string, kinds: NonNullable<CoercionPlan['scalars']>) => { value: unknown } | undefined

/** Canonical JSON text of a number: what `JSON.stringify` writes, so `"5.0"`, `"1e3"` or `" 5"` stay strings. */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[+-]\d+)?$/

/** The scalar a string is the canonical JSON text of, when its kind is listed. */
export const readScalar: ScalarReader = (text, kinds) => {
  if (text === 'true' || text === 'false')
    return kinds.includes('boolean') ? { value: text === 'true' } : undefined
  if (text === 'null')
    return kinds.includes('null') ? { value: null } : undefined
  if (text.length > 32 || !kinds.includes('number') || !NUMBER_TEXT.test(text))
    return undefined
  const number = Number(text)
  return JSON.stringify(number) === text ? { value: number } : undefined
}
