// valibot by property: generated schemas built with valibot's constructs, plain and wrapped by
// toStandardJsonSchema, keep the superset invariant. Case by case: valibot.test.ts.
import type { SchemaConverters } from '@flatmcp/core'
import { compileTool } from '@flatmcp/core'
import { toJsonSchema, toStandardJsonSchema } from '@valibot/to-json-schema'
import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { cases, RUNS, SEED } from '../../../test/support/schema-arbitrary'
import { toValibot } from '../../../test/support/valibot-twin'
import { rejectedBy } from '../../../test/support/validators'

const converters: SchemaConverters = { valibotToJsonSchema: toJsonSchema as SchemaConverters['valibotToJsonSchema'] }

function advertised(input: v.GenericSchema, how: 'plain' | 'wrapped', extra: Partial<SchemaConverters> = {}): Record<string, unknown> {
  const schema = how === 'plain' ? input : toStandardJsonSchema(input)
  return compileTool({ name: 'vb', input: schema }, { converters: { ...converters, ...extra } }).inputSchema
}

describe('valibot (property)', () => {
  it(`superset by property: ${Math.ceil(RUNS / 4)} generated schemas built with valibot's constructs, plain and wrapped`, () => {
    let checked = 0
    fc.assert(fc.property(cases, fc.boolean(), ([s, values], wrapped) => {
      const schema = toValibot(s)
      // Objects valibot strips are strict in the twin that filters values (see toZod).
      const typed = toValibot(s, true)
      const flat = advertised(schema, wrapped ? 'wrapped' : 'plain')
      for (const raw of values) {
        const value = JSON.parse(JSON.stringify(raw)) as unknown
        if (!v.safeParse(typed, value).success)
          continue
        checked++
        const rejecting = rejectedBy(flat, value)
        if (rejecting.length > 0)
          throw new Error(`flat schema rejects a value valibot accepts (${rejecting.join(', ')}):\nvalue: ${JSON.stringify(value)}\nflat: ${JSON.stringify(flat)}`)
      }
    }), { numRuns: Math.ceil(RUNS / 4), seed: SEED })
    expect(checked).toBeGreaterThan(RUNS / 2)
  }, Math.max(120_000, RUNS * 120))
})
