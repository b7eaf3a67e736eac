// Repairs arguments that arrive as JSON text where the tool expects objects or arrays. Guided by a
// plan the compiler derived from the original schema; no dependencies, no schema library (the plan's
// type is imported as a type only, and erased).
import type { CoercionPlan } from '@flatmcp/core'


/** Longest string parsed, and most characters parsed in one call: hostile input stays cheap. */
const MAX_STRING = 1 << 20
const MAX_TOTAL = 8 << 20
const MAX_DEPTH = 128

type Json = unknown

const own = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key)
const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value)

const FAILED = Symbol('failed')

/** Characters left to parse in the current call (coerceArgs is synchronous, so one counter serves). */
let charsLeft = 0
const NO_DEFS: Record<string, CoercionPlan> = Object.freeze({}) as Record<string, CoercionPlan>
/** The named plans of the current call's root plan. */
let defs = NO_DEFS

/** A place that follows a named plan: the named plan, with the place's own fields on top. */
function resolve(plan: CoercionPlan | undefined): CoercionPlan | undefined {
  // Most places name no plan: this test is all they pay.
  if (plan?.ref === undefined)
    return plan
  let out: CoercionPlan = plan
  for (let hops = 0; out.ref !== undefined && hops < 8; hops++) {
    const { ref, ...rest }: CoercionPlan = out
    out = own(defs, ref) ? { ...defs[ref], ...rest } : rest
  }
  return out
}

function parse(text: string): Json | typeof FAILED {
  if (text.length > MAX_STRING || text.length > charsLeft)
    return FAILED
  charsLeft -= text.length
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

/** The value with `key` coerced by `sub`; copied on the first change (`out === value` until then). */
function coerceKey(value: Record<string, Json>, out: Record<string, Json>, key: string, sub: CoercionPlan | undefined, depth: number): Record<string, Json> {
  const next = coerce(value[key], sub, depth + 1)
  if (next === value[key])
    return out
  const copy = out === value ? { ...value } : out
  set(copy, key, next)
  return copy
}

function coerceObject(value: Record<string, Json>, plan: CoercionPlan, depth: number): Record<string, Json> {
  let out = value
  const { properties, additional } = plan
  if (additional) {
    for (const key of Object.keys(value))
      out = coerceKey(value, out, key, properties && own(properties, key) ? properties[key] : additional, depth)
  }
  else if (properties) {
    // Only the planned keys can change: walk those, not every key of the value.
    for (const key of Object.keys(properties)) {
      if (own(value, key))
        out = coerceKey(value, out, key, properties[key], depth)
    }
  }
  const tag = plan.discriminator
  const selected = tag && typeof out[tag.key] === 'string' && own(tag.cases, out[tag.key] as string) ? resolve(tag.cases[out[tag.key] as string]) : undefined
  return selected ? coerceObject(out, selected, depth) : out
}

function coerceArray(value: Json[], plan: CoercionPlan, depth: number): Json[] {
  let out = value
  for (let i = 0; i < value.length; i++) {
    const sub = plan.prefix && i < plan.prefix.length ? plan.prefix[i] : plan.items
    const next = coerce(value[i], sub ?? undefined, depth + 1)
    if (next !== value[i]) {
      if (out === value)
        out = value.slice()
      set(out, i, next)
    }
  }
  return out
}

function coerce(value: Json, planned: CoercionPlan | undefined, depth: number): Json {
  const plan = resolve(planned)
  if (!plan || depth > MAX_DEPTH)
    return value
  if (typeof value === 'string') {
    if (!plan.parse)
      return value
    const parsed = parse(value)
    if (parsed === FAILED || !fits(parsed, plan.parse))
      return value
    value = parsed
  }
  if (Array.isArray(value))
    return plan.items || plan.prefix ? coerceArray(value, plan, depth) : value
  return isObject(value) && (plan.properties || plan.additional || plan.discriminator) ? coerceObject(value, plan, depth) : value
}

/**
 * Parses JSON strings back into objects and arrays where the plan says the tool expects them (the
 * whole arguments object included). Scalars are never touched; the input is never mutated (what
 * changes is copied); it never throws and bounds its work.
 */
export function coerceArgs(args: unknown, plan: CoercionPlan): unknown {
  charsLeft = MAX_TOTAL
  defs = plan.defs ?? NO_DEFS
  try {
    let value = args
    if (typeof value === 'string') {
      const parsed = parse(value)
      if (isObject(parsed))
        value = parsed
    }
    return coerce(value, plan, 0)
  }
  catch {
    return args
  }
}
