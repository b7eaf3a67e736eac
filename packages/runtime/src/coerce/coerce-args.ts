// Repairs arguments that arrive as JSON text where the tool expects objects or arrays (and, as a
// second try, scalars where it takes no string). Guided by a plan the compiler derived from the
// original schema; no dependencies, no schema library (the plan's type is imported as a type only,
// and erased).
import type { CoercionPlan } from '@flatmcp/core'
import type { ScalarReader } from './scalars'


/**
 * Bounds on one call, so hostile input stays cheap: the longest string parsed, the characters parsed
 * (each attempt charged at least MIN_CHARGE, since a failed parse costs time whatever its length), the
 * parse attempts, the nesting followed, and the work units spent (a place visited, an element walked).
 */
export const MAX_STRING = 1 << 20
export const MAX_TOTAL = 8 << 20
export const MIN_CHARGE = 1 << 10
export const MAX_ATTEMPTS = 1 << 12
export const MAX_DEPTH = 128
export const MAX_WORK = 1 << 21

type Json = unknown

const own = (object: object, key: string): boolean => Object.hasOwn(object, key)
const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * What the current call may still spend (coerceArgs is synchronous; a nested call shares it). It is
 * reset when a top-level call starts, so after a call it still shows what that call left.
 */
let chars = 0
let attempts = 0
let work = 0
let active = 0
const NO_DEFS: Record<string, CoercionPlan> = {}
/**
 * What a target profile's inverse map does at each planned object before the walk (see
 * `inverse-args.ts`): it may pick an alternative's plan and drop the model's nulls. Set per call,
 * so a bundle of `coerceArgs` alone carries none of it.
 */
export type ObjectStep = (value: Record<string, Json>, plan: CoercionPlan) => [Record<string, Json>, CoercionPlan]
/**
 * The current call, as one tuple saved and restored around it: the root plan's named plans; the
 * object step; how scalars' JSON text is read (`plan.scalars`: a repair tried only after the
 * arguments as sent were rejected); texts already found not to be JSON, for this call and the
 * readings before it of the same arguments (see `inverseArgs`: a failed parse costs the whole text,
 * and a strict profile tries several readings).
 */
let call: [defs: Record<string, CoercionPlan>, step?: ObjectStep, scalars?: ScalarReader, notJson?: Set<string>] = [NO_DEFS]

/** What the last `coerceArgs` call spent; for tests and benchmarks that bound the work, not the clock. */
export function lastCallCost(): { attempts: number, work: number } {
  return { attempts: MAX_ATTEMPTS - attempts, work: MAX_WORK - work }
}

/** A place that follows a named plan: the named plan, with the place's own fields on top. */
export function resolve(plan: CoercionPlan | null | undefined): CoercionPlan | null | undefined {
  // Most places name no plan: this test is all they pay.
  if (plan?.ref === undefined)
    return plan
  let out: CoercionPlan = plan
  for (let hops = 0; out.ref !== undefined && hops < 8; hops++) {
    const { ref, ...rest }: CoercionPlan = out
    out = own(call[0], ref) ? { ...call[0][ref], ...rest } : rest
  }
  return out
}

/**
 * The JSON a string is the text of; `undefined` (never a JSON value) when it is not, or is not worth
 * parsing. Whether it may be is told by its first and last characters (no parse, no regular
 * expression: trimming a text with nothing to trim costs nothing, whatever its length).
 */
function parse(text: string, kind: NonNullable<CoercionPlan['parse']>): Json | undefined {
  if (call[3]?.has(text))
    return undefined
  const trimmed = text.trim()
  const open = trimmed[0]!
  const close = trimmed[trimmed.length - 1]!
  // JSON text a profile asked for (`json`) is parsed whatever its size or count: each such place
  // once, so the work is the length of the body the transport took. Repairs are bounded.
  if (kind === 'json')
    return '{["-0123456789tfn'.includes(open) && '}]"0123456789el'.includes(close) ? parsed(text) : undefined
  if (text.length > MAX_STRING || attempts <= 0 || !((open === '{' && close === '}' && kind !== 'array') || (open === '[' && close === ']' && kind !== 'object')))
    return undefined
  const charge = Math.max(text.length, MIN_CHARGE)
  if (charge > chars)
    return undefined
  chars -= charge
  attempts--
  return parsed(text)
}

/** The JSON `text` is; `undefined` when it is not, which is remembered for the call's later readings. */
function parsed(text: string): Json | undefined {
  // A failed parse's stack is never read: not capturing one halves what a failure costs.
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return JSON.parse(text) as Json
  }
  catch {
    call[3]?.add(text)
    return undefined
  }
  finally {
    Error.stackTraceLimit = stackTraceLimit
  }
}

/**
 * Sets a key as an own data property: a `__proto__` key never reaches the prototype. Only that key
 * has a setter on a plain object's prototype, so every other key is assigned (defining is 5× slower).
 */
export function set(target: Record<string, Json> | Json[], key: string | number, value: Json): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else
    (target as Record<string, Json>)[key] = value
}

function coerceObject(value: Record<string, Json>, plan: CoercionPlan, depth: number): Record<string, Json> {
  // A variant's plan is applied at the same depth: the work budget, not the depth, bounds a plan that selects itself.
  if (work <= 0)
    return value
  work--
  if (call[1])
    [value, plan] = call[1](value, plan)
  let out = value
  const { properties, additional } = plan
  // Only the planned keys can change: without `additional`, walk those, not every key of the value.
  for (const key of Object.keys((additional ? value : properties) ?? {})) {
    const item = value[key]
    const next = own(value, key) ? coerce(item, properties && own(properties, key) ? properties[key] : additional, depth + 1) : item
    if (next !== item) {
      // Copied on the first change (`out === value` until then).
      if (out === value)
        out = { ...value }
      set(out, key, next)
    }
  }
  const tag = plan.discriminator
  const selected = tag && typeof out[tag.key] === 'string' && own(tag.cases, out[tag.key] as string) ? resolve(tag.cases[out[tag.key] as string]) : undefined
  return selected ? coerceObject(out, selected, depth) : out
}

function coerceArray(value: Json[], plan: CoercionPlan, depth: number): Json[] {
  // An array longer than the schema allows, or than the work left (a sparse one of length 2^32 - 1),
  // is left to the parser whole: it rejects the first at once, and nothing here is worth more.
  if (value.length > work || (plan.maxItems !== undefined && value.length > plan.maxItems))
    return value
  work -= value.length
  let out = value
  for (let i = 0; i < value.length; i++) {
    const sub = plan.prefix && i < plan.prefix.length ? plan.prefix[i] : plan.items
    const next = coerce(value[i], sub, depth + 1)
    if (next !== value[i]) {
      if (out === value)
        out = value.slice()
      set(out, i, next)
    }
  }
  return out
}

function coerce(value: Json, planned: CoercionPlan | null | undefined, depth: number): Json {
  const plan = resolve(planned)
  if (!plan || depth > MAX_DEPTH || work <= 0)
    return value
  work--
  if (typeof value === 'string') {
    const scalar = plan.scalars && call[2]?.(value, plan.scalars)
    if (scalar)
      return scalar.value
    // The whole arguments object (depth 0) may come as JSON text too. What parses is of the kind
    // asked for: text that opens and closes as an object's (an array's) is one when it parses.
    const kind = depth ? plan.parse : 'object'
    const parsed = kind && parse(value, kind)
    if (parsed === undefined)
      return value
    value = parsed
  }
  if (Array.isArray(value))
    return plan.items || plan.prefix ? coerceArray(value, plan, depth) : value
  return isObject(value) ? coerceObject(value, plan, depth) : value
}

/**
 * Parses JSON strings back into objects and arrays where the plan says the tool expects them (the
 * whole arguments object included). Where a strict target's plan says which nulls stand for missing
 * keys (`keepNull`), `step` (from `inverseArgs`) drops those. Scalars are read from their JSON text
 * only with `scalars` (`readScalar`: a server passes it once the original rejected the arguments as sent). The
 * input is never mutated (what changes is copied); it never throws and bounds its work: one budget
 * per top-level call, shared by any call a getter of the arguments makes from inside it.
 * `notJsonTexts`: texts known not to be JSON, added to as they are found (one set per arguments
 * read several times, so a text that fails to parse fails once).
 */
export function coerceArgs(args: unknown, plan: CoercionPlan, step?: ObjectStep, scalars?: ScalarReader, notJsonTexts?: Set<string>): unknown {
  const outer = call
  call = [plan?.defs ?? NO_DEFS, step, scalars, notJsonTexts]
  if (active === 0) {
    chars = MAX_TOTAL
    attempts = MAX_ATTEMPTS
    work = MAX_WORK
  }
  active++
  try {
    return coerce(args, plan ?? NO_DEFS, 0)
  }
  catch {
    return args
  }
  finally {
    call = outer
    active--
  }
}
