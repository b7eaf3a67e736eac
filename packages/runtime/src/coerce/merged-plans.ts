// The plans of a union's alternatives that a value fits alike, as one plan to follow below it: the
// keys do not tell which alternative the value is of, so a null is kept where any of them keeps it.
import type { CoercionPlan } from '@flatmcp/core'
import { MAX_DEPTH, resolve, set } from './coerce-args'

type Plans = Record<string, CoercionPlan>
type Memo = WeakMap<CoercionPlan, WeakMap<CoercionPlan, CoercionPlan>>

/**
 * Places one reading may merge (past it the first plan is followed as it is) and places the process
 * keeps merged: a hostile schema's alternatives may each be large, their definitions' pairs many, and
 * a caller may send a value fitting each set of them in turn.
 */
export const MAX_MERGED = 1 << 14
export const MAX_KEPT = 1 << 16

/**
 * Merged plans by the pair they came from, kept while there is room (a union's values fit the same
 * alternatives again); once full, let go of at once, so no caller uses the room up for every later call.
 */
let kept: Memo = new WeakMap()
let keptRoom = MAX_KEPT
let flushed = 0
/** What the reading under way may still merge. */
let room = MAX_MERGED

/** A new reading starts: its merges are bounded afresh. */
export function startMerging(): void {
  room = MAX_MERGED
}

/**
 * One plan for alternatives a value fits alike: a null is dropped only where every one of them drops
 * it (a place one of them plans without `keepNull` keeps every null), a repair is the first's where
 * they differ, and a key, element or case only one of them plans follows that one's plan.
 */
export function mergedPlans(plans: CoercionPlan[]): CoercionPlan {
  const made: Memo = new WeakMap()
  const count: { places: number, cut?: true } = { places: 0 }
  const steps: [CoercionPlan, CoercionPlan, CoercionPlan][] = []
  let merged = plans[0]!
  for (const plan of plans.slice(1)) {
    const next = mergedPair(merged, plan, made, count)
    steps.push([merged, plan, next])
    merged = next
  }
  // Kept only whole: a merge cut short by the bound or the depth is this reading's alone.
  const whole = room >= 0 && !count.cut
  if (whole && count.places > keptRoom && count.places <= MAX_KEPT) {
    kept = new WeakMap()
    keptRoom = MAX_KEPT
    flushed++
  }
  if (whole && count.places <= keptRoom) {
    keptRoom -= count.places
    for (const [a, b, out] of steps)
      remember(kept, a, b, out)
  }
  return merged
}

function remember(memo: Memo, a: CoercionPlan, b: CoercionPlan, out: CoercionPlan): CoercionPlan {
  let byB = memo.get(a)
  if (!byB)
    memo.set(a, byB = new WeakMap())
  byB.set(b, out)
  return out
}

function mergedPair(a: CoercionPlan, b: CoercionPlan, made: Memo, count: { places: number, cut?: true }, depth = 0): CoercionPlan {
  const known = kept.get(a)?.get(b) ?? made.get(a)?.get(b)
  if (a === b || known)
    return known ?? a
  // Deeper than the walk goes (pairs of definitions recurring at different lengths chain on): the
  // first plan, as past the bound, not a stack the merge runs out of (`coerceArgs` would then drop nothing).
  if (depth > MAX_DEPTH) {
    count.cut = true
    return a
  }
  if (--room < 0)
    return a
  count.places++
  const first = resolve(a)!
  const second = resolve(b)!
  // Made before its parts, so a definition that holds itself finds this merge under way.
  const out = remember(made, a, b, { ...first })
  const both = (x: CoercionPlan | undefined, y: CoercionPlan | undefined): CoercionPlan | undefined => x && y ? mergedPair(x, y, made, count, depth + 1) : x ?? y
  const keeps = [keptNulls(first), keptNulls(second)]
  if (keeps[0] && keeps[1])
    out.keepNull = [...new Set([...keeps[0], ...keeps[1]])]
  else
    delete out.keepNull
  if (first.properties || second.properties)
    out.properties = mergedMap(first.properties, second.properties, both)
  const tag = mergedTag(first, second, a, b, both)
  if (tag)
    out.discriminator = tag
  // `out` has the first's already; the second's where the first has none.
  const [additional, items] = [both(first.additional, second.additional), both(first.items, second.items)]
  if (additional)
    out.additional = additional
  if (items)
    out.items = items
  if (first.prefix || second.prefix) {
    const length = Math.max(first.prefix?.length ?? 0, second.prefix?.length ?? 0)
    out.prefix = Array.from({ length }, (_, i) => both(first.prefix?.[i] ?? undefined, second.prefix?.[i] ?? undefined) ?? null)
  }
  // Alternatives below: those of both, the value choosing among them there.
  if (first.variants || second.variants)
    out.variants = [...new Set([...first.variants ?? [], ...second.variants ?? []])]
  return out
}

/**
 * The keys whose null a place keeps: its `keepNull`; at a discriminator's place, which drops nothing
 * itself (its case does, once chosen), those any case keeps where every case says.
 */
function keptNulls(plan: CoercionPlan): string[] | undefined {
  if (plan.keepNull || !plan.discriminator)
    return plan.keepNull
  const cases = Object.values(plan.discriminator.cases).map(sub => resolve(sub)?.keepNull)
  return cases.length > 0 && cases.every(Boolean) ? cases.flat() as string[] : undefined
}

/**
 * The discriminator followed below: both's cases merged where they share the key; where one alone
 * has one, each case merged with the other's whole plan (the first's repairs still first).
 */
function mergedTag(first: CoercionPlan, second: CoercionPlan, a: CoercionPlan, b: CoercionPlan, both: (p?: CoercionPlan, q?: CoercionPlan) => CoercionPlan | undefined): CoercionPlan['discriminator'] {
  const [x, y] = [first.discriminator, second.discriminator]
  if (x && y)
    return x.key === y.key ? { key: x.key, cases: mergedMap(x.cases, y.cases, both) } : x
  const tag = x ?? y
  if (!tag)
    return undefined
  const cases: Plans = {}
  for (const [value, sub] of Object.entries(tag.cases))
    set(cases, value, x ? both(sub, b)! : both(a, sub)!)
  return { key: tag.key, cases }
}

function mergedMap(x: Plans | undefined, y: Plans | undefined, both: (p?: CoercionPlan, q?: CoercionPlan) => CoercionPlan | undefined): Plans {
  const out: Plans = {}
  for (const key of new Set([...Object.keys(x ?? {}), ...Object.keys(y ?? {})]))
    set(out, key, both(own(x, key), own(y, key))!)
  return out
}

const own = (map: Plans | undefined, key: string): CoercionPlan | undefined => map && Object.hasOwn(map, key) ? map[key] : undefined

/** Places the reading under way merged, places the process keeps, and how often it let go of them; for tests that bound the work, not the clock. */
export function mergeCost(): { reading: number, kept: number, flushed: number } {
  return { reading: MAX_MERGED - Math.max(room, 0), kept: MAX_KEPT - keptRoom, flushed }
}
