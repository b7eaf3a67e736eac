// Shared definitions by property: `withSharedDefinitions` means exactly what the inline schema means
// (every validator agrees on every generated value), and a `$ref` a profile writes stands beside nothing
// but description and default. Case by case: repeated-shapes.test.ts.
import { compileTool, PROFILE_NAMES, withoutSharedDefinitions } from '@flatmcp/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { withSharedDefinitions } from '../src/profiles/shared-definitions'
import { cases, RUNS, SEED, toZod } from '../../../test/support/schema-arbitrary'
import { SLOW } from '../../../test/support/timeouts'
import { rejectedBy } from '../../../test/support/validators'
import { graphInput } from './graph-input'

describe('withSharedDefinitions (property)', () => {
  it('means what the inline schema means: expanded back it is the same, and every validator agrees on every value', () => {
    let shared = 0
    fc.assert(fc.property(cases, ([s, values]) => {
      const inline = compileTool({ name: 'generated', input: toZod(s) }).inputSchema
      const out = withSharedDefinitions(inline)
      expect(withoutSharedDefinitions(out)).toEqual(inline)
      expect(JSON.stringify(out).length).toBeLessThanOrEqual(JSON.stringify(inline).length)
      if (out === inline)
        return
      shared++
      // Definitions live at the root alone; a definition refers only to ones made before it (no cycle).
      const defs = out.$defs as Record<string, unknown>
      Object.values(defs).forEach(def => expect(JSON.stringify(def)).not.toContain('"$defs"'))
      for (const raw of values) {
        const value = JSON.parse(JSON.stringify(raw)) as unknown
        expect(rejectedBy(out, value)).toEqual(rejectedBy(inline, value))
      }
    }), { numRuns: Math.ceil(RUNS / 4), seed: SEED })
    expect(shared).toBeGreaterThan(0)
  }, SLOW)
})

/** Every `$ref` in a schema that stands beside a keyword other than `description` and `default` (Gemini's `parametersJsonSchema` refuses those; Kimi refuses any). */
function crowdedRefs(schema: unknown, at = ''): string[] {
  if (typeof schema !== 'object' || schema === null)
    return []
  const here = !Array.isArray(schema) && typeof (schema as Record<string, unknown>).$ref === 'string' && Object.keys(schema).some(key => !['$ref', 'description', 'default'].includes(key)) ? [at || '/'] : []
  return [...here, ...Object.entries(schema).flatMap(([key, child]) => crowdedRefs(child, `${at}/${key}`))]
}

describe('a $ref a profile writes (property)', () => {
  it('stands beside nothing but description and default, in every profile that writes one, for generated and crowded originals', () => {
    // The original's own `$ref`s with siblings: `minimal` keeps them as written (it promises no shape); the others write them out.
    const crowded = { type: 'object', properties: { a: { $ref: '#/$defs/box', type: 'object', minProperties: 1, description: 'A box.' }, b: { $ref: '#/$defs/box', title: 'B' } }, $defs: { box: { type: 'object', properties: { width: { type: 'number', description: 'The width, in centimetres.' }, height: { type: 'number' } }, required: ['width'] } } }
    const writing = PROFILE_NAMES.filter(profile => profile !== 'minimal')
    for (const profile of writing) {
      expect(crowdedRefs(compileTool({ name: 'crowded', input: crowded }, { profile }).inputSchema)).toEqual([])
      expect(crowdedRefs(compileTool({ name: 'create-folder', input: graphInput }, { profile }).inputSchema)).toEqual([])
    }
    let refs = 0
    fc.assert(fc.property(cases, ([s]) => {
      for (const profile of writing) {
        const schema = compileTool({ name: 'generated', input: toZod(s) }, { profile }).inputSchema
        refs += JSON.stringify(schema).includes('"$ref"') ? 1 : 0
        expect(crowdedRefs(schema)).toEqual([])
      }
    }), { numRuns: Math.ceil(RUNS / 25), seed: SEED })
    // The generator makes shapes the strict profiles share: the property meets real `$ref`s.
    expect(refs).toBeGreaterThan(0)
  }, SLOW)
})
