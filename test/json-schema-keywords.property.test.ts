// The keywords a strict profile cannot say, by property: generated JSON Schemas (the json-schema
// preset, whose parser is a validator) that use `patternProperties`, open and closed objects,
// `enum`s and `const`s of arrays and objects, boolean subschemas, `false` properties,
// `dependentSchemas`, `unevaluatedProperties` and `unevaluatedItems`, tuples, untyped bounds (a place of
// any kind whose numbers are bounded), titles, `oneOf`, a node of several kinds, an array without
// `items` and `properties` without a type; every value the validators accept (sampled from the
// schema and from its flat form) has a form in every profile that passes the flat schema and maps
// back to itself. A profile may widen or serve portable; it may never leave a valid value no form.
// And gemini's list keeps the node rules of Gemini's OpenAPI `parameters` route.
import { compileTool, profileViolations } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonSchema as schema } from './support/json-schema-arbitrary'
import { asTool, PROFILES, sampled, unsoundData } from './support/json-schema-soundness'
import { RUNS, SEED } from './support/schema-arbitrary'

describe('JSON Schema keywords a strict profile cannot say (property)', () => {
  it(`every valid value of ${RUNS} generated schemas has a form in every profile`, () => {
    let judged = 0
    fc.assert(fc.property(schema, fc.integer({ min: 1, max: 2 ** 30 }), (generated, seed) => {
      const tool = asTool(generated, false)!
      const data = sampled(tool, 'json-schema', seed, 24)
      judged += data.length
      const found = unsoundData([{ where: JSON.stringify(generated), tool, preset: 'json-schema', data }])
      expect(found).toEqual(Object.fromEntries(PROFILES.map(profile => [profile, []])))
      // gemini's list keeps the OpenAPI route's node rules: anyOf alone in its node, properties and
      // required on objects only, items on every array, never a node without a type.
      expect(profileViolations(compileTool({ name: 't', input: tool }, { profile: 'gemini', preset: 'json-schema' }).inputSchema, 'gemini')).toEqual([])
    }), { numRuns: RUNS, seed: SEED })
    // The sampler meets most schemas: the property judges real values, not none.
    expect(judged).toBeGreaterThan(RUNS * 4)
  }, 600_000)
})
