// A profile's inverse map at request time: the places advertised as JSON text are parsed back, then
// the coercion plan repairs strings and drops the nulls a strict model wrote for keys it did not mean.
import type { CoercionPlan } from '@flatmcp/core'
import { coerceArgs } from './coerce-args'

/** What a profile's compiled tool holds for mapping arguments back. */
export interface InversePlan {
  coercion: CoercionPlan
  decode?: CoercionPlan
}

/** Whether a plan drops nulls anywhere (only a strict target's plan does). */
export function dropsNulls(plan: CoercionPlan): boolean {
  return JSON.stringify(plan).includes('"keepNull"')
}

const MAX_DEPTH = 128
const MAX_WORK = 1 << 20

/** The value with every null-valued object key left out, at any depth (bounded); copies what changes. */
function withoutNullKeys(value: unknown, budget: { work: number }, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || --budget.work < 0)
    return value
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    value.forEach((item, i) => {
      const next = withoutNullKeys(item, budget, depth + 1)
      if (next !== item)
        (out ??= value.slice())[i] = next
    })
    return out ?? value
  }
  const source = value as Record<string, unknown>
  let out: Record<string, unknown> | undefined
  for (const key of Object.keys(source)) {
    const next = source[key] === null ? undefined : withoutNullKeys(source[key], budget, depth + 1)
    if (next !== source[key]) {
      out ??= { ...source }
      if (next === undefined)
        delete out[key]
      else
        Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true })
    }
  }
  return out ?? value
}

/**
 * How a strict model's nulls are read: as the plan says (kept where the original takes null), as
 * missing keys in every object the plan reaches, or as missing keys everywhere. A server tries them
 * in this order until the original accepts one: a JSON Schema may say a key takes null where the
 * schema itself does not, and a plan cannot always tell which alternative of a union a value took.
 */
export const NULL_READINGS = ['plan', 'planned', 'everywhere'] as const
export type NullReading = typeof NULL_READINGS[number]

/** The arguments as the original schema expects them, under one reading of its nulls. Never throws. */
export function inverseArgs(args: unknown, plan: InversePlan, nulls: NullReading = 'plan'): unknown {
  const value = coerceArgs(plan.decode ? coerceArgs(args, plan.decode) : args, plan.coercion, { nullsAsMissing: nulls !== 'plan' })
  return nulls === 'everywhere' ? withoutNullKeys(value, { work: MAX_WORK }, 0) : value
}
