// Schemas written by other languages' generators, through the JSON Schema front end: read with the
// preset of the parser they were written for (pydantic, Go's encoding/json, serde, .NET), detected
// from their fingerprints, with each generator habit that broke clients read right. The corpus of
// generator-shaped schemas is judged by property: sampled values the original takes pass the flat
// schema of every profile, or round-trip through the runtime's inverse to the same value.
import type { JsonSchemaObject } from '@flatmcp/core'
import { compileTool, detectPreset, ecmascriptPattern, flattenSchema, JSON_SCHEMA_VENDOR, modelAnswer, outputDifference, PRESET_NAMES, presetReason, PRESETS, PROFILE_NAMES, profileViolations, toOriginalSchema } from '@flatmcp/core'
import { coerceArgs, inverseArgs } from '@flatmcp/runtime/coerce'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createRandom, sampleValue } from '../../unplugin/src/core/check/sample'
import { GENERATED_SCHEMAS } from '../../../test/support/generated-schemas'
import { inverse } from '../../../test/support/round-trip'
import { rejectedBy } from '../../../test/support/validators'

/** What the official Python SDK lists for `draw(shape: Circle | Rect (tag "kind"), color: Color = red, label: str | None = None)`. */
const pydanticDraw = (): JsonSchemaObject => ({
  $defs: {
    Circle: { properties: { kind: { const: 'circle', default: 'circle', title: 'Kind', type: 'string' }, radius: { title: 'Radius', type: 'number' } }, required: ['radius'], title: 'Circle', type: 'object' },
    Color: { enum: ['red', 'green'], title: 'Color', type: 'string' },
    Rect: { properties: { kind: { const: 'rect', default: 'rect', title: 'Kind', type: 'string' }, w: { title: 'W', type: 'number' }, h: { title: 'H', type: 'number' } }, required: ['w', 'h'], title: 'Rect', type: 'object' },
  },
  properties: {
    shape: { discriminator: { mapping: { circle: '#/$defs/Circle', rect: '#/$defs/Rect' }, propertyName: 'kind' }, oneOf: [{ $ref: '#/$defs/Circle' }, { $ref: '#/$defs/Rect' }], title: 'Shape' },
    color: { $ref: '#/$defs/Color', default: 'red' },
    label: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Label' },
    max_results: { default: 10, title: 'Max Results', type: 'integer' },
    query: { title: 'Search query', type: 'string', description: 'Words to look for.' },
  },
  required: ['shape', 'query'],
  title: 'drawArguments',
  type: 'object',
})

type Node = Record<string, any>
const properties = (schema: JsonSchemaObject): Node => schema.properties as Node

describe('a JSON Schema is a tool input like any other', () => {
  const input = { type: 'object', properties: { filter: { type: 'object', properties: { actor: { type: 'string' } } }, values: { type: 'object' } }, required: ['filter'] }

  it('compiles with JSON Schema semantics: an object is never an array, with a coercion plan and a strict inverse', () => {
    const compiled = compileTool({ name: 'actions_list', input })
    expect(properties(compiled.inputSchema).filter.type).toBe('object')
    expect(properties(compiled.inputSchema).values.type).toBe('object')
    expect(compiled.preset).toBe('json-schema')
    expect(coerceArgs({ filter: '{"actor":"a"}', values: '[1]' }, compiled.coercion)).toEqual({ filter: { actor: 'a' }, values: '[1]' })
    // A validator keeps the keys a root says nothing of: a strict profile closes it with a rest key that carries them, said.
    const open = compileTool({ name: 'actions_list', input }, { profile: 'openai-strict' })
    expect(open.strict).toBe(true)
    expect(open.diagnostics.map(d => d.message)).toContain('openai-strict takes no keys an object does not name: this object\'s other keys are advertised in "other_keys" as the JSON text of an object, which the server merges back')
    expect(inverseArgs({ filter: { actor: 'a', other_keys: '{"since":1}' }, values: { other_keys: '{"x":1}' }, other_keys: '{"page":2}' }, open)).toEqual({ filter: { actor: 'a', since: 1 }, values: { x: 1 }, page: 2 })
    const strict = compileTool({ name: 'actions_list', input: { ...input, additionalProperties: false } }, { profile: 'openai-strict' })
    expect(strict.strict).toBe(true)
    // `values` takes any keys: strict closes every object, so its keys go in its rest key, merged back.
    expect(strict.decode?.properties?.values?.rest).toBe('other_keys')
    expect(inverseArgs({ filter: { actor: 'a' }, values: { other_keys: '{"x":1}' } }, strict)).toEqual({ filter: { actor: 'a' }, values: { x: 1 } })
  })

  it('a Standard Schema whose vendor is json-schema is read the same way, and the caller\'s schema is never changed', () => {
    const before = JSON.stringify(pydanticDraw())
    const document = pydanticDraw()
    const standard = { '~standard': { version: 1, vendor: JSON_SCHEMA_VENDOR, validate: (value: unknown) => ({ value }), jsonSchema: { input: () => document, output: () => document } } }
    expect(compileTool({ name: 'draw', input: standard }).inputSchema).toEqual(compileTool({ name: 'draw', input: pydanticDraw() }).inputSchema)
    expect(JSON.stringify(document)).toBe(before)
  })

  it('a schema that is not JSON data is a compile error naming the tool', () => {
    const cyclic: Record<string, unknown> = { type: 'object' }
    cyclic.properties = { self: cyclic }
    expect(() => compileTool({ name: 'loop', input: cyclic })).toThrow(/tool "loop" input: the JSON Schema is not JSON data/)
  })
})

describe('generator output read right', () => {
  it('a $ref with a default beside it is the definition with that default, not "any value"; gemini keeps it typed', () => {
    for (const profile of ['portable', 'gemini'] as const) {
      const color = properties(compileTool({ name: 'draw', input: pydanticDraw() }, { profile }).inputSchema).color
      expect(color, profile).toMatchObject({ type: 'string', enum: ['red', 'green'] })
      expect(JSON.stringify(color)).not.toContain('JSON text')
    }
    expect(properties(compileTool({ name: 'draw', input: pydanticDraw() }).inputSchema).color.default).toBe('red')
  })

  it('$ref siblings are conjoined in 2020-12 and ignored before 2019-09, as validators read them', () => {
    const document = (dialect?: string): JsonSchemaObject => ({ ...(dialect ? { $schema: dialect } : {}), type: 'object', properties: { code: { $ref: '#/$defs/Code', maxLength: 3 } }, $defs: { Code: { type: 'string', minLength: 1 } } })
    const modern = properties(compileTool({ name: 't', input: document() }).inputSchema).code
    expect(modern).toEqual({ type: 'string', minLength: 1, maxLength: 3 })
    const old = properties(compileTool({ name: 't', input: document('http://json-schema.org/draft-07/schema#') }).inputSchema).code
    expect(old).toEqual({ type: 'string', minLength: 1 })
    expect(rejectedBy(compileTool({ name: 't', input: document() }).inputSchema, { code: 'abcd' }).length).toBe(4)
  })

  it('an OpenAPI discriminator is the union\'s tag, then gone: no mapping left dangling into removed $defs', () => {
    for (const profile of PROFILE_NAMES) {
      const compiled = compileTool({ name: 'draw', input: pydanticDraw() }, { profile })
      expect(JSON.stringify(compiled.inputSchema), profile).not.toContain('discriminator')
    }
    const shape = properties(compileTool({ name: 'draw', input: pydanticDraw() }).inputSchema).shape
    expect(shape.properties.kind).toEqual({ type: 'string', enum: ['circle', 'rect'] })
    expect(shape.properties.radius.description).toBe('Only for kind "circle", where it is required.')
  })

  it('a pydantic model ignores unknown keys: a variant-only field keeps its type, and gemini sends no JSON text', () => {
    const shape = properties(compileTool({ name: 'draw', input: pydanticDraw() }, { profile: 'gemini' }).inputSchema).shape
    expect(shape.type).toBe('object')
    expect(shape.properties).toMatchObject({ radius: { type: 'number' }, w: { type: 'number' }, h: { type: 'number' } })
    // Read as a plain JSON Schema, the same union keeps the keys a variant does not declare open.
    const plain = properties(compileTool({ name: 'draw', input: pydanticDraw() }, { preset: 'json-schema', profile: 'gemini' }).inputSchema).shape
    expect(plain.type).toBe('string')
  })

  it('a tag pydantic requires is required, though its JSON gives it a default', () => {
    const shape = properties(compileTool({ name: 'draw', input: pydanticDraw() }).inputSchema).shape
    expect(shape.required).toEqual(['kind'])
    expect(rejectedBy(shape, { radius: 1 }).length).toBe(4)
    // A plain JSON Schema validator takes the union without the tag: so does the flat schema there.
    const plain = properties(compileTool({ name: 'draw', input: pydanticDraw() }, { preset: 'json-schema' }).inputSchema).shape
    expect(plain.required ?? []).not.toContain('kind')
  })

  it('strict profiles advertise `X | None = None` as plain nullability: pydantic reads null and a left-out key alike', () => {
    const strict = compileTool({ name: 'draw', input: pydanticDraw() }, { profile: 'openai-strict' })
    expect(properties(strict.inputSchema).label).toEqual({ type: ['string', 'null'] })
    expect(JSON.stringify(strict.inputSchema)).not.toContain('"value"')
    // A plain JSON Schema's validator reads them apart: there the key is wrapped.
    const plain = compileTool({ name: 'draw', input: { ...pydanticDraw(), additionalProperties: false } }, { profile: 'openai-strict', preset: 'json-schema' })
    expect(JSON.stringify(properties(plain.inputSchema).label)).toContain('"value"')
    expect(JSON.stringify(properties(strict.inputSchema).label).length).toBeLessThan(JSON.stringify(properties(plain.inputSchema).label).length / 4)
  })

  it('omitAbsentNulls advertises such keys without null; gemini always does; other parsers keep the null', () => {
    const omitted = compileTool({ name: 'draw', input: pydanticDraw() }, { omitAbsentNulls: true })
    expect(properties(omitted.inputSchema).label).toEqual({ type: 'string' })
    expect(properties(compileTool({ name: 'draw', input: pydanticDraw() }).inputSchema).label).toEqual({ type: ['string', 'null'], default: null })
    expect(properties(compileTool({ name: 'draw', input: pydanticDraw() }, { profile: 'gemini' }).inputSchema).label).toEqual({ type: 'string' })
    expect(properties(compileTool({ name: 'draw', input: pydanticDraw() }, { omitAbsentNulls: true, preset: 'json-schema' }).inputSchema).label.type).toEqual(['string', 'null'])
    // The model's form of a null is the key left out.
    expect(modelAnswer(omitted.inputSchema, omitted.decode, { shape: { kind: 'circle', radius: 1 }, query: 'q', label: null }, { nullsForMissing: false })).toEqual({ shape: { kind: 'circle', radius: 1 }, query: 'q' })
  })

  it('titles that restate their key or model go; one that says more joins the description', () => {
    const compiled = compileTool({ name: 'draw', input: pydanticDraw() })
    expect(JSON.stringify(compiled.inputSchema)).not.toContain('"title"')
    expect(properties(compiled.inputSchema).max_results).toEqual({ type: 'integer', default: 10 })
    expect(properties(compiled.inputSchema).query.description).toBe('Search query. Words to look for.')
  })
})

describe('smaller, never larger without saying why', () => {
  const PROFILES = PROFILE_NAMES
  const corpus = [{ name: 'draw', schema: pydanticDraw() }, ...GENERATED_SCHEMAS]

  it.each(corpus)('$name: a profile larger than the original says why; pydantic\'s portable is smaller', ({ name, schema }) => {
    for (const profile of PROFILES) {
      const compiled = compileTool({ name, input: schema }, { profile })
      const grown = compiled.diagnostics.find(d => d.code === 'larger-than-original')
      const larger = JSON.stringify(compiled.inputSchema).length > JSON.stringify(schema).length
      expect(grown !== undefined, `${name} ${profile}: ${grown?.message}`).toBe(larger)
      if (grown)
        expect(grown.message).toMatch(new RegExp(`^the ${profile} schema is \\d+% larger than the original \\(\\d+ → \\d+ characters of JSON\\): .+`))
    }
    if (name === 'draw')
      expect(JSON.stringify(compileTool({ name, input: schema }).inputSchema).length).toBeLessThan(JSON.stringify(schema).length * 0.7)
  })
})

describe('presets', () => {
  it.each(GENERATED_SCHEMAS)('$name ($after) is detected as written for $preset', ({ schema, preset }) => {
    expect(detectPreset(schema).preset.name).toBe(preset)
    expect(compileTool({ name: 't', input: schema }).preset).toBe(preset)
  })

  it('pydantic\'s output is detected, by its fingerprints; a schema with none is plain JSON Schema; the option wins', () => {
    expect(detectPreset(pydanticDraw()).preset.name).toBe('pydantic')
    expect(detectPreset(pydanticDraw()).evidence).toEqual(expect.arrayContaining([expect.stringContaining('drawArguments')]))
    expect(detectPreset({ type: 'object', properties: { a: { type: 'string' } } }).preset.name).toBe('json-schema')
    expect(compileTool({ name: 't', input: pydanticDraw() }, { preset: 'go' }).preset).toBe('go')
    const diagnostic = compileTool({ name: 't', input: pydanticDraw() }).diagnostics.find(d => d.code === 'generator-preset')
    expect(diagnostic?.message).toMatch(/read with the "pydantic" preset, for pydantic v2/)
  })

  it('a TypeScript server\'s list reads as json-schema, said with why: zod\'s nullable defaults and OpenAPI\'s widths are not pydantic\'s or serde\'s', () => {
    // As the TypeScript SDK lists zod tools: the dialect at the root, `.nullable().default(null)` as anyOf [T, null].
    const zodTool = z.object({ query: z.string(), cursor: z.string().nullable().default(null), limit: z.number().int().nullable().default(null) })
    const zodTools = Array.from({ length: 3 }, () => z.toJSONSchema(zodTool, { target: 'draft-7', io: 'input' }) as JsonSchemaObject)
    expect(zodTools.flatMap(tool => PRESETS.pydantic.fingerprints(tool))).toHaveLength(3)
    const choice = detectPreset(zodTools)
    expect(choice.preset.name).toBe('json-schema')
    expect(presetReason(choice)).toBe('3 schemas: root $schema with no title, as zod writes it for the TypeScript SDK')
    // Generated from an OpenAPI document (Notion's server): int32 and [T, "null"], no dialect named.
    const properties = { page_size: { type: 'integer', format: 'int32' }, parent: { type: ['object', 'null'], properties: { id: { type: 'string', format: 'uuid' } } } }
    const openApi = { type: 'object', properties } as JsonSchemaObject
    expect(detectPreset([openApi, openApi]).preset.name).toBe('json-schema')
    expect(presetReason(detectPreset(openApi))).toBe('no generator\'s fingerprints found')
    // schemars's own widths, or OpenAPI's under its 2020-12 dialect, still read as serde.
    expect(detectPreset({ ...openApi, properties: { ...properties, n: { type: 'integer', format: 'uint32' } } }).preset.name).toBe('serde')
    expect(detectPreset({ ...openApi, $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'Query' }).preset.name).toBe('serde')
    expect(presetReason({ preset: PRESETS.pydantic, evidence: 'option' })).toBe('as asked')
  })

  it('an unknown preset is an error that lists the known ones', () => {
    expect(() => compileTool({ name: 't', input: { type: 'object' } }, { preset: 'java' as never })).toThrow(`unknown preset "java"; expected "auto" or one of ${PRESET_NAMES.map(n => `"${n}"`).join(', ')}`)
  })

  it('zod and the other libraries are not JSON Schema documents: no preset', () => {
    expect(compileTool({ name: 't', input: { '~standard': { version: 1, vendor: 'x', validate: () => ({ value: 1 }), jsonSchema: { input: () => ({ type: 'object' }) } } } }).preset).toBeUndefined()
  })
})

describe('patterns in the parser\'s regex dialect', () => {
  it('spells each escape and dot the engines read otherwise, exactly', () => {
    const cases: [string, Parameters<typeof ecmascriptPattern>[1], string[], string[]][] = [
      ['^\\d{3}$', 'rust', ['123', '١٢٣'], ['12a']],
      ['^\\w+$', 'rust', ['é_9', 'Δ'], ['a b']],
      ['^.+$', 'rust', ['a\rb', '\u2028'], ['a\nb']],
      ['^[\\d-]+$', 'rust', ['١-2'], ['a']],
      ['^\\s$', 're2', [' ', '\t'], ['\u00a0', '\v']],
      ['^\\d$', 're2', ['1'], ['١']],
      ['^ab$', 'dotnet', ['ab', 'ab\n'], ['ab\n\n']],
      ['^(?P<x>a)$', 'rust', ['a'], ['b']],
    ]
    for (const [source, dialect, matching, missing] of cases) {
      const translated = ecmascriptPattern(source, dialect)
      expect('pattern' in translated, `${source} (${dialect})`).toBe(true)
      const regex = new RegExp((translated as { pattern: string }).pattern, 'u')
      for (const text of matching)
        expect(regex.test(text), `${source} (${dialect}) on ${JSON.stringify(text)}`).toBe(true)
      for (const text of missing)
        expect(regex.test(text), `${source} (${dialect}) on ${JSON.stringify(text)}`).toBe(false)
    }
  })

  it('gives up on what has no exact spelling: the pattern goes into the description, and the schema only widens', () => {
    for (const source of ['\\bword\\b', '(?i)abc', '[\\W]', '[[:alpha:]]', '\\pL', '[a&&b]'])
      expect(ecmascriptPattern(source, 'rust'), source).toHaveProperty('untranslatable')
    const schema = { type: 'object', properties: { word: { type: 'string', pattern: '^\\bok\\b$', title: 'Word' } }, title: 'fArguments' }
    const word = properties(compileTool({ name: 't', input: schema }).inputSchema).word
    expect(word).toEqual({ type: 'string', description: 'Pattern (rust regex): ^\\bok\\b$' })
  })

  it('plain JSON Schema patterns are left as validators read them', () => {
    expect(toOriginalSchema({ type: 'string', pattern: '^\\d$' }).schema.pattern).toBe('^\\d$')
  })
})

describe('the generated corpus, by property: the original\'s values pass the flat schema or round-trip to the same value', () => {
  const PROFILES = PROFILE_NAMES

  it.each(GENERATED_SCHEMAS)('$name under every profile', ({ name, schema }) => {
    // A validator on the original stands in for the parser (Go's SDK validates so; serde and .NET take at least as much).
    const { $schema: _dialect, ...judge } = schema
    const random = createRandom(name.length)
    const values = Array.from({ length: 150 }, () => sampleValue(schema, random, { relax: true })).filter(value => rejectedBy(judge, value).length === 0)
    expect(values.length).toBeGreaterThan(20)
    for (const profile of PROFILES) {
      const compiled = compileTool({ name, input: schema }, { profile })
      expect(profileViolations(compiled.inputSchema, compiled.strict === false ? 'portable' : profile), `${name} ${profile}`).toEqual([])
      expect(JSON.stringify(compiled.inputSchema)).not.toMatch(profile === 'minimal' ? /"discriminator"/ : /"discriminator"|"\$defs"|"\$ref"/)
      for (const [key, child] of Object.entries(schema.properties as Node)) {
        if (child.type === 'object' && profile !== 'gemini' && !compiled.decode?.properties?.[key])
          expect(properties(compiled.inputSchema)[key].type, `${name} ${profile} ${key}`).toBe('object')
      }
      for (const value of values) {
        if (profile === 'portable' || profile === 'minimal' || compiled.strict === false) {
          expect(rejectedBy(compiled.inputSchema, value), `${name} ${profile} ${JSON.stringify(value)}`).toEqual([])
          continue
        }
        const written = modelAnswer(compiled.inputSchema, compiled.decode, value, { nullsForMissing: profile === 'openai-strict' })
        const rejecting = rejectedBy(compiled.inputSchema, written).filter(validator => profile !== 'gemini' || validator !== '@cfworker/json-schema')
        expect(rejecting, `${name} ${profile} ${JSON.stringify(written)}`).toEqual([])
        const back = inverse(compiled, written, candidate => rejectedBy(judge, candidate).length === 0)
        expect(rejectedBy(judge, back), `${name} ${profile}: back ${JSON.stringify(back)}`).toEqual([])
        // A parser that reads null as a left-out key may get either: compare with the nulls of such keys dropped.
        expect(outputDifference(withoutNulls(value), withoutNulls(back)), `${name} ${profile}: ${JSON.stringify(value)} → ${JSON.stringify(back)}`).toBeUndefined()
      }
    }
  })

  it('flattenSchema takes a preset\'s semantics too: a closed Go struct stays closed, its slices typed', () => {
    const actions = GENERATED_SCHEMAS.find(s => s.name === 'actions_list')!
    const original = toOriginalSchema(actions.schema)
    const flat = flattenSchema(original.schema, { semantics: original.semantics }).schema as Node
    expect(flat.additionalProperties).toBe(false)
    expect(flat.properties.workflow_runs_filter.type).toEqual(['object', 'null'])
  })
})

/** A value with every `null` object member left out, at any depth. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map(withoutNulls)
  if (typeof value !== 'object' || value === null)
    return value
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null).map(([key, member]) => [key, withoutNulls(member)]))
}
