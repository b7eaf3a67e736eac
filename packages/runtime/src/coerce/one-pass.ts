// A profile's inverse map compiled once per plan and try into the steps a call needs: one function per
// planned place, each knowing its keys, sub-places and step, so a call resolves nothing, lists no
// plan's keys and allocates nothing where nothing changes. It does what `coerceArgs` with the
// inverse map's steps does, bound for bound (the same work charged at the same places); plans that
// name plans (`ref`), choose among alternatives (`variants`) or merge a rest key (`rest`) are not
// compiled: `inverseArgs` walks them as before. Written as code where the host allows it
// (`generated-pass.ts`); these closures, which do the same, serve where it does not.
import type { CoercionPlan } from '@flatmcp/core'
import type { Place } from './pass-writer'
import type { ScalarReader } from './scalars'
// The bounds `coerceArgs` keeps per call, the same ones (see there).
import { MAX_ATTEMPTS, MAX_DEPTH, MAX_STRING, MAX_TOTAL, MAX_WORK, MIN_CHARGE, set } from './coerce-args'
import { writtenPlace } from './generated-pass'
import { keepNotJson, notJsonOf } from './not-json'
import { withoutNulls } from './null-keys'
import { readScalar } from './scalars'

type Json = unknown
type Obj = Record<string, Json>
/** A compiled object: its step, keys, sub-places and discriminator's cases. */
type ObjectPass = (value: Obj, depth: number) => Obj

let chars = 0
let attempts = 0
/** The call's work left, an object so written code (`generated-pass.ts`) charges the same. */
const budget = { work: 0 }
let active = 0
/** The arguments whose texts found not to be JSON are remembered; their set is looked up at the first parse only. */
let owner: unknown
let texts: Set<string> | undefined
let textsRead = false

/** What the object step at a planned object does: a strict target's nulls dropped, or a target's decoding. */
export type StepKind = 'plan' | 'planned' | 'decode'

const own = (object: object, key: string): boolean => Object.hasOwn(object, key)
const isObject = (value: Json): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether a plan can be compiled: nothing in it names a plan, chooses among alternatives or merges a rest key. */
export function compilable(plan: CoercionPlan): boolean {
  try {
    return !/"(?:ref|variants|rest|defs)":/.test(JSON.stringify(plan))
  }
  catch {
    return false
  }
}

function notJsonTexts(): Set<string> | undefined {
  if (!textsRead) {
    texts = notJsonOf(owner)
    textsRead = true
  }
  return texts
}

/** As `coerceArgs`' parse: JSON text asked for (`json`) always, a repair within the call's bounds. */
function parse(text: string, kind: NonNullable<CoercionPlan['parse']>): Json | undefined {
  if (notJsonTexts()?.has(text))
    return undefined
  const trimmed = text.trim()
  const open = trimmed[0]!
  const close = trimmed[trimmed.length - 1]!
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

function parsed(text: string): Json | undefined {
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return JSON.parse(text) as Json
  }
  catch {
    notJsonTexts()?.add(text)
    return undefined
  }
  finally {
    Error.stackTraceLimit = stackTraceLimit
  }
}

/** How the compiled passes of one plan read: the step at objects, and scalars' JSON text when read. */
interface Mode { step?: StepKind, scalars?: ScalarReader }

const unplanned: Place = value => value

/** A place with no plan is left as it is, and costs nothing. */
function placeOf(plan: CoercionPlan | null | undefined, mode: Mode): Place {
  return plan ? place(plan, mode) : unplanned
}

function place(plan: CoercionPlan, mode: Mode): Place {
  const scalars = mode.scalars && plan.scalars
  const reader = mode.scalars
  const kindBelow = plan.parse
  const array = plan.items || plan.prefix ? arrayPass(plan, mode) : undefined
  // An object with nothing to do below it is charged its step of work and left as it is, uncalled.
  const objectWork = Boolean(plan.properties || plan.additional || plan.discriminator || stepOf(plan, mode.step))
  let object: ObjectPass | undefined
  return (value, depth) => {
    if (depth > MAX_DEPTH || budget.work <= 0)
      return value
    budget.work--
    if (typeof value === 'string') {
      const scalar = scalars && reader!(value, scalars)
      if (scalar)
        return scalar.value
      const kind = depth ? kindBelow : 'object'
      const read = kind && parse(value, kind)
      if (read === undefined)
        return value
      value = read
    }
    if (Array.isArray(value))
      return array ? array(value, depth) : value
    if (!isObject(value))
      return value
    if (objectWork)
      return (object ??= objectPass(plan, mode))(value, depth)
    budget.work--
    return value
  }
}

function arrayPass(plan: CoercionPlan, mode: Mode): (value: Json[], depth: number) => Json[] {
  const prefix = (plan.prefix ?? []).map(sub => placeOf(sub, mode))
  const items = placeOf(plan.items, mode)
  const { maxItems } = plan
  return (value, depth) => {
    if (value.length > budget.work || (maxItems !== undefined && value.length > maxItems))
      return value
    budget.work -= value.length
    let out = value
    for (let i = 0; i < value.length; i++) {
      const sub = i < prefix.length ? prefix[i]! : items
      const next = sub(value[i], depth + 1)
      if (next !== value[i]) {
        if (out === value)
          out = value.slice()
        set(out, i, next)
      }
    }
    return out
  }
}

/** The object step compiled for one plan: `undefined` where it changes nothing. */
function stepOf(plan: CoercionPlan, kind: StepKind | undefined): ((value: Obj) => Obj) | undefined {
  if (kind === 'decode')
    return decodeStep(plan)
  const keep = plan.keepNull
  if (!kind || !keep)
    return undefined
  const kept = kind === 'plan' ? keep : []
  return value => withoutNulls(value, kept)
}

/** A target's decoding at one object (see `DECODE_STEP`): null for a key left out removed, `{ value }` unwrapped. */
function decodeStep(plan: CoercionPlan): ((value: Obj) => Obj) | undefined {
  const { properties, additional } = plan
  const decodes = (sub: CoercionPlan | undefined): boolean => sub?.nullIsAbsent === true || sub?.unwrap !== undefined
  if (!decodes(additional) && !Object.values(properties ?? {}).some(decodes))
    return undefined
  return value => decodedKeys(value, properties, additional)
}

/** An object's keys decoded (see `DECODE_STEP`): copied from the first key that changes on, itself when none does. */
export function decodedKeys(value: Obj, properties: CoercionPlan['properties'], additional: CoercionPlan | undefined): Obj {
  // Copied, not deleted from: a `delete` would leave V8 a slow object for the parser.
  let out: Obj | undefined
  const keys = Object.keys(value)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const sub = properties && own(properties, key) ? properties[key] : additional
    const item = value[key]
    const absent = sub?.nullIsAbsent === true && item === null
    const inner = sub?.unwrap && isObject(item) && own(item, 'value') ? item.value : item
    if (!out && (absent || inner !== item)) {
      out = {}
      for (let j = 0; j < i; j++)
        set(out, keys[j]!, value[keys[j]!])
    }
    if (out && !absent)
      set(out, key, inner)
  }
  return out ?? value
}

function objectPass(plan: CoercionPlan, mode: Mode): ObjectPass {
  const { properties, additional } = plan
  const step = stepOf(plan, mode.step)
  // Without `additional`, only the planned keys are visited; with it, every key of the value.
  const keys = additional ? [] : Object.keys(properties ?? {})
  const subs = keys.map(key => placeOf(properties![key], mode))
  const named = new Map<string, Place>()
  const rest = additional ? place(additional, mode) : undefined
  const keyed = (key: string): Place => {
    let sub = named.get(key)
    if (!sub)
      named.set(key, sub = properties && own(properties, key) ? placeOf(properties[key], mode) : rest!)
    return sub
  }
  const tag = plan.discriminator
  const cases = new Map<string, ObjectPass>()
  const caseOf = (name: string): ObjectPass => {
    let pass = cases.get(name)
    if (!pass)
      cases.set(name, pass = objectPass(tag!.cases[name]!, mode))
    return pass
  }
  const visit = (value: Obj, key: string, sub: Place, depth: number, out: Obj): Obj => {
    const item = value[key]
    const next = own(value, key) ? sub(item, depth + 1) : item
    if (next === item)
      return out
    if (out === value)
      out = { ...value }
    set(out, key, next)
    return out
  }
  return (value, depth) => {
    if (budget.work <= 0)
      return value
    budget.work--
    if (step)
      value = step(value)
    let out = value
    if (rest) {
      for (const key of Object.keys(value))
        out = visit(value, key, keyed(key), depth, out)
    }
    else {
      for (let i = 0; i < keys.length; i++)
        out = visit(value, keys[i]!, subs[i]!, depth, out)
    }
    const selected = tag && out[tag.key]
    return typeof selected === 'string' && own(tag!.cases, selected) && tag!.cases[selected] ? caseOf(selected)(out, depth) : out
  }
}

/** One compiled walk: `coerceArgs(args, plan, step, scalars)` for a compilable plan; `of`, the arguments as they came (whose texts found not to be JSON are kept). */
export type Pass = (args: Json, of: unknown) => Json

/** Compiles `plan` for one step and scalars' reading: a walk that does what `coerceArgs` does with them. */
export function compilePass(plan: CoercionPlan, step: StepKind | undefined, scalars: boolean): Pass {
  const mode: Mode = { step, scalars: scalars ? readScalar : undefined }
  const root = writtenPlace(plan, { budget, parse, step: sub => stepOf(sub, step), scalars: mode.scalars }) ?? place(plan, mode)
  return (args, of) => {
    // Saved in locals, not an array: a call allocates nothing where nothing changes.
    const outerOwner = owner
    const outerTexts = texts
    const outerRead = textsRead
    owner = of
    textsRead = false
    if (active === 0) {
      chars = MAX_TOTAL
      attempts = MAX_ATTEMPTS
      budget.work = MAX_WORK
    }
    active++
    try {
      return root(args, 0)
    }
    catch {
      return args
    }
    finally {
      if (textsRead)
        keepNotJson(of, texts)
      owner = outerOwner
      texts = outerTexts
      textsRead = outerRead
      active--
    }
  }
}
