// A compiled pass made code once per plan and try, from the text `pass-writer.ts` writes: each
// planned place its own function, calling its sub-places by name, so every call site sees one callee
// (the closures of `one-pass.ts` share their call sites among all places of all tools, which cost
// clean arguments most of what the pass adds to the original's parse). Where a host forbids code
// from strings (Workers, `--disallow-code-generation-from-strings`), a plan is too large or the
// process holds enough written code, the closures serve.
import type { CoercionPlan } from '@flatmcp/core'
import type { PassParts, Place } from './pass-writer'
import { set } from './coerce-args'
import { writtenCode } from './pass-writer'

/**
 * Written code alive in the process, in the units of `MAX_WRITTEN` (`pass-writer.ts`): past it,
 * further plans are walked by the closures (a gateway's members choose their schemas, and a pass is
 * kept while its tool is); given back as passes are collected.
 */
const MAX_ALIVE = 262_144
let alive = 0
/** Made at the first pass written: a bundle of `coerceArgs` alone carries none of this room. */
let collected: FinalizationRegistry<number> | undefined
/** Whether the host runs code made from strings: asked at the first pass written. */
let allowed: boolean | undefined

/** Whether this host runs code made from strings; asked once. */
function codeAllowed(): boolean {
  if (allowed === undefined) {
    try {
      allowed = (new Function('return true') as () => boolean)()
    }
    catch {
      allowed = false
    }
  }
  return allowed
}

/** For tests: the written code alive, in units, and the most there may be. */
export function writtenAlive(): { units: number, most: number } {
  return { units: alive, most: MAX_ALIVE }
}

/** For tests: written code on or off (`undefined`: as the host allows). */
export function writeCode(on: boolean | undefined): void {
  allowed = on
}

/** The place `plan` compiled as written code; `undefined` where the host forbids it or the plan is too large. */
export function writtenPlace(plan: CoercionPlan, parts: PassParts): Place | undefined {
  if (!codeAllowed() || alive >= MAX_ALIVE)
    return undefined
  try {
    // A plan the writer cannot read (none the planner makes) is left to the closures.
    const code = writtenCode(plan, parts)
    if (code === undefined)
      return undefined
    // The code is the plan's shape: every value it names comes in `C`.
    const make = new Function('B', 'parse', 'R', 'own', 'set', 'isArray', 'C', code.body) as (...args: unknown[]) => Place
    const place = make(parts.budget, parts.parse, parts.scalars, Object.hasOwn, set, Array.isArray, code.constants)
    alive += code.units
    collected ??= new FinalizationRegistry<number>((units) => {
      alive -= units
    })
    collected.register(place, code.units)
    return place
  }
  catch {
    return undefined
  }
}
