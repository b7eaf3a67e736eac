// The compiled inverse map (one pass per plan and try) against the plan walked as it is, by
// property: over generated schemas and their values in every profile, as sent, as each profile's
// model writes them, with objects stringified, nulls added, JSON text broken and the whole arguments
// as text, every try reads alike: the same output, the same identity where nothing changed, the same
// refusal. Both forms: the pass written as code, and the closures a host without code from strings gets.
import type { CompiledTool } from '@flatmcp/core'
import type { InversePlan, NullReading } from '../src/coerce/inverse-args'
import { compileTool, modelAnswer, resolveTarget, TARGET_NAMES } from '@flatmcp/core'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cases, RUNS, SEED, toZod } from '../../../test/support/schema-arbitrary'
import { SLOW } from '../../../test/support/timeouts'
import { writeCode } from '../src/coerce/generated-pass'
import { inverseArgs, NULL_READINGS, walkedArgs } from '../src/coerce/inverse-args'

type Json = unknown
const isStructured = (value: Json): value is object => typeof value === 'object' && value !== null

/** Every object and array below the top stringified, innermost first, where `pick` says. */
function stringified(value: Json, pick: (depth: number) => boolean, depth = 0): Json {
  if (!isStructured(value))
    return value
  const inner = Array.isArray(value) ? value.map(item => stringified(item, pick, depth + 1)) : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, stringified(item, pick, depth + 1)]))
  return depth > 0 && pick(depth) ? JSON.stringify(inner) : inner
}

/** A null added at a key of every object, and every other value left out now and then as null. */
function nullAdded(value: Json, depth = 0): Json {
  if (!isStructured(value))
    return value
  if (Array.isArray(value))
    return value.map(item => nullAdded(item, depth + 1))
  const out: Record<string, Json> = { extra: null }
  for (const [key, item] of Object.entries(value))
    out[key] = (key.length + depth) % 3 === 0 ? null : nullAdded(item, depth + 1)
  return out
}

/** JSON text with its last character cut, wherever a string opens like an object or array. */
function broken(value: Json): Json {
  if (typeof value === 'string')
    return /^\s*[[{]/.test(value) ? value.slice(0, -1) : value
  if (!isStructured(value))
    return value
  return Array.isArray(value) ? value.map(broken) : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, broken(item)]))
}

/** A reading's text, telling a key set to `undefined` from one left out, and a refusal by its message. */
function text(value: Json): string {
  if (isStructured(value) && value.constructor?.name === 'RefusedArguments')
    return `refused: ${(value as { message: string }).message}`
  return JSON.stringify(value, (_key, item: Json) => item === undefined ? '\u0000undefined' : item) ?? String(value)
}

/** Each try read both ways, in turn on one copy each (so what one try remembers serves the next alike). */
function readsAlike(tool: CompiledTool, sent: Json): void {
  const plan = tool as InversePlan
  const compiled = structuredClone(sent)
  const walked = structuredClone(sent)
  for (const scalars of [false, true]) {
    for (const nulls of NULL_READINGS as readonly NullReading[]) {
      const fast = inverseArgs(compiled, plan, nulls, scalars)
      const slow = walkedArgs(walked, plan, nulls, scalars)
      expect(text(fast)).toBe(text(slow))
      expect(fast === compiled).toBe(slow === walked)
    }
  }
}

// Written code where the host allows it, else the closures: each form against the walked plan.
describe.each([['written code', true], ['closures', false]] as const)('%s', (_form, written) => {
  beforeAll(() => writeCode(written))
  afterAll(() => writeCode(undefined))

  describe.each(TARGET_NAMES)('%s: the compiled inverse map reads as the walked one (property)', (profile) => {
    it(`holds for ${Math.ceil(RUNS / 10)} generated schemas and their values, written every way`, () => {
      fc.assert(fc.property(cases, fc.integer({ min: 0, max: 7 }), ([s, values], mask) => {
        // A tool compiled anew per form: its reader is made once per plan, in the form then in force.
        const tool = compileTool({ name: 'generated', input: toZod(s) }, { profile })
        const nullsForMissing = resolveTarget(profile).profile?.nullsForMissing === true
        for (const raw of values) {
          const value = JSON.parse(JSON.stringify(raw)) as Json
          const model = modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing })
          const texts = stringified(value, depth => ((mask >> (depth % 3)) & 1) === 1)
          for (const sent of [value, model, texts, stringified(model, () => true), nullAdded(value), nullAdded(model), broken(texts), JSON.stringify(value), JSON.stringify(model)])
            readsAlike(tool, sent)
        }
      }), { numRuns: Math.ceil(RUNS / 10), seed: SEED })
    }, Math.max(SLOW, RUNS * 400))
  })
})
