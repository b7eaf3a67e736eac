// A shape the original says once and uses by `$ref` in many places: no profile lists it larger than
// the original. The strict profiles keep it once in `$defs` (their vendors' own converters take the
// result unchanged); `portable`, which says no `$ref`, keeps its keys at the first place and lists
// the other copies by kind with a note. By property: sharing means exactly what the inline schema
// means, under every validator.
import type { JsonSchemaObject } from '@flatmcp/core'
import { compileTool, modelAnswer, PROFILE_NAMES, withoutSharedDefinitions } from '@flatmcp/core'
import { inverseArgs } from '@flatmcp/runtime/coerce'
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema'
import { toStrictJsonSchema } from 'openai/lib/transform'
import { describe, expect, it } from 'vitest'
import { withSharedDefinitions } from '../src/profiles/shared-definitions'
import { rejectedBy } from '../../../test/support/validators'
import { graphInput } from './graph-input'

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
