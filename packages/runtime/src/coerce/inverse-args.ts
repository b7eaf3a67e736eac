// A profile's inverse map at request time: the places advertised as JSON text are parsed back, then
// the coercion plan repairs strings and drops the nulls a strict model wrote for keys it did not mean.
import type { CoercionPlan } from '@flatmcp/core'
import type { ObjectStep } from './coerce-args'
import { coerceArgs, resolve, set } from './coerce-args'
import type { Pass } from './one-pass'
import { mergedPlans, startMerging } from './merged-plans'
import { keepNotJson, notJsonOf } from './not-json'
import { MAX_WORK, withoutNullKeys, withoutNulls } from './null-keys'
import { compilable, compilePass, decodedKeys } from './one-pass'
import { planFeatures } from './plan-features'
import { readScalar } from './scalars'

type Json = unknown

/** What a profile's compiled tool holds for mapping arguments back. */
export interface InversePlan {
  coercion: CoercionPlan
  decode?: CoercionPlan
}

/**
 * How a strict model's nulls are read: as the plan says (kept where the original takes null), as
 * missing keys in every object the plan reaches, or as missing keys everywhere. A server tries them
 * in this order until the original accepts one: a JSON Schema may say a key takes null where the
 * schema itself does not, and a plan cannot always tell which alternative of a union a value took.
 */
export const NULL_READINGS = ['plan', 'planned', 'everywhere'] as const
export type NullReading = typeof NULL_READINGS[number]

/** The readings a plan has: all three where it drops nulls (only a strict target's plan does), else the first. */
export function readingsOf(plan: CoercionPlan): readonly NullReading[] {
  return planFeatures(plan).keepNull ? NULL_READINGS : NULL_READINGS.slice(0, 1)
}

/**
 * What a plan does to arguments: `first`, whether it changes anything on the first try (else the
 * arguments go to the original as sent); `scalars`, whether it has scalar repairs for a second try.
 */
export function repairsOf(plan: InversePlan): { first: boolean, scalars: boolean } {
  const features = planFeatures(plan.coercion)
  return { first: plan.decode !== undefined || features.parse || features.keepNull || features.nullIsAbsent || features.unwrap, scalars: features.scalars }
}

/** One way of reading arguments back: a reading of the nulls, and whether scalars' JSON text is read. */
export type InverseTry = readonly [NullReading, boolean]

/**
 * The tries a server makes, in order, until the original accepts one: each reading of the nulls,
 * then each again with scalar repairs when the plan has them (so a scalar is repaired only once
 * the original rejected every reading without).
 */
export function triesOf(plan: InversePlan): InverseTry[] {
  const readings = readingsOf(plan.coercion)
  const first = readings.map((reading): InverseTry => [reading, false])
  return repairsOf(plan).scalars ? [...first, ...readings.map((reading): InverseTry => [reading, true])] : first
}

/** Whether a string may be the JSON text of an object or array a key takes (it is parsed later): by its first character. */
function mayBeJsonText(text: string, kinds: string[]): boolean {
  const first = /\S/.exec(text)?.[0]
  return (first === '{' && kinds.includes('object')) || (first === '[' && kinds.includes('array'))
}

/**
 * Whether an object may be of a union's alternative, by its keys alone: each non-null value of a kind
 * the key takes (a string that opens like JSON text of an object or array it takes), a null only where the key takes null or may be missing,
 * and every required key there.
 */
function fitsVariant(value: Record<string, Json>, variant: NonNullable<CoercionPlan['variants']>[number], others = false): boolean {
  const { fields, required } = variant
  for (const key of Object.keys(value)) {
    const kinds = Object.prototype.hasOwnProperty.call(fields, key) ? fields[key]! : undefined
    // With `others`, a key an open alternative does not name is one of its other keys.
    if (others && !kinds)
      continue
    const item = value[key]
    const kind = item === null ? 'null' : Array.isArray(item) ? 'array' : typeof item
    if (item === null ? kinds !== undefined && !kinds.includes('null') && required.includes(key) : !kinds || !(kinds.includes(kind) || (kind === 'string' && mayBeJsonText(item as string, kinds))))
      return false
  }
  return required.every(key => Object.prototype.hasOwnProperty.call(value, key))
}

/**
 * At each planned object: the alternatives the value fits by its keys' kinds (one is followed as a
 * discriminator's case is; several, as one plan keeping a null where any of them keeps it, at any
 * depth), then a strict target's nulls for keys the model did not mean dropped (the key is missing,
 * so a default applies).
 */
function nullStep(nullsAsMissing: boolean): ObjectStep {
  return (value, plan) => {
    let fitting = plan.variants?.filter(v => fitsVariant(value, v))
    if (fitting?.length === 0) {
      // One open alternative alone: with several, which one's plan holds below is not told by the keys.
      const open = plan.variants!.filter(v => v.open && fitsVariant(value, v, true))
      fitting = open.length === 1 ? open : fitting
    }
    if (fitting?.length)
      // A merge cut short by the bound (or of one plan twice) is the first plan as it is: a named one resolved too.
      plan = resolve(fitting.length === 1 ? fitting[0]!.plan : mergedPlans(fitting.map(v => v.plan)))!
    return [plan.keepNull ? withoutNulls(value, nullsAsMissing ? [] : plan.keepNull) : value, plan]
  }
}

const PLAN_READING = /* @__PURE__ */ nullStep(false)
const PLANNED_READING = /* @__PURE__ */ nullStep(true)

/** Whether a plan has alternatives or nulls to drop, by plan (read once): without, the step is skipped. */
const stepped = new WeakMap<CoercionPlan, boolean>()

function needsStep(plan: CoercionPlan): boolean {
  let needs = stepped.get(plan)
  if (needs === undefined) {
    try {
      // A key named "variants" reads as alternatives too: the step is then taken, which is only slower.
      needs = planFeatures(plan).keepNull || JSON.stringify(plan).includes('"variants":')
    }
    catch {
      needs = true
    }
    stepped.set(plan, needs)
  }
  return needs
}

/**
 * The arguments as the original schema expects them, under one reading of its nulls; with `scalars`,
 * scalars' JSON text read too (once the original rejected them without). Never throws: arguments the
 * decoding refuses (a rest key that holds no JSON object) come back as `RefusedArguments`, saying why.
 */
export function inverseArgs(args: unknown, plan: InversePlan, nulls: NullReading = 'plan', scalars = false): unknown {
  const read = readerOf(plan)
  return read ? read(args, nulls, scalars) : walkedArgs(args, plan, nulls, scalars)
}

/** Reads arguments back under one try: `inverseArgs` for one plan, compiled where it can be. */
export type InverseReader = (args: unknown, nulls: NullReading, scalars: boolean) => unknown

const readers = new WeakMap<InversePlan, InverseReader | null>()

/** The plan's reader, compiled once (see `one-pass.ts`); `undefined` where the plan is walked as it is. */
export function readerOf(plan: InversePlan): InverseReader | undefined {
  let read = readers.get(plan)
  if (read === undefined) {
    read = compilable(plan.coercion) && (!plan.decode || compilable(plan.decode)) ? compiledReader(plan) : null
    readers.set(plan, read)
  }
  return read ?? undefined
}

function compiledReader({ coercion, decode }: InversePlan): InverseReader {
  const decodePass = decode && compilePass(decode, 'decode', false)
  // One pass per try, compiled at its first call: [plan, planned, everywhere] without scalars, then with.
  const passes: (Pass | undefined)[] = []
  return (args, nulls, scalars) => {
    const written = nulls === 'everywhere' ? withoutNullKeys(args, { work: MAX_WORK }, 0) : args
    const decodedArgs = decodePass ? decodedBy(written, decode!, decodePass, args) : written
    const at = NULL_READINGS.indexOf(nulls) + (scalars ? 3 : 0)
    const pass = passes[at] ??= compilePass(coercion, nulls === 'plan' ? 'plan' : 'planned', scalars)
    return pass(decodedArgs, args)
  }
}

/** `inverseArgs` by walking the plan as it is, never compiled: what a plan the compiler leaves out gets, and what the compiled reading is tested against. */
export function walkedArgs(args: unknown, plan: InversePlan, nulls: NullReading, scalars: boolean): unknown {
  // Every null the model wrote, before any JSON text is parsed: a null inside JSON text is a value.
  const written = nulls === 'everywhere' ? withoutNullKeys(args, { work: MAX_WORK }, 0) : args
  const notJson = notJsonOf(args)
  try {
    const decodedArgs = plan.decode ? decoded(written, plan.decode, notJson) : written
    if (decodedArgs instanceof RefusedArguments)
      return decodedArgs
    const step = !needsStep(plan.coercion) ? undefined : nulls === 'plan' ? PLAN_READING : PLANNED_READING
    startMerging()
    return coerceArgs(decodedArgs, plan.coercion, step, scalars ? readScalar : undefined, notJson)
  }
  finally {
    keepNotJson(args, notJson)
  }
}

/**
 * A target's decoding at each object its decode plan reaches (before the JSON text there is parsed):
 * a null that stands for a key left out is removed, and a value advertised as `{ "value": … }` is
 * taken out of it.
 */
const DECODE_STEP: ObjectStep = (value, plan) => {
  // Only a planned object's keys can change (not those of a parsed JSON-text value's), and only
  // those sent beside the rest key: the keys its text holds are the model's values, as written
  // (a null there is a value, even where another alternative of a union names the key optional).
  const decodedValue = plan.properties || plan.additional ? decodedKeys(value, plan.properties, plan.additional) : value
  return [plan.rest === undefined ? decodedValue : withRestMerged(decodedValue, plan.rest, value), plan]
}

/**
 * Arguments a target's decoding refuses, with why: a rest key that holds no JSON object, or names a
 * key sent beside it. Given to the check in place of the arguments; the call is refused with `message`.
 */
export class RefusedArguments {
  constructor(readonly message: string) {}
}

/** Why the decoding under way refuses its arguments (set by `DECODE_STEP`, read once `coerceArgs` returns). */
let refusal: string | undefined

/** A value, named briefly for a refusal. */
function described(value: Json): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

/**
 * The object with the rest key taken out and the keys its JSON text holds merged in (see
 * `CoercionPlan.rest`); `sent`, the object as sent, whose keys the text may not name (a null that
 * stands for a key left out still names it).
 */
function withRestMerged(value: Record<string, Json>, key: string, sent: Record<string, Json>): Record<string, Json> {
  if (!Object.prototype.hasOwnProperty.call(value, key))
    return value
  const text = value[key]
  let others: Json = null
  if (typeof text === 'string') {
    try {
      others = JSON.parse(text) as Json
    }
    catch {
      others = undefined
    }
  }
  if (text !== null && (typeof others !== 'object' || others === null || Array.isArray(others))) {
    refusal ??= `"${key}" holds the object's other keys as the JSON text of an object ({} for none); it held ${described(text)}.`
    return value
  }
  const out: Record<string, Json> = {}
  for (const name of Object.keys(value)) {
    if (name !== key)
      set(out, name, value[name])
  }
  for (const [name, item] of Object.entries((others ?? {}) as Record<string, Json>)) {
    if (name !== key && Object.prototype.hasOwnProperty.call(sent, name)) {
      refusal ??= `"${key}" holds the keys not sent beside it, and "${name}" was sent beside it too.`
      return value
    }
    set(out, name, item)
  }
  return out
}

/** Decodings by the arguments they came from, so a server trying one reading after another parses the JSON text once. */
const decodings = new WeakMap<object, { decode: CoercionPlan, value: unknown }>()

/**
 * The last decoding a compiled pass made, kept in one slot: a server's readings of one call come in
 * turn, and a `WeakMap` entry per call cost gemini's clean arguments 1.5 µs of 2.4 (three times the
 * parse of their JSON text).
 */
let lastArgs: unknown
let lastDecode: CoercionPlan | undefined
let lastValue: unknown

/** As `decoded`, by a compiled pass (which refuses nothing: a plan with a rest key is not compiled). */
function decodedBy(args: unknown, decode: CoercionPlan, pass: Pass, of: unknown): unknown {
  const memo = typeof args === 'object' && args !== null
  if (memo && lastArgs === args && lastDecode === decode)
    return lastValue
  const value = pass(args, of)
  if (memo) {
    lastArgs = args
    lastDecode = decode
    lastValue = value
  }
  return value
}

function decoded(args: unknown, decode: CoercionPlan, notJson: Set<string> | undefined): unknown {
  const known = typeof args === 'object' && args !== null ? decodings.get(args) : undefined
  if (known?.decode === decode)
    return known.value
  refusal = undefined
  const done = coerceArgs(args, decode, DECODE_STEP, undefined, notJson)
  const value = refusal === undefined ? done : new RefusedArguments(refusal)
  refusal = undefined
  if (typeof args === 'object' && args !== null)
    decodings.set(args, { decode, value })
  return value
}
