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
import { asTool, PROFILES, sampled, unsoundData } from './support/json-schema-soundness'
import { RUNS, SEED } from './support/schema-arbitrary'

const leaf = fc.constantFrom<unknown>({ type: 'string' }, { type: 'integer' }, { type: 'boolean' }, { type: ['string', 'null'] }, true, false, {})
const literal = fc.constantFrom<unknown>([false], [0], { a: 1 }, [], 'x', 1, null)

const schema = fc.letrec<{ node: unknown }>(tie => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ enum: fc.uniqueArray(literal, { minLength: 1, maxLength: 3, selector: value => JSON.stringify(value) }) }),
    fc.record({ const: literal }),
    fc.record({
      type: fc.constant('object'),
      properties: fc.dictionary(fc.constantFrom('a', 'b', 'v1', 'toString', 'x0'), tie('node'), { maxKeys: 3 }),
      patternProperties: fc.dictionary(fc.constantFrom('^v', '^x[0-9]$'), tie('node'), { maxKeys: 2 }),
      additionalProperties: fc.oneof(fc.constant(false), fc.constant(true), tie('node')),
      dependentSchemas: fc.dictionary(fc.constantFrom('a', 'b'), tie('node'), { maxKeys: 1 }),
      unevaluatedProperties: fc.oneof(fc.constant(false), tie('node')),
      required: fc.subarray(['a', 'b']),
    }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constant('array'), items: tie('node'), minItems: fc.constantFrom(0, 1) }, { requiredKeys: ['type'] }),
    fc.record({
      type: fc.constant('array'),
      prefixItems: fc.array(tie('node'), { minLength: 1, maxLength: 2 }),
      items: fc.oneof(fc.constant(false), tie('node')),
      unevaluatedItems: fc.constant(false),
    }, { requiredKeys: ['type', 'prefixItems'] }),
    fc.record({ maximum: fc.constantFrom(3, 0.5), minimum: fc.constantFrom(-2, 1), multipleOf: fc.constant(1), maxLength: fc.constant(2) }, { requiredKeys: ['maximum'] }),
    fc.record({ title: fc.constantFrom('MySchema', 'Foo Property', 'v'), type: fc.constantFrom('string', 'number'), maximum: fc.constant(3) }, { requiredKeys: ['title', 'type'] }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    // The shapes a conversion to Gemini's OpenAPI nodes trips on: a union of kinds in one node, `oneOf`,
    // an array without `items`, `properties` and `required` on a node of no type.
    fc.record({ oneOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
    fc.record({
      type: fc.constantFrom(['object', 'array'], ['object', 'null'], ['array', 'string', 'null']),
      properties: fc.dictionary(fc.constantFrom('a', 'b'), tie('node'), { maxKeys: 2 }),
      items: tie('node'),
    }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constant('array'), maxItems: fc.constantFrom(2, 5) }, { requiredKeys: ['type'] }),
    fc.record({ properties: fc.dictionary(fc.constantFrom('a', 'b'), tie('node'), { minKeys: 1, maxKeys: 2 }), required: fc.subarray(['a', 'b']) }, { requiredKeys: ['properties'] }),
  ),
})).node

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
