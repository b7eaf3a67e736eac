// Plans combined and rewritten as plain values: merged side by side, agreed between alternatives, renamed.
import type { CoercionPlan } from './coercion-plan'
import { hasOwn, jsonEqual, setOwn } from '../json'

/**
 * The plan all alternatives agree on; where they disagree nothing is coerced (the parser decides).
 * Plans that differ only in scalar repairs agree on the rest: a scalar is repaired only where every
 * alternative would read it so.
 */
export function agreed(plans: (CoercionPlan | undefined)[]): CoercionPlan | undefined {
  const first = plans[0]
  if (!first || plans.some(plan => !plan))
    return undefined
  if (plans.every(plan => jsonEqual(plan, first)))
    return first
  const bare = plans.map(plan => mapPlans(plan!, withoutScalars))
  return bare.every(plan => jsonEqual(plan, bare[0])) && Object.keys(bare[0]!).length > 0 ? bare[0] : undefined
}

const isEmpty = (plan: CoercionPlan | null | undefined): boolean => !plan || Object.keys(plan).length === 0

/** A place without its scalar repairs, and without what is left saying nothing (its sub-plans are done first). */
function withoutScalars(place: CoercionPlan): CoercionPlan {
  const { scalars: _scalars, ...out } = place
  // An empty plan for a declared key says something only beside a plan for undeclared ones.
  if (out.properties && !out.additional) {
    const kept = Object.entries(out.properties).filter(([, sub]) => !isEmpty(sub))
    if (kept.length > 0) {
      out.properties = {}
      for (const [key, sub] of kept)
        setOwn(out.properties, key, sub)
    }
    else {
      delete out.properties
    }
  }
  if (isEmpty(out.items))
    delete out.items
  if (out.prefix) {
    out.prefix = out.prefix.map(sub => isEmpty(sub) ? null : sub)
    if (!out.items && out.prefix.every(sub => sub === null))
      delete out.prefix
  }
  if (!out.items && !out.prefix)
    delete out.maxItems
  if (out.discriminator) {
    const cases = Object.entries(out.discriminator.cases).filter(([, sub]) => !isEmpty(sub))
    if (cases.length > 0)
      out.discriminator = { key: out.discriminator.key, cases: Object.fromEntries(cases) }
    else
      delete out.discriminator
  }
  return out
}

/** One plan for an object assembled from parts with disjoint keys (params, input, shared fields). */
export function mergeObjectPlans(parts: CoercionPlan[]): CoercionPlan {
  const out: CoercionPlan = {}
  parts.forEach((original, i) => {
    const taken = Object.keys(original.defs ?? {}).some(name => out.defs && hasOwn(out.defs, name))
    const part = taken ? renameRefs(original, name => `${i}_${name}`) : original
    if (part.properties)
      out.properties = { ...out.properties, ...part.properties }
    if (part.additional && !out.additional)
      out.additional = part.additional
    if (part.discriminator && !out.discriminator)
      out.discriminator = part.discriminator
    if (part.defs)
      out.defs = { ...out.defs, ...part.defs }
  })
  if (parts.every(part => part.keepNull))
    out.keepNull = parts.flatMap(part => part.keepNull!)
  return out
}

/** The same plan with every definition name (and every use of it) renamed. */
function renameRefs(plan: CoercionPlan, rename: (name: string) => string): CoercionPlan {
  const renamed = mapPlans(plan, place => place.ref === undefined ? place : { ...place, ref: rename(place.ref) })
  if (renamed.defs)
    renamed.defs = Object.fromEntries(Object.entries(renamed.defs).map(([name, sub]) => [rename(name), sub]))
  return renamed
}

/** The plan with `change` applied at every place of it (sub-plans first, definitions included); a new plan. */
export function mapPlans(plan: CoercionPlan, change: (place: CoercionPlan) => CoercionPlan): CoercionPlan {
  const each = (map: Record<string, CoercionPlan>): Record<string, CoercionPlan> => {
    const out: Record<string, CoercionPlan> = {}
    for (const [key, sub] of Object.entries(map))
      setOwn(out, key, mapPlans(sub, change))
    return out
  }
  const out: CoercionPlan = { ...plan }
  if (plan.properties)
    out.properties = each(plan.properties)
  if (plan.additional)
    out.additional = mapPlans(plan.additional, change)
  if (plan.items)
    out.items = mapPlans(plan.items, change)
  if (plan.prefix)
    out.prefix = plan.prefix.map(sub => sub && mapPlans(sub, change))
  if (plan.discriminator)
    out.discriminator = { key: plan.discriminator.key, cases: each(plan.discriminator.cases) }
  if (plan.variants)
    out.variants = plan.variants.map(v => ({ ...v, plan: mapPlans(v.plan, change) }))
  if (plan.defs)
    out.defs = each(plan.defs)
  return change(out)
}
