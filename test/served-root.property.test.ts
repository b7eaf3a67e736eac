// No tool can cost a client the rest of the list (issue 67): generated upstream schemas with the
// shapes servers write and clients refuse (a root union of type-less objects, a root `allOf`, `if` /
// `then`, `not`, `required: null`, draft-04 boolean exclusives, `$id` and `$schema` inside), at the
// root and nested, compiled as the proxy compiles them, in every profile: each served form has an
// object root with no combinator or condition, no `required: null` or boolean exclusive anywhere,
// and passes the 2020-12 meta-schema; a root union's flat form takes every value the original takes.
import type { UpstreamTool } from '../packages/runtime/src/artifact/format'
import * as compiler from '@flatmcp/core'
import { Ajv2020 } from 'ajv/dist/2020'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { refusedInputRoot } from '../packages/runtime/src/artifact/tool-shape'
import { compileUpstreamTool, servedAsIs } from '../packages/runtime/src/proxy/compile/compile-upstream'
import { isServed, refusedAsListed } from '../packages/runtime/src/proxy/compile/fallbacks'
import { fallbacksOf } from '../packages/runtime/src/proxy/compile/fallbacks'
import { RUNS, SEED } from './support/schema-arbitrary'
import { rejectedBy } from './support/validators'

// The built-in profiles, and one a user composes (no rules of its own over portable). `portable` is
// the base form every compile writes, so it is not asked for.
const PROFILES = [...compiler.PROFILE_NAMES.filter(name => name !== 'portable'), { name: 'composed', rules: [] }]
const ajv = new Ajv2020({ strict: false })

/**
 * Where a served form breaks the guarantee (empty when it holds): its root, as the probe says it, and
 * the 2020-12 meta-schema, which also refuses a `required: null` or a boolean bound at any depth.
 */
function broken(schema: unknown): string[] {
  const root = refusedInputRoot(schema)
  return [...(root === undefined ? [] : [`/: ${root}`]), ...(ajv.validateSchema(schema as object) ? [] : [`/: not valid 2020-12 (${ajv.errorsText(ajv.errors)})`])]
}

const leaf = fc.constantFrom<unknown>(
  { type: 'string' },
  { type: 'number', minimum: 1, exclusiveMinimum: true },
  { type: 'integer', maximum: 9, exclusiveMaximum: false },
  { $id: 'urn:leaf', $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'boolean' },
  {},
)
const hostileObject = (node: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> => fc.record({
  type: fc.constant('object'),
  properties: fc.dictionary(fc.constantFrom('a', 'b', 'kind'), node, { maxKeys: 3 }),
  required: fc.oneof(fc.constant(null), fc.subarray(['a', 'b'])),
  if: fc.constant({ properties: { kind: { const: 'x' } } }),
  then: fc.constant({ required: ['a'] }),
  not: fc.constant({ required: ['zz'] }),
  $id: fc.constant('urn:object'),
}, { requiredKeys: ['properties'] })
const nested = fc.letrec<{ node: unknown }>(tie => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, hostileObject(tie('node')), fc.record({ anyOf: fc.array(hostileObject(leaf), { minLength: 2, maxLength: 2 }) })),
})).node
/** A root as servers write it: a union of objects with or without `type`, an intersection, a condition. */
const hostileRoot = fc.oneof(
  hostileObject(nested),
  fc.record({ anyOf: fc.array(hostileObject(nested), { minLength: 2, maxLength: 3 }) }),
  fc.record({ oneOf: fc.array(hostileObject(nested), { minLength: 2, maxLength: 2 }) }),
  fc.record({ allOf: fc.array(hostileObject(nested), { minLength: 2, maxLength: 2 }) }),
  fc.record({ $schema: fc.constant('http://json-schema.org/draft-04/schema#'), properties: fc.dictionary(fc.constantFrom('a', 'b'), nested, { maxKeys: 2 }) }),
) as fc.Arbitrary<Record<string, unknown>>
/** The same roots with every branch's `type` left out, the shape that makes Claude Code drop a whole server. */
const typeless = hostileRoot.map(schema => ({ ...schema, ...(['anyOf', 'oneOf', 'allOf'].flatMap(k => Array.isArray(schema[k]) ? [[k, (schema[k] as Record<string, unknown>[]).map(({ type: _type, ...branch }) => branch)]] : []).reduce((all, [k, v]) => ({ ...all, [k as string]: v }), {})) }))

/** A node's draft-04 boolean exclusives as their server means them (`minimum: 1, exclusiveMinimum: true` is `exclusiveMinimum: 1`). */
function draft04(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return value
  const node = { ...value } as Record<string, unknown>
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof node[exclusive] !== 'boolean')
      continue
    if (node[exclusive] === true && typeof node[bound] === 'number')
      [node[exclusive], node[bound]] = [node[bound], undefined]
    else
      delete node[exclusive]
  }
  return node
}

function compiled(tool: UpstreamTool) {
  return compileUpstreamTool(compiler, tool, 'json-schema', { profiles: PROFILES as never, maxSchemaBytes: 256 * 1024 })
}

/** Every form a client is served of one upstream tool (none when it is left out). */
function servedForms(tool: UpstreamTool): { profile: string, schema: unknown }[] {
  const result = compiled(tool)
  if (result.served === 'as-is')
    return refusedAsListed(result) === undefined ? [{ profile: 'as listed', schema: result.precomputed.tool.inputSchema }] : []
  return [{ profile: 'portable', schema: result.precomputed.tool.inputSchema }, ...Object.entries(result.precomputed.profiles ?? {}).map(([profile, form]) => ({ profile, schema: form.inputSchema }))]
}

describe('every served tool has an object root a client takes, in every profile (property)', () => {
  it(`${RUNS} generated hostile upstream schemas`, () => {
    let served = 0
    fc.assert(fc.property(fc.oneof(hostileRoot, typeless), (inputSchema) => {
      const forms = servedForms({ name: 't', inputSchema } as UpstreamTool)
      served += forms.length === 0 ? 0 : 1
      const wrong = forms.flatMap(form => broken(form.schema).map(line => `${form.profile}: ${line}`))
      expect(wrong, JSON.stringify(inputSchema)).toEqual([])
    }), { numRuns: RUNS, seed: SEED })
    // Every such root is read, none left out.
    expect(served).toBe(RUNS)
  }, 600_000)

  it('a root union\'s flat form takes every value the original takes (values the original\'s validator accepts)', () => {
    const values = [{}, { a: 'x' }, { b: 2 }, { a: 'x', b: 'y' }, { kind: 'x', a: 1 }, { kind: 'x' }, { a: true, b: null }, { zz: 1 }]
    fc.assert(fc.property(fc.oneof(hostileRoot, typeless), (inputSchema) => {
      const result = compiled({ name: 't', inputSchema } as UpstreamTool)
      expect(result.served, result.reason).toBe('compiled')
      // Judged where the original is one a validator compiles (without the draft-04 and null keywords it refuses).
      const original = JSON.parse(JSON.stringify(inputSchema, (key, value: unknown) => (key === 'required' && value === null) || key === '$schema' ? undefined : draft04(value))) as object
      for (const value of values) {
        let accepted: boolean
        try {
          accepted = rejectedBy(original, value).length === 0
        }
        catch {
          return
        }
        if (accepted)
          expect(rejectedBy(result.precomputed.tool.inputSchema, value), `${JSON.stringify(inputSchema)} ${JSON.stringify(value)}`).toEqual([])
      }
    }), { numRuns: Math.min(RUNS, 300), seed: SEED })
  }, 600_000)

  it('the recorded upstream list: every tool served, each form whole', () => {
    const tools = JSON.parse(readFileSync(new URL('golden/proxied/tools.json', import.meta.url), 'utf8')) as UpstreamTool[]
    for (const tool of tools) {
      const forms = servedForms(tool)
      expect(forms.length, tool.name).toBeGreaterThan(1)
      expect(forms.flatMap(form => broken(form.schema).map(line => `${tool.name} ${form.profile}: ${line}`))).toEqual([])
    }
  })

  it('what the probe says of a form a client refuses at its root, and that the meta-schema refuses below it', () => {
    expect(refusedInputRoot({ anyOf: [{ type: 'object' }] })).toBe('its inputSchema is not an object schema ({ "type": "object", … })')
    expect(refusedInputRoot({ type: 'object', allOf: [] })).toBe('its inputSchema has "allOf" at the root')
    const below = { type: 'object', properties: { n: { type: 'number', minimum: 1, exclusiveMinimum: true }, o: { type: 'object', required: null } } }
    expect(refusedInputRoot(below)).toBeUndefined()
    expect(broken(below)).toHaveLength(1)
  })

  it('a root union\'s branch that is a $ref, a union or true, saying no type, is read for objects too: the tool is served, and takes what it took', () => {
    // Such a branch was passed over, so the union kept no object root and the tool was left out.
    const schemas = [
      { anyOf: [{ $ref: '#/$defs/a' }, { properties: { b: { type: 'string' } }, required: ['b'] }], $defs: { a: { properties: { a: { type: 'string' } }, required: ['a'] } } },
      { oneOf: [{ anyOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'string' } }, required: ['b'] }] }, { properties: { c: { type: 'number' } }, required: ['c'] }] },
      { anyOf: [true, { properties: { a: { type: 'string' } }, required: ['a'] }] },
    ]
    for (const inputSchema of schemas) {
      const result = compiled({ name: 't', inputSchema } as never)
      expect(result.served, JSON.stringify(inputSchema)).toBe('compiled')
      expect(servedForms({ name: 't', inputSchema } as never).flatMap(form => broken(form.schema))).toEqual([])
      for (const value of [{ a: 'x' }, { b: 'y' }, { c: 1 }, { z: null }].filter(value => rejectedBy(inputSchema, value).length === 0))
        expect(rejectedBy(result.precomputed.tool.inputSchema, value), JSON.stringify(value)).toEqual([])
    }
  })

  it('a schema that takes no object is left out, never passed through', () => {
    expect(servedForms({ name: 't', inputSchema: { type: 'array' } } as never)).toEqual([])
    expect(servedForms({ name: 't', inputSchema: { type: 'string', anyOf: [{ minLength: 1 }] } } as never)).toEqual([])
  })

  // The paths that serve a tool without compiling it: over the size limit, past the compile time or
  // memory, the compiler thread failing on it, a definition nested too deep. Each goes through `servedAsIs`.
  it('a tool served without compiling meets the same guarantee, or is left out (property)', () => {
    let kept = 0
    fc.assert(fc.property(fc.oneof(hostileRoot, typeless, hostileObject(nested)), (inputSchema) => {
      const result = servedAsIs({ name: 't', inputSchema } as UpstreamTool, 'compiling it took longer than 10 ms')
      if (!isServed(result))
        return
      kept++
      expect(broken(result.precomputed.tool.inputSchema), JSON.stringify(inputSchema)).toEqual([])
    }), { numRuns: RUNS, seed: SEED })
    // Roots of one object (a third of them, and those of the typeless arm) are repaired, not left out.
    expect(kept).toBeGreaterThan(RUNS / 4)
  })

  it('over the size limit: nested draft-04 forms read as 2020-12, a root union left out, --on-invalid drop leaves all out', () => {
    const big = 'x'.repeat(300)
    const nestedLegacy = { type: 'object', description: big, properties: { n: { type: 'number', minimum: 1, exclusiveMinimum: true }, o: { type: 'object', required: null }, t: { type: 'array', items: [{ type: 'string' }], additionalItems: false } } }
    const small = { profiles: PROFILES as never, maxSchemaBytes: 200 }
    const listed = compileUpstreamTool(compiler, { name: 't', inputSchema: nestedLegacy } as never, 'json-schema', small)
    expect([listed.served, isServed(listed), isServed(listed, 'drop')]).toEqual(['as-is', true, false])
    expect(broken(listed.precomputed.tool.inputSchema)).toEqual([])
    expect((listed.precomputed.tool.inputSchema as unknown as { properties: Record<string, unknown> }).properties).toEqual({ n: { type: 'number', exclusiveMinimum: 1 }, o: { type: 'object' }, t: { type: 'array', prefixItems: [{ type: 'string' }], items: false } })
    const union = compileUpstreamTool(compiler, { name: 'u', inputSchema: { description: big, anyOf: [{ properties: { a: {} } }, { properties: { b: {} } }] } } as never, 'json-schema', small)
    expect([union.served, isServed(union), refusedAsListed(union)]).toEqual(['as-is', false, 'its inputSchema has "anyOf" at the root, which only compiling flattens'])
    expect(fallbacksLine(union)).toMatch(/^left out: its input schema is 1 KiB/)
  })

  it('without compiling, what no bounded repair makes whole is left out: a keyword of the wrong kind, too many nodes', () => {
    expect(compiler.listedForm({ type: 'object', properties: { a: { type: 'text' } } })).toEqual({ refused: 'its inputSchema\'s "type" at /properties/a names no JSON type' })
    expect(compiler.listedForm({ type: 'object', properties: { a: { minLength: -1 } } })).toEqual({ refused: 'its inputSchema\'s "minLength" at /properties/a is not a count' })
    expect(compiler.listedForm({ properties: { a: {}, b: {} } }, 2)).toEqual({ refused: 'its inputSchema has more than 2 schemas to check' })
    expect(compiler.listedForm({ properties: { a: {}, b: {} } }, 3)).toEqual({ schema: { type: 'object', properties: { a: {}, b: {} } }, read: 0 })
    // A key named like an object's prototype stays a key.
    const proto = compiler.listedForm(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'))
    expect(Object.keys((proto as unknown as { schema: { properties: object } }).schema.properties)).toEqual(['__proto__'])
  })
})

function fallbacksLine(tool: Parameters<typeof fallbacksOf>[0]): string {
  return fallbacksOf(tool).join('\n')
}
