// coerceArgs by property, over generated schemas and values their zod schema accepts:
// it is the identity on valid input, and it undoes the stringification of every object or array
// the original schema types as such (inner ones first, so doubly serialized values too).
import type { Spec } from '../../../test/support/schema-arbitrary'
import { compileTool } from '@flatmcp/core'
import { coerceArgs } from '@flatmcp/runtime'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cases, RUNS, SEED, toZod } from '../../../test/support/schema-arbitrary'
import { SLOW } from '../../../test/support/timeouts'

/** True when a value of this spec may be a string: then a string there is never parsed. */
function acceptsString(s: Spec): boolean {
  switch (s.t) {
    case 'string': return true
    case 'literal': return typeof s.value === 'string'
    case 'enum': return true
    case 'number': return s.coerce === true || s.catch === true
    case 'literals': return s.values.some(value => typeof value === 'string')
    case 'unknown': case 'template': case 'stringbool': return true
    case 'wrap': return s.how === 'success' || acceptsString(s.inner)
    case 'nullable': return acceptsString(s.inner)
    case 'union': return s.options.some(acceptsString)
    default: return false
  }
}

const isStructured = (value: unknown): boolean => typeof value === 'object' && value !== null

/** Stringifies every object/array the spec types as such (no string accepted there), innermost first. */
function stringifyDeep(value: unknown, s: Spec): unknown {
  if (s.t === 'wrap')
    return s.how === 'success' ? value : stringifyDeep(value, s.inner)
  if (s.t === 'intersection')
    return stringifyDeep(value, { t: 'object', fields: [...s.left, ...s.right], strict: true })
  let inner = value
  if (s.t === 'object' && isStructured(value))
    inner = Object.fromEntries(Object.entries(value as object).map(([key, v]) => [key, stringifyField(v, s.fields.find(f => f.key === key)?.spec)]))
  else if (s.t === 'du' && isStructured(value)) {
    const tag = (value as Record<string, unknown>)[s.key]
    const variant = s.variants.find(v => v.values.includes(tag as string))
    inner = Object.fromEntries(Object.entries(value as object).map(([key, v]) => [key, key === s.key ? v : stringifyField(v, variant?.fields.find(f => f.key === key)?.spec)]))
  }
  else if (s.t === 'array' && Array.isArray(value))
    inner = value.map(item => stringifyField(item, s.item))
  else if (s.t === 'record' && isStructured(value))
    inner = Object.fromEntries(Object.entries(value as object).map(([key, v]) => [key, stringifyField(v, s.value)]))
  else if (s.t === 'tuple' && Array.isArray(value))
    inner = value.map((item, i) => stringifyField(item, s.items[i]))
  return inner
}

function stringifyField(value: unknown, s: Spec | undefined): unknown {
  if (!s)
    return value
  const inner = stringifyDeep(value, s)
  return isStructuredSpec(s) && isStructured(value) && !acceptsString(s) ? JSON.stringify(inner) : inner
}

/** Specs whose values the plan may parse back from a string: objects and arrays (z.success takes anything). */
function isStructuredSpec(s: Spec): boolean {
  return s.t === 'wrap' ? s.how !== 'success' && isStructuredSpec(s.inner) : ['object', 'du', 'array', 'record', 'tuple', 'intersection'].includes(s.t)
}

describe('coerceArgs (property)', () => {
  it(`is the identity on valid input and undoes stringification, over ${RUNS} schemas`, () => {
    let repaired = 0
    fc.assert(fc.property(cases, ([s, values]) => {
      const typed = toZod(s, true)
      const { coercion } = compileTool({ name: 'generated', input: toZod(s) })
      for (const raw of values) {
        const value = JSON.parse(JSON.stringify(raw)) as unknown
        if (!typed.safeParse(value).success)
          continue
        expect(coerceArgs(value, coercion)).toBe(value)
        const broken = stringifyDeep(value, s)
        if (JSON.stringify(broken) !== JSON.stringify(value))
          repaired++
        expect(coerceArgs(broken, coercion)).toEqual(value)
        expect(coerceArgs(JSON.stringify(broken), coercion)).toEqual(value)
      }
    }), { numRuns: RUNS, seed: SEED })
    expect(repaired).toBeGreaterThan(RUNS / 2)
  }, Math.max(SLOW, RUNS * 900))
})
