// The one loop that reads a call: its readings, tried in turn until the original accepts one (each
// reading of a strict profile's nulls, then each again with scalars' JSON text read: `triesOf`),
// for the server, `flat()` and the build's round-trip check alike. Bounded: after a
// check slow enough to be worth it, a reading the same as one already checked is not checked again,
// and none is tried after a check that took over a second, so a body that is costly to parse costs
// the original about one parse, not six.
import type { InversePlan, InverseReader, InverseTry } from '../coerce/inverse-args'
import { readerOf, repairsOf, triesOf, walkedArgs } from '../coerce/inverse-args'

/** What checking one reading gave, and the arguments it read. */
export interface Tried<R> {
  result: R
  args: unknown
}

/** How long checking one reading may take before no further reading is tried. */
const READING_BUDGET_MS = 1000
/**
 * A check slower than this makes the next readings compared with the ones checked (by their JSON
 * text) before they are checked: for a cheap check, the comparison would cost more than it saves.
 */
const COMPARE_AFTER_MS = 50

/** A reading's identity: its JSON text, with a key set to `undefined` told from one left out. */
function readingText(args: unknown): string {
  return JSON.stringify(args, (_key, value: unknown) => value === undefined ? '\u0000undefined' : value) ?? ''
}

/**
 * Checks the readings `argsFor` makes of each try, in turn, synchronously where `check` is: the first
 * one `accepted`, else the one whose issues are reported. That is the first repaired reading where
 * scalars were repaired (the model sent "101" for a number: what is wrong is the range, not the
 * string), else the first reading.
 */
export function readInTurn<R>(tries: readonly InverseTry[], argsFor: (tried: InverseTry) => unknown, check: (args: unknown) => R | Promise<R>, accepted: (result: R) => boolean): Tried<R> | Promise<Tried<R>> {
  return fromFirst(tries, argsFor(tries[0]!), () => argsFor, check, accepted)
}

/**
 * `readInTurn` from the first reading's arguments: they are checked before the loop's state (and the
 * reader of the other tries, `argsForLater`) is made, so clean arguments are accepted at once.
 */
function fromFirst<R>(tries: readonly InverseTry[], args: unknown, argsForLater: () => (tried: InverseTry) => unknown, check: (args: unknown) => R | Promise<R>, accepted: (result: R) => boolean): Tried<R> | Promise<Tried<R>> {
  const started = Date.now()
  const result = check(args)
  if (!(result instanceof Promise) && accepted(result))
    return { result, args }
  return inTurn(tries, argsForLater(), check, accepted, { args, started, result })
}

/** The loop of `readInTurn`, from the first reading, already checked (`checkedFirst`). */
function inTurn<R>(tries: readonly InverseTry[], argsFor: (tried: InverseTry) => unknown, check: (args: unknown) => R | Promise<R>, accepted: (result: R) => boolean, checkedFirst: { args: unknown, started: number, result: R | Promise<R> }): Tried<R> | Promise<Tried<R>> {
  const checked: { args: unknown, text?: string }[] = []
  let compare = false
  let first: Tried<R> | undefined
  let repaired: Tried<R> | undefined
  const seenBefore = (args: unknown): boolean => {
    if (!compare)
      return false
    const text = readingText(args)
    const same = checked.some(before => (before.text ??= readingText(before.args)) === text)
    if (!same)
      checked.push({ args, text })
    return same
  }
  const step = (from: number): Tried<R> | Promise<Tried<R>> => {
    for (let i = from; i < tries.length; i++) {
      const args = i === 0 ? checkedFirst.args : argsFor(tries[i]!)
      if (seenBefore(args))
        continue
      if (!compare)
        checked.push({ args })
      const started = i === 0 ? checkedFirst.started : Date.now()
      const settle = (result: R): Tried<R> | Promise<Tried<R>> => {
        const tried = { result, args }
        if (accepted(result))
          return tried
        first ??= tried
        if (tries[i]![1])
          repaired ??= tried
        const took = Date.now() - started
        if (took > READING_BUDGET_MS)
          return repaired ?? first
        compare ||= took >= COMPARE_AFTER_MS
        return step(i + 1)
      }
      const result = i === 0 ? checkedFirst.result : check(args)
      return result instanceof Promise ? result.then(settle) : settle(result)
    }
    return repaired ?? first!
  }
  return step(0)
}

/** How one form of a tool reads its arguments: its inverse map, and what to try, fixed once per plan. */
export interface ReadingPlan {
  plan: InversePlan
  /** Each reading of a strict target's nulls, then scalar repairs: tried in turn until the original accepts one. */
  tries: InverseTry[]
  /** False when the coercer would change nothing on a try without scalar repairs: the arguments go as sent. */
  coerce: boolean
  /** The inverse map under one try, compiled once for the plan where it can be (`inverseArgs` without its look-up). */
  read: InverseReader
}

/**
 * How arguments are read under `plan`. `textParsed`: whoever hands them on already parsed a whole
 * arguments object sent as JSON text (a server's transport does), so a plan that changes nothing
 * else is skipped; elsewhere the coercer runs, which parses such text too.
 */
export function readingPlan(plan: InversePlan, textParsed = false): ReadingPlan {
  const read = readerOf(plan) ?? ((args, nulls, scalars) => walkedArgs(args, plan, nulls, scalars))
  return { plan, tries: triesOf(plan), coerce: !textParsed || repairsOf(plan).first, read }
}

/**
 * The arguments `raw` read back under a plan, reading after reading, each checked by `check` (the
 * original's parse) until one is `accepted`: what the server, `flat()` and the build's round-trip
 * check all do. Synchronous where `check` is; bounded as `readInTurn` says.
 */
export function readArguments<R>(raw: unknown, reading: ReadingPlan, check: (args: unknown) => R | Promise<R>, accepted: (result: R) => boolean): Tried<R> | Promise<Tried<R>> {
  const { tries, coerce, read } = reading
  const [nulls, scalars] = tries[0]!
  const args = coerce || scalars ? read(raw, nulls, scalars) : raw
  return fromFirst(tries, args, () => ([nulls, scalars]) => coerce || scalars ? read(raw, nulls, scalars) : raw, check, accepted)
}
