// A shape the original says once and uses by `$ref` in many places: no profile lists it larger than
// the original. The strict profiles keep it once in `$defs` (their vendors' own converters take the
// result unchanged); `portable`, which says no `$ref`, keeps its keys at the first place and lists
// the other copies by kind with a note. By property: sharing means exactly what the inline schema
// means, under every validator.
import type { JsonSchemaObject } from '@flatmcp/core'
import { compileTool, modelAnswer, PROFILE_NAMES, withoutSharedDefinitions } from '@flatmcp/core'
import { inverseArgs } from '@flatmcp/runtime/coerce'
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema'
import fc from 'fast-check'
import { toStrictJsonSchema } from 'openai/lib/transform'
import { describe, expect, it } from 'vitest'
import { withSharedDefinitions } from '../src/profiles/shared-definitions'
import { cases, RUNS, SEED, toZod } from '../../../test/support/schema-arbitrary'
import { rejectedBy } from '../../../test/support/validators'

const text = (description: string) => ({ anyOf: [{ type: 'string', description }, { type: 'null' }], description })
/** A Graph-like input (Microsoft 365's server writes its tools so): an identity set used six times, a folder that holds folders. */
const graphInput = {
  type: 'object',
  properties: {
    body: {
      type: 'object',
      properties: {
        displayName: text('The folder\'s display name.'),
        createdBy: { $ref: '#/$defs/identitySet' },
        lastModifiedBy: { $ref: '#/$defs/identitySet' },
        owner: { $ref: '#/$defs/identitySet' },
        sharedBy: { $ref: '#/$defs/identitySet' },
        deletedBy: { $ref: '#/$defs/identitySet' },
        reviewedBy: { $ref: '#/$defs/identitySet' },
        childFolders: { type: 'array', items: { $ref: '#/$defs/folder' }, description: 'The folders inside this one.' },
      },
    },
  },
  required: ['body'],
  $defs: {
    identity: { type: 'object', properties: { id: text('The identity\'s unique identifier.'), displayName: text('The identity\'s display name. It may not always be available or up to date.') } },
    identitySet: { type: 'object', properties: { application: { $ref: '#/$defs/identity' }, device: { $ref: '#/$defs/identity' }, user: { $ref: '#/$defs/identity' } }, description: 'The application, device and user of an action.' },
    folder: { type: 'object', properties: { displayName: text('The folder\'s display name.'), childFolders: { type: 'array', items: { $ref: '#/$defs/folder' } }, createdBy: { $ref: '#/$defs/identitySet' } } },
  },
}

describe('a shape used by $ref in many places', () => {
  const size = JSON.stringify(graphInput).length
  const compiled = Object.fromEntries(PROFILE_NAMES.map(profile => [profile, compileTool({ name: 'create-folder', input: graphInput }, { profile })]))

  // anthropic-strict falls back here: its per-request limits are counted as the definitions expand.
  // openai-strict costs more (the next test); minimal keeps the `$ref`s as written.
  it.each(PROFILE_NAMES.filter(name => name !== 'openai-strict' && name !== 'minimal'))('is no larger in %s than the original', (profile) => {
    expect(JSON.stringify(compiled[profile]!.inputSchema).length).toBeLessThanOrEqual(size)
  })

  it('is kept once in $defs by the strict profiles, which their vendors\' converters take unchanged', () => {
    const openai = compiled['openai-strict']!
    expect(openai.strict).toBe(true)
    expect(Object.keys(openai.inputSchema.$defs as object).length).toBeGreaterThan(0)
    expect(toStrictJsonSchema(openai.inputSchema as never)).toEqual(openai.inputSchema)
    // Every key required, objects closed with a rest key, nulls wrapped: strict costs more, sharing halves it.
    expect(JSON.stringify(openai.inputSchema).length).toBeLessThan(JSON.stringify(withoutSharedDefinitions(openai.inputSchema)).length / 2)
    const anthropic = compileTool({ name: 'create-folder', input: { ...graphInput, properties: { body: { ...graphInput.properties.body, properties: { owner: { $ref: '#/$defs/identitySet' }, sharedBy: { $ref: '#/$defs/identitySet' } } } } } }, { profile: 'anthropic-strict' })
    expect(anthropic.strict).toBe(true)
    expect(Object.keys(anthropic.inputSchema.$defs as object).length).toBeGreaterThan(0)
    expect(transformJSONSchema(anthropic.inputSchema as never)).toEqual(anthropic.inputSchema)
    expect(compiled['anthropic-strict']!.diagnostics.find(d => d.code === 'strict-fallback')?.message).toMatch(/optional parameters \(Anthropic takes 24 per request\)/)
    // Each use is a bare reference: no keyword beside it to conflict when a client expands it.
    const refs = JSON.stringify(openai.inputSchema).match(/\{"\$ref":"#\/\$defs\/[\w-]+"\}/g) ?? []
    expect(refs.length).toBe((JSON.stringify(openai.inputSchema).match(/"\$ref"/g) ?? []).length)
  })

  it('round-trips through openai-strict as the model writes it', () => {
    const value = { body: { displayName: 'Plans', createdBy: { user: { id: 'u1', displayName: null } }, childFolders: [{ displayName: 'Q1', createdBy: { device: { id: 'd' } } }] } }
    const tool = compiled['openai-strict']!
    const written = modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true })
    expect(rejectedBy(tool.inputSchema, written)).toEqual([])
    expect(inverseArgs(written as Record<string, unknown>, tool)).toEqual(value)
  })

  it('keeps its keys at the first place in portable, and says where for the other copies', () => {
    const portable = compiled.portable!
    const body = (portable.inputSchema.properties as Record<string, JsonSchemaObject>).body!.properties as Record<string, JsonSchemaObject>
    expect(Object.keys(body.createdBy!.properties as object)).toEqual(['application', 'device', 'user'])
    expect(body.owner).toMatchObject({ type: 'object', description: expect.stringContaining('Same as `body.createdBy`.') })
    expect(body.owner!.properties).toBeUndefined()
    expect(portable.diagnostics.find(d => d.code === 'size-limit')?.message).toMatch(/keep(s)? (its|their) keys at the first place only \(`body\.createdBy`/)
  })
})

describe('withSharedDefinitions', () => {
  it('counts the name a definition will take: a shape first met at `toString` is kept as `toString_shape`, and only where that still saves', () => {
    const shape = (length: number): JsonSchemaObject => ({ type: 'object', properties: { when: { type: 'string', description: 'x'.repeat(length) } } })
    for (const length of [4, 8, 12, 16, 20, 60]) {
      const inline: JsonSchemaObject = { type: 'object', properties: { toString: shape(length), other: shape(length) } }
      const out = withSharedDefinitions(inline)
      expect(JSON.stringify(out).length, `${JSON.stringify(shape(length)).length} characters`).toBeLessThanOrEqual(JSON.stringify(inline).length)
      expect(withoutSharedDefinitions(out)).toEqual(inline)
      if (out !== inline)
        expect(Object.keys(out.$defs as object)).toEqual(['toString_shape'])
    }
    expect(withSharedDefinitions({ type: 'object', properties: { toString: shape(60), other: shape(60) } }).$defs).toBeDefined()
  })
})

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
  }, 300_000)
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
  }, 300_000)
})
