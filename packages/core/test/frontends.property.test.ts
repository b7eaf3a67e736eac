// Schema libraries other than zod, by property: generated patterns with their flags, end to end through
// each library (zod, valibot, arktype): what the library accepts passes the flat schema under every validator.
// The front ends case by case are frontends.test.ts.
import { compileTool } from '@flatmcp/core'
import { toStandardJsonSchema } from '@valibot/to-json-schema'
import { type } from 'arktype'
import * as v from 'valibot'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { flags, pattern, text } from '../../../test/support/regex-arbitrary'
import { RUNS, SEED } from '../../../test/support/schema-arbitrary'
import { rejectedBy } from '../../../test/support/validators'

describe('generated patterns, end to end', () => {
  const compilable = fc.tuple(pattern, flags).filter(([source, flagList]) => {
    try {
      void new RegExp(source, flagList)
      return true
    }
    catch {
      return false
    }
  })

  // Each library tests the RegExp itself; the tool's flat schema must accept what it accepts, as a
  // key of its own and as a key two variants share.
  const libraries: [string, (regex: RegExp) => { input: unknown, accepts: (value: unknown) => boolean }][] = [
    ['zod', (regex) => {
      const input = z.discriminatedUnion('k', [z.object({ k: z.literal('a'), v: z.string().regex(regex) }), z.object({ k: z.literal('b'), v: z.number() })])
      return { input, accepts: value => input.safeParse(value).success }
    }],
    ['valibot', (regex) => {
      const input = v.variant('k', [v.object({ k: v.literal('a'), v: v.pipe(v.string(), v.regex(regex)) }), v.object({ k: v.literal('b'), v: v.number() })])
      return { input: toStandardJsonSchema(input), accepts: value => v.safeParse(input, value).success }
    }],
    ['arktype', (regex) => {
      const input = type({ k: '\'a\'', v: regex }).or({ k: '\'b\'', v: 'number' })
      return { input, accepts: value => !((input as unknown as (v: unknown) => unknown)(value) instanceof type.errors) }
    }],
  ]
  it.each(libraries)('%s: values the library accepts pass the flat schema under every validator', (_name, make) => {
    let checked = 0
    fc.assert(fc.property(compilable, fc.array(text, { minLength: 6, maxLength: 6 }), ([source, flagList], strings) => {
      const { input, accepts } = make(new RegExp(source, flagList))
      const advertised = compileTool({ name: 'generated', input }).inputSchema
      for (const v of strings) {
        const value = { k: 'a', v }
        if (!accepts(value))
          continue
        checked++
        const rejecting = rejectedBy(advertised, value)
        if (rejecting.length > 0)
          throw new Error(`/${source}/${flagList}: ${JSON.stringify(v)} rejected by ${rejecting.join(', ')} under ${JSON.stringify(advertised.properties)}`)
      }
    }), { numRuns: RUNS, seed: SEED })
    expect(checked).toBeGreaterThan(RUNS / 2)
    // A longer run (FLATMCP_PROPERTY_RUNS=20000) takes minutes: the limit grows with it.
  }, Math.max(120_000, RUNS * 60))
})
