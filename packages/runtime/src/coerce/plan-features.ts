// What a coercion plan does, read from its structure (once per plan object): whether it parses JSON
// text anywhere, drops a strict model's nulls, decodes a target's encodings, repairs scalars. A server
// uses it to skip the coercer where a plan changes nothing and to know which readings to try.
import type { CoercionPlan } from '@flatmcp/core'

export interface PlanFeatures {
  /** Some place may parse JSON text (`parse`). */
  parse: boolean
  /** Some object drops a strict model's nulls (`keepNull`). */
  keepNull: boolean
  /** Some key reads `null` as left out (`nullIsAbsent`, a target's decoding). */
  nullIsAbsent: boolean
  /** Some key's value was advertised wrapped (`unwrap`). */
  unwrap: boolean
  /** Some place repairs scalars' JSON text (`scalars`), a second try. */
  scalars: boolean
}

const known = new WeakMap<object, PlanFeatures>()

/** The features of a plan and every plan inside it (its keys, items, tuple places, cases, alternatives, named plans). */
export function planFeatures(plan: CoercionPlan): PlanFeatures {
  const cached = known.get(plan)
  if (cached)
    return cached
  const features: PlanFeatures = { parse: false, keepNull: false, nullIsAbsent: false, unwrap: false, scalars: false }
  // A stack, not recursion: a plan read from a file may nest deeper than the call stack goes.
  const pending: unknown[] = [plan]
  while (pending.length > 0) {
    const node = pending.pop() as CoercionPlan | null | undefined
    if (typeof node !== 'object' || node === null)
      continue
    features.parse ||= node.parse !== undefined
    features.keepNull ||= node.keepNull !== undefined
    features.nullIsAbsent ||= node.nullIsAbsent !== undefined
    features.unwrap ||= node.unwrap !== undefined
    features.scalars ||= node.scalars !== undefined
    pending.push(node.additional, node.items)
    for (const group of [node.properties, node.defs, node.discriminator?.cases]) {
      if (typeof group === 'object' && group !== null)
        pending.push(...Object.values(group))
    }
    if (Array.isArray(node.prefix))
      pending.push(...node.prefix)
    if (Array.isArray(node.variants))
      pending.push(...node.variants.map(variant => variant?.plan))
  }
  known.set(plan, features)
  return features
}
