// Repairs arguments that arrive as JSON text where the tool expects objects or arrays. Guided by a
// plan the compiler derived from the original schema; no dependencies, no schema library (the plan's
// type is imported as a type only, and erased).
import type { CoercionPlan } from '@flatmcp/core'


/** Longest string parsed, and most characters parsed in one call: hostile input stays cheap. */
const MAX_STRING = 1 << 20
const MAX_TOTAL = 8 << 20
const MAX_DEPTH = 128

type Json = unknown
interface Budget { chars: number }

const own = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key)
const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value)

const FAILED = Symbol('failed')

function parse(text: string, budget: Budget): Json | typeof FAILED {
  if (text.length > MAX_STRING || text.length > budget.chars)
    return FAILED
  budget.chars -= text.length
  try {
    return JSON.parse(text) as Json
  }
  catch {
    return FAILED
  }
}

function fits(value: Json, kind: NonNullable<CoercionPlan['parse']>): boolean {
  return Array.isArray(value) ? kind !== 'object' : isObject(value) && kind !== 'array'
}

/** Sets a key as an own data property: a `__proto__` key never reaches the prototype. */
function set(target: Record<string, Json> | Json[], key: string | number, value: Json): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

function coerceObject(value: Record<string, Json>, plan: CoercionPlan, depth: number, budget: Budget): Record<string, Json> {
  let out = value
  const properties = plan.properties
  if (properties || plan.additional) {
    for (const key of Object.keys(value)) {
      const sub = properties && own(properties, key) ? properties[key] : plan.additional
      const next = coerce(value[key], sub, depth + 1, budget)
      if (next !== value[key]) {
        if (out === value)
          out = { ...value }
        set(out, key, next)
      }
    }
  }
  const tag = plan.discriminator
  const selected = tag && typeof out[tag.key] === 'string' && own(tag.cases, out[tag.key] as string) ? tag.cases[out[tag.key] as string] : undefined
  return selected ? coerceObject(out, selected, depth, budget) : out
}

function coerceArray(value: Json[], plan: CoercionPlan, depth: number, budget: Budget): Json[] {
  let out = value
  for (let i = 0; i < value.length; i++) {
    const sub = plan.prefix && i < plan.prefix.length ? plan.prefix[i] : plan.items
    const next = coerce(value[i], sub ?? undefined, depth + 1, budget)
    if (next !== value[i]) {
      if (out === value)
        out = value.slice()
      set(out, i, next)
    }
  }
  return out
}

function coerce(value: Json, plan: CoercionPlan | undefined, depth: number, budget: Budget): Json {
  if (!plan || depth > MAX_DEPTH)
    return value
  if (typeof value === 'string') {
    if (!plan.parse)
      return value
    const parsed = parse(value, budget)
    if (parsed === FAILED || !fits(parsed, plan.parse))
      return value
    value = parsed
  }
  if (Array.isArray(value))
    return plan.items || plan.prefix ? coerceArray(value, plan, depth, budget) : value
  return isObject(value) ? coerceObject(value, plan, depth, budget) : value
}

/**
 * Parses JSON strings back into objects and arrays where the plan says the tool expects them (the
 * whole arguments object included). Scalars are never touched; the input is never mutated (what
 * changes is copied); it never throws and bounds its work.
 */
export function coerceArgs(args: unknown, plan: CoercionPlan): unknown {
  const budget: Budget = { chars: MAX_TOTAL }
  try {
    let value = args
    if (typeof value === 'string') {
      const parsed = parse(value, budget)
      if (isObject(parsed))
        value = parsed
    }
    return coerce(value, plan, 0, budget)
  }
  catch {
    return args
  }
}
