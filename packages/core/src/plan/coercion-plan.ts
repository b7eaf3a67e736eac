import type { SchemaNotes } from '../types'

/**
 * Where a JSON string may stand for an object or an array, and how to reach such places. Plain JSON,
 * read by `coerceArgs` in `@flatmcp/runtime`. `{}` means there is nothing to repair.
 */
export interface CoercionPlan {
  /**
   * A string here may be JSON text: parse it, keep the result if it is of this kind. `json`: the place
   * was advertised as JSON text (a target profile's encoding), so any JSON value parsed is kept.
   */
  parse?: 'object' | 'array' | 'any' | 'json'
  /**
   * A repair tried only after the original rejected the arguments as sent: a string here that is the
   * canonical JSON text of a value of these kinds (`"5"`, `"true"`, `"null"`) is read as that value.
   * Only where the schema takes no string; `number` stands for integers too.
   */
  scalars?: ScalarKind[]
  /**
   * A target advertised this object's optional keys as nullable: a `null` is dropped (the key is
   * missing, so a default applies) except at the keys listed, whose schema takes `null` itself.
   */
  keepNull?: string[]
  /**
   * A union of objects without a discriminator, under a strict target: each alternative's keys with
   * the kinds they take, its required keys, and its plan. The alternative the value fits by those is
   * followed, as a discriminator's case would be; several that fit are followed as one plan, at any
   * depth: a `null` dropped only where every one of them drops it, a repair the first's where they
   * differ. Where none fits, an alternative that takes keys it does not name (`open`) is followed if
   * it alone fits with such keys passed over.
   */
  variants?: { fields: Record<string, string[]>, required: string[], plan: CoercionPlan, open?: true }[]
  /** A target's decoding, at an optional key: a `null` means the key was left out, so it is removed first. */
  nullIsAbsent?: true
  /** A target's decoding: the key's value was advertised wrapped, `{ "value": … }`; it is taken out. */
  unwrap?: 'value'
  /**
   * A target's decoding: this object was closed with this key holding its other keys as the JSON text
   * of an object (`{}` or null for none); the key is taken out and the keys it holds merged back in.
   */
  rest?: string
  /** Plans for an object's keys. */
  properties?: Record<string, CoercionPlan>
  /** The plan for keys not listed in `properties` (record values, catch-alls). */
  additional?: CoercionPlan
  /** The plan for array elements (after `prefix`). */
  items?: CoercionPlan
  /** Plans for tuple positions; `null` where a position needs none. */
  prefix?: (CoercionPlan | null)[]
  /** The most elements the schema allows: a longer array is left to the parser, which rejects it. */
  maxItems?: number
  /** A union of objects told apart by a string key: the plan of the variant its value selects. */
  discriminator?: { key: string, cases: Record<string, CoercionPlan> }
  /** This place follows the plan named so in the root's `defs` (a recursive or shared definition). */
  ref?: string
  /** Named plans, on the root plan only: a recursive schema plans once, whatever its depth. */
  defs?: Record<string, CoercionPlan>
}

export type ScalarKind = 'number' | 'boolean' | 'null'

export interface PlanOptions {
  /** Notes from `toOriginalSchema`: a declared discriminator is used where the JSON alone is ambiguous. */
  notes?: SchemaNotes
  /** A `null` at an optional key means a missing key (a strict target's answer): plan `keepNull`. */
  nullsMeanAbsent?: boolean
}
