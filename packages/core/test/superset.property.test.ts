// The superset invariant, by property: for generated schemas (unions at any depth, collisions on
// purpose, regex flags, formats, fractional multipleOf, astral strings) and generated values the
// zod schema accepts, the flat schema accepts them too under every validator clients run, and the
// portable output has no combinator. FLATMCP_PROPERTY_RUNS raises the schema count.
import type { JsonSchema } from '@flatmcp/core'
import { compileTool, flattenSchema, resolvePointer, toOriginalSchema } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { cases, RUNS, SEED, toZod } from '../../../test/support/schema-arbitrary'
import { SLOW } from '../../../test/support/timeouts'
import { rejectedBy, validatorsOf } from '../../../test/support/validators'
import { accepts, ajvDraft7, portableViolations } from './support'

// A bound on hangs, not on speed (test/support/timeouts.ts), grown with a longer run (FLATMCP_PROPERTY_RUNS=20000).
const TIMEOUT = Math.max(SLOW, RUNS * 900)

describe('superset invariant (property)', () => {
  it(`holds for ${RUNS} generated schemas and their valid values`, () => {
    let checkedValues = 0
    fc.assert(fc.property(cases, ([s, values]) => {
      const schema = toZod(s)
      const typed = toZod(s, true)
      const compiled = compileTool({ name: 'generated', input: schema })
      const advertised = compiled.inputSchema
      expect(portableViolations(advertised)).toEqual([])
      expect(ajvDraft7.validateSchema(advertised)).toBe(true)
      // Every diagnostic points into the original schema, and, where it gives one, into the flat one.
      const original = toOriginalSchema(schema).schema
      for (const d of compiled.diagnostics) {
        if (resolvePointer(original, d.path) === undefined)
          throw new Error(`diagnostic path ${d.path} does not resolve in the original: ${JSON.stringify(original)}`)
        if (d.flatPath !== undefined && resolvePointer(advertised, d.flatPath) === undefined)
          throw new Error(`diagnostic flatPath ${d.flatPath} does not resolve in the flat schema`)
      }
      for (const raw of values) {
        const value = JSON.parse(JSON.stringify(raw)) as unknown
        if (!typed.safeParse(value).success)
          continue
        checkedValues++
        const rejecting = rejectedBy(advertised, value)
        if (rejecting.length > 0)
          throw new Error(`flat schema rejects a value zod accepts (${rejecting.join(', ')}):\nvalue: ${JSON.stringify(value)}\nflat: ${JSON.stringify(advertised)}`)
      }
    }), { numRuns: RUNS, seed: SEED })
    // Most generated values must really reach the check, or the property says little.
    expect(checkedValues).toBeGreaterThan(RUNS * 2)
  }, TIMEOUT)

  it('outputs keep it too: what the original parses a value to, sent as the server sends it (wrapped as { result } where the root is no object), passes the advertised output schema', () => {
    let checked = 0
    let wrapped = 0
    fc.assert(fc.property(cases, fc.boolean(), ([s, values], asArray) => {
      const typed = asArray ? z.array(toZod(s, true)) : toZod(s, true)
      let compiled
      try {
        compiled = compileTool({ name: 'generated', input: z.object({}), output: asArray ? z.array(toZod(s)) : toZod(s) })
      }
      catch {
        return // an output whose JSON the library cannot write (a transform): nothing is advertised
      }
      const advertised = compiled.outputSchema!
      // The library's own output JSON: an output it rejects (a default written in the input's type,
      // `z.stringbool().default("true")`) is the library's mismatch, which no advertised schema owes.
      const own = toOriginalSchema(asArray ? z.array(toZod(s)) : toZod(s), 'output').schema
      expect(advertised.type).toBe('object')
      expect(Object.keys(advertised).filter(key => ['anyOf', 'oneOf', 'allOf', '$schema'].includes(key))).toEqual([])
      if (compiled.outputWrap)
        wrapped++
      for (const raw of values) {
        const parsed = typed.safeParse(JSON.parse(JSON.stringify(asArray ? [raw] : raw)))
        if (!parsed.success)
          continue
        const output = JSON.parse(JSON.stringify(parsed.data)) as unknown
        if (validatorsOf(own)?.(output).length !== 0)
          continue
        const sent = compiled.outputWrap ? { [compiled.outputWrap]: output } : output
        checked++
        const rejecting = rejectedBy(advertised, sent)
        if (rejecting.length > 0)
          throw new Error(`output schema rejects an output zod gives (${rejecting.join(', ')}):\nsent: ${JSON.stringify(sent)}\nschema: ${JSON.stringify(advertised)}`)
      }
    }), { numRuns: Math.ceil(RUNS / 4), seed: SEED })
    expect(checked).toBeGreaterThan(RUNS / 4)
    expect(wrapped).toBeGreaterThan(RUNS / 32)
  }, TIMEOUT)

  it('an upstream\'s output schema (JSON Schema as data, draft-07 tagged, `$defs` as `definitions`, any root), as the proxy compiles it: every output it accepts under a validator, wrapped where the root is no object, passes the advertised output under every validator', () => {
    let checked = 0
    let wrapped = 0
    fc.assert(fc.property(cases, fc.boolean(), ([s, values], asArray) => {
      let original
      try {
        original = toOriginalSchema(asArray ? z.array(toZod(s)) : toZod(s), 'output').schema
      }
      catch {
        return // an output whose JSON the library cannot write (a transform)
      }
      const { $schema: _tag, ...own } = original
      const underOwn = validatorsOf(own)
      if (!underOwn)
        return
      // As servers outside TypeScript list it: a draft-07 tag, definitions under the older keyword.
      const listed = JSON.parse(JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...own }).replaceAll('"$defs"', '"definitions"').replaceAll('#/$defs/', '#/definitions/')) as Record<string, unknown>
      const compiled = compileTool({ name: 'upstream', input: { type: 'object' }, output: listed })
      const advertised = compiled.outputSchema!
      expect(advertised.type).toBe('object')
      expect(JSON.stringify(advertised)).not.toMatch(/"(anyOf|oneOf|allOf|\$schema|\$ref|\$defs|definitions)"/)
      if (compiled.outputWrap)
        wrapped++
      for (const raw of values) {
        const output = JSON.parse(JSON.stringify(asArray ? [raw] : raw)) as unknown
        const rejected = new Set(underOwn(output))
        const sent = compiled.outputWrap ? { [compiled.outputWrap]: output } : output
        const lost = rejectedBy(advertised, sent).filter(name => !rejected.has(name))
        checked += 4 - rejected.size
        if (lost.length > 0)
          throw new Error(`advertised output rejects under ${lost.join(', ')} an output the upstream's schema accepts there:\nsent: ${JSON.stringify(sent)}\nlisted: ${JSON.stringify(listed)}\nadvertised: ${JSON.stringify(advertised)}`)
      }
    }), { numRuns: Math.ceil(RUNS / 4), seed: SEED })
    expect(checked).toBeGreaterThan(RUNS / 4)
    expect(wrapped).toBeGreaterThan(RUNS / 32)
  }, TIMEOUT)

  it('the minimal profile keeps the invariant too', () => {
    fc.assert(fc.property(cases, ([s, values]) => {
      const typed = toZod(s, true)
      const advertised = compileTool({ name: 'generated', input: toZod(s) }, { profile: 'minimal' }).inputSchema
      for (const raw of values) {
        const value = JSON.parse(JSON.stringify(raw)) as unknown
        const rejecting = typed.safeParse(value).success ? rejectedBy(advertised, value) : []
        if (rejecting.length > 0)
          throw new Error(`minimal profile rejects ${JSON.stringify(value)} (${rejecting.join(', ')}) under ${JSON.stringify(advertised)}`)
      }
    }), { numRuns: Math.ceil(RUNS / 4), seed: SEED })
  }, TIMEOUT)

  it('a raw JSON Schema keeps the invariant with validators as its parser: what each accepts under the original it accepts under the flat one', () => {
    let checked = 0
    let schemas = 0
    fc.assert(fc.property(cases, ([s, values]) => {
      // Without zod's $schema tag, which draft-07 validators do not know.
      const { $schema: _tag, ...original } = toOriginalSchema(toZod(s)).schema
      const underOriginal = validatorsOf(original)
      if (!underOriginal)
        return
      schemas++
      const flat = flattenSchema(original).schema
      for (const raw of values) {
        const value = JSON.parse(JSON.stringify(raw)) as unknown
        const rejected = new Set(underOriginal(value))
        const lost = rejectedBy(flat, value).filter(name => !rejected.has(name))
        checked += 4 - rejected.size
        if (lost.length > 0)
          throw new Error(`flat schema rejects under ${lost.join(', ')} a value the original accepts there:\nvalue: ${JSON.stringify(value)}\noriginal: ${JSON.stringify(original)}\nflat: ${JSON.stringify(flat)}`)
      }
    }), { numRuns: Math.ceil(RUNS / 4), seed: SEED })
    // About half the generated schemas compile under every validator (zod writes some patterns in
    // legacy syntax); a quarter is the floor that still says something, with room for a seed's luck.
    expect(schemas).toBeGreaterThan(RUNS / 16)
    expect(checked).toBeGreaterThan(RUNS / 2)
  }, TIMEOUT)

  it('catches an unsound flattener: a first-wins merge fails the same property', () => {
    // The classic hand-written flattener: the first variant's schema for a key wins.
    const firstWins = (schema: JsonSchema): JsonSchema => {
      const union = (schema as { oneOf?: Record<string, any>[] }).oneOf
      if (!union)
        return schema
      const properties: Record<string, unknown> = {}
      for (const variant of union) {
        for (const [key, value] of Object.entries(variant.properties ?? {}))
          properties[key] ??= value
      }
      return { type: 'object', properties }
    }
    const media = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('message'), media: z.object({ id: z.string() }) }),
      z.object({ kind: z.literal('mediaGroup'), media: z.array(z.object({ id: z.string() })) }),
    ])
    const naive = firstWins(toOriginalSchema(media).schema)
    const found = fc.check(fc.property(fc.oneof(
      fc.record({ kind: fc.constant('message'), media: fc.record({ id: fc.string() }) }),
      fc.record({ kind: fc.constant('mediaGroup'), media: fc.array(fc.record({ id: fc.string() })) }),
    ), value => !media.safeParse(value).success || accepts(naive, value)))
    expect(found.failed).toBe(true)
  })
})
