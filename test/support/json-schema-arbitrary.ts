// Generated JSON Schemas as upstreams write them: `patternProperties`, open and closed objects,
// `enum`s and `const`s of arrays and objects, boolean subschemas, `dependentSchemas`,
// `unevaluated*`, tuples, untyped bounds, titles, unions, `oneOf`, nodes of several kinds, arrays without `items`,
// `properties` without a type (`jsonSchema`); and the same with what older
// generators and hand-written servers leave in them (`upstreamSchema`): `$id` and `$schema` at any
// node, `required: null`, draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` beside their bounds.
import fc from 'fast-check'

const leaf = fc.constantFrom<unknown>({ type: 'string' }, { type: 'integer' }, { type: 'boolean' }, { type: ['string', 'null'] }, true, false, {})
const literal = fc.constantFrom<unknown>([false], [0], { a: 1 }, [], 'x', 1, null)

export const jsonSchema = fc.letrec<{ node: unknown }>(tie => ({
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

type Node = Record<string, unknown>

/** What an older or hand-written upstream adds to a node, one choice each (0: nothing). */
const NOISE: ((node: Node) => void)[] = [
  () => {},
  (node) => { node.$id = 'urn:example:tool' },
  (node) => { node.$schema = 'http://json-schema.org/draft-04/schema#' },
  (node) => { node.required = null },
  (node) => { node.minimum = 0; node.exclusiveMinimum = true },
  (node) => { node.maximum = 9; node.exclusiveMaximum = true },
  (node) => { node.exclusiveMinimum = false },
  (node) => { node.$schema = 'https://json-schema.org/draft/2020-12/schema'; node.required = null },
]

const MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs'])
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'unevaluatedProperties', 'prefixItems', 'anyOf', 'oneOf'])

/** Each schema object of a schema, the root first. */
function objectNodes(schema: unknown, found: Node[] = []): Node[] {
  if (Array.isArray(schema))
    schema.forEach(item => objectNodes(item, found))
  else if (typeof schema === 'object' && schema !== null) {
    found.push(schema as Node)
    for (const [keyword, child] of Object.entries(schema)) {
      if (MAPS.has(keyword) && typeof child === 'object' && child !== null)
        Object.values(child).forEach(value => objectNodes(value, found))
      else if (SUBSCHEMAS.has(keyword))
        objectNodes(child, found)
    }
  }
  return found
}

/** A generated schema with upstream noise at its nodes, as a tool's input schema (an object root). */
export const upstreamSchema = fc.tuple(jsonSchema, fc.array(fc.nat(NOISE.length - 1), { minLength: 8, maxLength: 8 })).map(([node, choices]) => {
  const root: Node = { type: 'object', properties: { v: structuredClone(node) }, required: ['v'] }
  objectNodes(root).forEach((place, i) => NOISE[choices[i % choices.length]!]!(place))
  return root
})
