// Target profiles' rules one by one, what a profile says of objects, and a differential check of the
// `openai-strict` inverse against `@openai/agents`' own null stripping. The vendors' own code judging a
// generated corpus is targets.oracles.property.test.ts.
import type { CompiledTool, JsonSchemaObject, TargetProfile } from '@flatmcp/core'
import { clientRuleViolations, compileTool, FLATTEN_PROFILE_NAMES, modelAnswer, PROFILE_NAMES, PROFILE_OBJECTS, profileViolations, resolveTarget, TARGET_NAMES, targetRules, withoutSharedDefinitions } from '@flatmcp/core'
import { inverseArgs, readingsOf, RefusedArguments } from '@flatmcp/runtime/coerce'
import { RunContext, tool as agentsTool } from '@openai/agents'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { cases, toZod } from '../../../test/support/schema-arbitrary'
import { rejectedBy } from '../../../test/support/validators'

const media = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), media: z.object({ id: z.string() }), note: z.string().optional() }),
  z.object({ kind: z.literal('mediaGroup'), media: z.array(z.object({ id: z.string() })), count: z.number().default(1) }),
])

describe('what a profile says of objects (PROFILE_OBJECTS, which the runtime reads without the compiler)', () => {
  it('is what its rules make: an object of unknown keys kept, closed with a rest key or sent as JSON text, additionalProperties kept or dropped', () => {
    for (const profile of PROFILE_NAMES) {
      const facts = PROFILE_OBJECTS[profile]
      const tool = compileTool({ name: 't', input: z.object({ meta: z.record(z.string(), z.string()), inner: z.object({ a: z.string() }) }) }, { profile })
      const meta = (tool.inputSchema.properties as Record<string, JsonSchemaObject>).meta!
      // Closed (strict profiles carry the other keys in a rest key) or JSON text (gemini) where the profile takes no open object.
      expect(meta.type === 'object' && meta.additionalProperties !== false, `${profile} keeps an open object`).toBe(facts.openObjects)
      expect(JSON.stringify(tool.inputSchema).includes('"additionalProperties"'), `${profile} writes additionalProperties`).toBe(facts.additionalProperties)
      // A target profile carries its own, as it carries the probe's facts.
      const target = resolveTarget(profile).profile
      if (target)
        expect(target.objects).toEqual(facts)
    }
  })
})

describe('rules', () => {
  it('openai-strict: closed, fully required, optional keys nullable, a collided key as a nested anyOf', () => {
    const tool = compileTool({ name: 'send', input: media }, { profile: 'openai-strict' })
    // The object branch is written once, in `$defs`, and referenced where the array's items are too.
    expect(Object.keys(tool.inputSchema.$defs as object)).toHaveLength(1)
    const schema = withoutSharedDefinitions(tool.inputSchema) as Record<string, any>
    expect(schema.additionalProperties).toBe(false)
    expect(schema.required).toEqual(Object.keys(schema.properties))
    expect(schema.properties.note.type).toEqual(['string', 'null'])
    expect(schema.properties.media.anyOf.map((b: JsonSchemaObject) => b.type)).toEqual(['object', 'array'])
    expect(tool.strict).toBe(true)
  })

  it('openai-strict inverse: nulls for keys not meant go, a default applies, a real null the original takes stays', () => {
    const input = z.object({ a: z.string().optional(), n: z.number().default(3), keep: z.string().nullable().optional(), media })
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict' })
    // `keep` may be left out or be null: a null leaves it out, `{ value: null }` sends null.
    const answer = { a: null, n: null, keep: { value: null }, media: { kind: 'message', media: { id: 'x' }, note: null, count: null } }
    const back = inverseArgs(answer, tool)
    expect(back).toEqual({ keep: null, media: { kind: 'message', media: { id: 'x' } } })
    expect(input.parse(back)).toEqual({ n: 3, keep: null, media: { kind: 'message', media: { id: 'x' } } })
    expect(inverseArgs({ ...answer, keep: null }, tool)).toEqual({ media: { kind: 'message', media: { id: 'x' } } })
    // The inverse never changes what a model sent: it copies.
    expect(answer.a).toBeNull()
  })

  it('gemini: one type per node, nullable, and a collided key as JSON text parsed back', () => {
    const tool = compileTool({ name: 'send', input: z.object({ media: z.union([z.object({ id: z.string() }), z.array(z.string())]), tag: z.string().nullable() }) }, { profile: 'gemini' })
    const schema = tool.inputSchema as Record<string, any>
    expect(schema.properties.media.type).toBe('string')
    expect(schema.properties.media.description).toContain('JSON text')
    expect(schema.properties.tag).toEqual({ type: 'string', nullable: true })
    expect(tool.decode).toEqual({ properties: { media: { parse: 'json' } } })
    expect(inverseArgs({ media: '["a","b"]', tag: null }, tool)).toEqual({ media: ['a', 'b'], tag: null })
    // Text that is not JSON stays as it came: the original then judges it.
    expect(inverseArgs({ media: 'not json' }, tool)).toEqual({ media: 'not json' })
    const hint = (input: z.ZodType): string => (compileTool({ name: 't', input: z.object({ v: input }) }, { profile: 'gemini' }).inputSchema as Record<string, any>).properties.v.description
    expect(hint(z.union([z.string(), z.number().int()]))).toBe('Send as JSON text (a string or an integer; a string as a quoted JSON string).')
    expect(hint(z.record(z.string(), z.number()))).toBe('Send as JSON text (an object).')
  })

  it('gemini: its check names each node rule of the OpenAPI parameters route a schema breaks', () => {
    const broken = {
      type: 'object',
      properties: {
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }], description: 'beside anyOf' },
        untyped: { description: 'no type: TYPE_UNSPECIFIED' },
        list: { type: 'array' },
        text: { type: 'string', properties: { a: { type: 'string' } }, required: ['a'] },
      },
    }
    const found = profileViolations(broken, 'gemini')
    for (const rule of [
      '/properties/either: anyOf beside description (Gemini takes anyOf as the only keyword of its node)',
      '/properties/untyped: type left out is not one OpenAPI type (Gemini 3 refuses TYPE_UNSPECIFIED)',
      '/properties/list: an array without items (Gemini wants items on every array)',
      '/properties/text: properties on a node that is no object (Gemini takes it on objects only)',
      '/properties/text: required on a node that is no object (Gemini takes it on objects only)',
    ])
      expect(found).toContain(rule)
    // What the profile writes keeps them all.
    const union = compileTool({ name: 't', input: { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'object', properties: { a: { type: 'array' } } }], description: 'd' }, w: {} } } }, { profile: 'gemini', preset: 'json-schema' })
    expect(profileViolations(union.inputSchema, 'gemini')).toEqual([])
  })

  it('openai-strict: a place of any kind whose numbers are bounded keeps the bounded number beside the JSON text', () => {
    const input = { type: 'object', properties: { v: { maximum: 3 } }, required: ['v'], additionalProperties: false }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    const v = (tool.inputSchema.properties as Record<string, JsonSchemaObject>).v!
    expect(v.anyOf).toEqual([{ type: 'number', maximum: 3 }, { type: 'boolean' }, { type: ['string', 'null'] }])
    expect(rejectedBy(tool.inputSchema, { v: 4 })).not.toEqual([])
    // A number is taken as it is, JSON text is parsed back, and a string that is not JSON stays one.
    for (const [sent, meant] of [[2, 2], ['{"a":1}', { a: 1 }], ['"4"', '4'], [true, true]] as const) {
      expect(rejectedBy(tool.inputSchema, { v: sent })).toEqual([])
      expect(inverseArgs({ v: sent }, tool)).toEqual({ v: meant })
    }
    // Without a bound there is nothing to keep: the place is JSON text, one string.
    const loose = compileTool({ name: 't', input: { ...input, properties: { v: {} } } }, { profile: 'openai-strict', preset: 'json-schema' })
    expect((loose.inputSchema.properties as Record<string, JsonSchemaObject>).v!.anyOf).toBeUndefined()
  })

  it('openai-strict: a key that takes null alone is a marker, not an optional value: its presence survives the inverse under serde', () => {
    // serde's unit variants of a flattened externally tagged enum: which key is there says which variant.
    const unit = (key: string) => ({ type: 'object', properties: { [key]: { type: 'null' } }, required: [key] })
    const input = { type: 'object', properties: { v: { oneOf: [unit('Unit1'), unit('Unit2')] } }, required: ['v'], additionalProperties: false }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'serde' })
    expect(tool.strict).toBe(true)
    const written = modelAnswer(tool.inputSchema, tool.decode, { v: { Unit1: null } }, { nullsForMissing: true })
    expect(rejectedBy(tool.inputSchema, written)).toEqual([])
    // Both keys present would match both branches of the oneOf: the left-out one must go.
    expect(inverseArgs(written, tool)).toEqual({ v: { Unit1: null } })
  })

  it('anthropic-strict: a tool over the optional-parameter limit falls back to portable, with the reason', () => {
    const wide = z.object(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, z.string().optional()])))
    const tool = compileTool({ name: 'wide', input: wide }, { profile: 'anthropic-strict' })
    expect(tool.strict).toBe(false)
    expect(tool.diagnostics.find(d => d.code === 'strict-fallback')?.message).toBe('served as portable, not anthropic-strict: 30 optional parameters (Anthropic takes 24 per request)')
    expect(tool.inputSchema).toEqual(compileTool({ name: 'wide', input: wide }).inputSchema)
  })

  it('openai-strict: objects nested past 10 levels fall back', () => {
    let deep: z.ZodType = z.object({ leaf: z.string() })
    for (let i = 0; i < 11; i++)
      deep = z.object({ next: deep })
    const tool = compileTool({ name: 'deep', input: deep }, { profile: 'openai-strict' })
    expect(tool.strict).toBe(false)
    expect(tool.diagnostics.find(d => d.code === 'strict-fallback')?.message).toMatch(/nested 1[12] levels deep/)
  })

  it('a format a validator reads as an annotation is words in the strict profiles (it would hold the model to it); one the parser checks stays', () => {
    const input = { type: 'object', properties: { to: { type: 'string', format: 'email' }, id: { type: 'string', format: 'uuid' } }, required: ['to', 'id'], additionalProperties: false }
    for (const profile of ['openai-strict', 'anthropic-strict'] as const) {
      const tool = compileTool({ name: 'mail', input }, { profile, preset: 'json-schema' })
      const properties = tool.inputSchema.properties as Record<string, JsonSchemaObject>
      expect(properties.to).toEqual({ type: 'string', description: 'Format: email.' })
      expect(tool.diagnostics.filter(d => d.code === 'format-moved').map(d => d.path)).toEqual(['/properties/to/format', '/properties/id/format'])
      // zod checks a uuid itself: its format stays.
      const zodTool = compileTool({ name: 'mail', input: z.object({ id: z.uuid() }) }, { profile })
      expect((zodTool.inputSchema.properties as Record<string, JsonSchemaObject>).id!.format).toBe('uuid')
    }
    expect((compileTool({ name: 'mail', input }, { preset: 'json-schema' }).inputSchema.properties as Record<string, JsonSchemaObject>).to!.format).toBe('email')
  })

  it('the 2026 strict routes\' rules (Kimi, xAI Grok, Copilot in Visual Studio) are said by client, and every built-in profile meets them', () => {
    const bad = { type: 'object', properties: { a: { $ref: '#/$defs/A', description: 'x' }, b: { type: 'string', anyOf: [{ minLength: 1 }] } }, required: ['a', 'zz'], $defs: { A: { type: 'string' } } }
    expect(clientRuleViolations('1st.tool', bad).map(v => `${v.client}: ${v.message}`)).toEqual([
      'Kimi: the name "1st.tool" starts with a digit',
      'Kimi: "required" names "zz", which "properties" does not, at /',
      'Kimi: a "$ref" beside other keywords (description) at /properties/a',
      'Kimi: a "type" beside "anyOf" at /properties/b',
      'Copilot in Visual Studio: the name "1st.tool" is not 1 to 128 letters, digits, "_" or "-"',
    ])
    expect(clientRuleViolations('t', { anyOf: [{ type: 'object' }, { type: 'string' }] }).map(v => v.client)).toEqual(['xAI Grok'])
    // `minimal` leaves all but unions as they came.
    for (const profile of PROFILE_NAMES.filter(name => name !== 'minimal')) {
      const tool = compileTool({ name: 'ok', input: bad }, { profile, preset: 'json-schema' })
      expect(clientRuleViolations(tool.name, tool.inputSchema), profile).toEqual([])
    }
  })

  it('Mistral\'s meta-schema and DeepSeek V4\'s `required` are said by client; every built-in profile meets them, and every profile (minimal too) is free of `required: null` and draft-04 booleans', () => {
    const upstream = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      $id: 'urn:tool',
      type: 'object',
      required: null,
      properties: {
        n: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
        o: { type: 'object', $id: 'urn:o', required: null, properties: { z: { type: 'string', $schema: 'http://json-schema.org/draft-04/schema#' } } },
        l: { type: 'array', items: [{ type: 'integer', maximum: 4, exclusiveMaximum: true }] },
      },
    }
    expect(clientRuleViolations('t', upstream).map(v => `${v.client}: ${v.message}`)).toEqual([
      'Mistral: "$id" at /',
      'Mistral: "$schema" at /',
      'Mistral: "$id" at /properties/o',
      'Mistral: "$schema" at /properties/o/properties/z',
      'DeepSeek V4: "required" is null, not an array at /',
      'Mistral: a draft-04 boolean "exclusiveMinimum" at /properties/n',
      'Mistral: a draft-04 boolean "exclusiveMaximum" at /properties/n',
      'DeepSeek V4: "required" is null, not an array at /properties/o',
      'Mistral: a draft-04 boolean "exclusiveMaximum" at /properties/l/items/0',
    ])
    expect(profileViolations(upstream as JsonSchemaObject, 'minimal')).toEqual([
      '/: "required" is null, not an array, which is not 2020-12 (DeepSeek V4 refuses it)',
      '/properties/n: a draft-04 boolean "exclusiveMinimum", which is not 2020-12 (Mistral refuses it)',
      '/properties/n: a draft-04 boolean "exclusiveMaximum", which is not 2020-12 (Mistral refuses it)',
      '/properties/o: "required" is null, not an array, which is not 2020-12 (DeepSeek V4 refuses it)',
      '/properties/l/items/0: a draft-04 boolean "exclusiveMaximum", which is not 2020-12 (Mistral refuses it)',
    ])
    for (const profile of PROFILE_NAMES) {
      const tool = compileTool({ name: 't', input: upstream }, { profile, preset: 'json-schema' })
      expect(profileViolations(tool.inputSchema, tool.strict === false ? 'portable' : profile), profile).toEqual([])
      // `minimal` keeps identifiers as the schema wrote them (its `$ref`s may need them).
      const broken = clientRuleViolations(tool.name, tool.inputSchema).filter(v => profile !== 'minimal' || !/"\$(?:id|schema)"/.test(v.message))
      expect(broken, profile).toEqual([])
    }
  })

  it('a profile of one\'s own from the built-in rules', () => {
    const closedOnly: TargetProfile = { name: 'closed-only', strict: true, rules: [targetRules.encodeOpenObjects, targetRules.closeObjects] }
    const tool = compileTool({ name: 't', input: z.object({ a: z.string().optional(), r: z.record(z.string(), z.number()) }) }, { profile: closedOnly })
    expect(tool.profile).toBe('closed-only')
    expect(tool.inputSchema).toMatchObject({ additionalProperties: false, properties: { a: { type: 'string' }, r: { type: 'object', properties: { other_keys: { type: 'string' } }, additionalProperties: false } }, required: ['r'] })
    expect(inverseArgs({ r: { other_keys: '{"x":1}' } }, tool)).toEqual({ r: { x: 1 } })
    expect(profileViolations(tool.inputSchema, closedOnly)).toEqual([])
  })

  it('an unknown profile name is an error that lists the known ones', () => {
    expect(() => compileTool({ name: 't', input: z.object({}) }, { profile: 'openai' as never })).toThrow('unknown flatmcp profile "openai"; expected one of "portable", "minimal", "openai-strict", "anthropic-strict", "gemini", or a profile object')
  })

  it('the probe\'s check catches a schema changed after it was built', () => {
    const tool = compileTool({ name: 'send', input: media }, { profile: 'openai-strict' })
    expect(profileViolations(tool.inputSchema, 'openai-strict')).toEqual([])
    // The shared definition is read where it is referenced: the first place it stands is named.
    const edited = structuredClone(tool.inputSchema) as Record<string, any>
    delete Object.values(edited.$defs as Record<string, any>)[0].additionalProperties
    expect(profileViolations(edited, 'openai-strict')).toEqual(['/properties/media/anyOf/0/additionalProperties: not in openai-strict form (its rules would still change it)'])
  })
})

describe('differential: @openai/agents strict tools', () => {
  it('its null stripping and the openai-strict inverse parse model answers to the same value where both handle them', async () => {
    let compared = 0
    const samples = fc.sample(cases, { numRuns: 150, seed: 11 })
    for (const [s, values] of samples) {
      const input = toZod(s)
      if (!(input instanceof z.ZodObject))
        continue
      let agents
      try {
        agents = agentsTool({ name: 'generated', description: '', parameters: input as never, strict: true, execute: async (parsed: unknown) => ({ parsed }), errorFunction: () => 'error' })
      }
      catch {
        continue // a schema its converter cannot take
      }
      const ours = compileTool({ name: 'generated', input }, { profile: 'openai-strict' })
      if (ours.strict === false)
        continue
      for (const raw of values) {
        const value = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>
        if (!input.safeParse(value).success || ours.decode)
          continue
        // A model's answer: every key of the strict schema present, null where the value has none.
        const answer = Object.fromEntries(Object.keys((ours.inputSchema.properties ?? {}) as object).map(key => [key, key in value ? value[key] : null]))
        const theirs = await agents.invoke(new RunContext({}), JSON.stringify(answer)) as { parsed?: unknown } | string
        const mine = input.safeParse(inverseArgs(answer, ours))
        if (typeof theirs === 'string' || !mine.success)
          continue
        expect(mine.data, JSON.stringify(answer)).toEqual(theirs.parsed)
        compared++
      }
    }
    expect(compared).toBeGreaterThan(50)
  })
})

describe('keys named like Object.prototype members', () => {
  const read = (tool: CompiledTool, args: unknown): unknown => inverseArgs(args, tool)

  it('an optional key every object inherits takes any value: validators read the inherited member when it is not sent', () => {
    const input = z.object({ constructor: z.string().optional(), toString: z.number().optional(), q: z.string() })
    for (const profile of FLATTEN_PROFILE_NAMES) {
      const tool = compileTool({ name: 'inherited', input }, { profile })
      expect(rejectedBy(tool.inputSchema, { q: 'x' }), profile).toEqual([])
      expect(rejectedBy(tool.inputSchema, { q: 'x', constructor: 'c', toString: 1 }), profile).toEqual([])
      expect(tool.inputSchema.properties).toMatchObject({ constructor: { description: 'Type: string.' }, toString: { description: 'Type: number.' } })
      expect(tool.diagnostics.filter(d => d.code === 'keyword-rewritten').map(d => d.path)).toEqual(['/properties/constructor', '/properties/toString'])
    }
    // Required, it is read only when sent: its schema stays.
    expect(compileTool({ name: 'required', input: z.object({ constructor: z.string() }) }).inputSchema.properties).toEqual({ constructor: { type: 'string' } })
    // A strict profile types it again, as JSON text.
    expect(compileTool({ name: 'strict', input }, { profile: 'openai-strict' }).inputSchema.properties).toMatchObject({ constructor: { type: ['string', 'null'] } })
  })

  it('a `__proto__` key compiles in every profile without touching Object.prototype, and later compiles still work', () => {
    const input = z.object({ ['__proto__']: z.record(z.string(), z.string()).optional(), x: z.string() })
    for (const profile of PROFILE_NAMES) {
      const tool = compileTool({ name: 'proto', input }, { profile })
      expect(Object.keys(tool.inputSchema.properties as object)).toEqual(['__proto__', 'x'])
      expect(Object.prototype).not.toHaveProperty('parse')
      expect(Object.getPrototypeOf(tool.coercion.properties ?? {})).toBe(Object.prototype)
      expect(compileTool({ name: 'after', input: z.object({ a: z.string() }) }, { profile }).inputSchema.properties).toEqual({ a: { type: 'string' } })
    }
  })

  it.each(TARGET_NAMES)('%s: a `constructor` key sent as JSON text reaches the tool parsed', (profile) => {
    const input = z.object({ constructor: z.unknown(), toString: z.string().optional() })
    const tool = compileTool({ name: 'proto', input }, { profile })
    expect(tool.decode?.properties).toHaveProperty('constructor', { parse: 'json' })
    const back = read(tool, { constructor: '{"a":1}', toString: 'x' }) as Record<string, unknown>
    expect(Object.prototype.hasOwnProperty.call(back, 'constructor') && back.constructor).toEqual({ a: 1 })
    expect(input.parse(back)).toEqual({ constructor: { a: 1 }, toString: 'x' })
  })

  it('a definition named `__proto__` is planned as any other: the JSON text it takes is parsed', () => {
    const node = { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, child: { $ref: '#/$defs/__proto__' } } }
    // Parsed from text, as a schema read from a file is: `__proto__` is then a key of its own.
    const input = JSON.parse(`{"type":"object","$defs":{"__proto__":${JSON.stringify(node)}},"properties":{"n":{"$ref":"#/$defs/__proto__"}}}`) as JsonSchemaObject
    expect(Object.keys(input.$defs as object)).toEqual(['__proto__'])
    const tool = compileTool({ name: 't', input }, { preset: 'json-schema' })
    expect(Object.keys(tool.coercion.defs ?? {})).toEqual(['__proto__'])
    expect(inverseArgs({ n: { name: 'x', child: { tags: '["a"]' } } }, tool)).toEqual({ n: { name: 'x', child: { tags: ['a'] } } })
  })

  it('portable: a declared `constructor` key beside a catch-all keeps its own plan, not the catch-all\'s', () => {
    const tool = compileTool({ name: 'proto', input: z.object({ constructor: z.string(), toString: z.string() }).catchall(z.object({ a: z.number() })) })
    expect(tool.coercion.properties).toEqual({ constructor: {}, toString: {} })
    expect(tool.coercion.additional).toEqual({ parse: 'object', properties: { a: { scalars: ['number'] } } })
  })
})

describe('intersections', () => {
  /** The inverse as the server reads arguments: the first reading the original accepts. */
  function served(tool: CompiledTool, written: unknown, original: z.ZodType): unknown {
    for (const reading of readingsOf(tool.coercion)) {
      const value = inverseArgs(written, tool, reading)
      if (original.safeParse(value).success)
        return original.parse(value)
    }
    throw new Error(`no reading of ${JSON.stringify(written)} parses`)
  }

  it('an intersection with a member that takes any value stays open, so no strict profile drops its keys', () => {
    const input = z.object({ field: z.object({ name: z.string() }).and(z.union([z.object({ type: z.literal('checkbox') }), z.any()])) })
    // Not a checkbox: the union's any-value branch takes it, and every key reaches the output.
    const value = { field: { name: 'title', type: 'singleLineText', options: { maxLength: 80 } } }
    expect(input.parse(value)).toEqual(value)
    for (const profile of PROFILE_NAMES) {
      const tool = compileTool({ name: 'create_table', input }, { profile })
      const field = (tool.inputSchema.properties as Record<string, Record<string, unknown>>).field!
      // Open where the profile folds the intersection (minimal keeps the allOf); JSON text or a rest key where it closes every object.
      const rest = tool.decode?.properties?.field?.rest
      expect(Array.isArray(field.allOf) || field.additionalProperties === true || field.type === 'string' || rest === 'other_keys', JSON.stringify(field)).toBe(true)
      expect(field).not.toHaveProperty('items')
      const { name, ...others } = value.field
      const written = field.type === 'string' ? { field: JSON.stringify(value.field) } : rest ? { field: { name, other_keys: JSON.stringify(others) } } : value
      expect(served(tool, written, input)).toEqual(value)
    }
  })

  it('plans reach inside intersections: a strict model\'s nulls go, and a null inside JSON text stays', () => {
    const variant = z.discriminatedUnion('type', [z.object({ type: z.literal('a'), x: z.string().optional() }), z.object({ type: z.literal('b'), y: z.number() })])
    const input = z.object({ fields: z.array(z.intersection(variant, z.object({ id: z.string(), defaultValue: z.unknown().optional() }))) })
    const tool = compileTool({ name: 'fields', input }, { profile: 'openai-strict' })
    const written = { fields: [{ type: 'a', x: null, y: null, id: 'i', defaultValue: '{"c":null}' }] }
    expect(served(tool, written, input)).toEqual({ fields: [{ type: 'a', id: 'i', defaultValue: { c: null } }] })
    for (const reading of readingsOf(tool.coercion))
      expect((inverseArgs(written, tool, reading) as { fields: { defaultValue: unknown }[] }).fields[0]!.defaultValue).toEqual({ c: null })
  })
})

describe('unions without a discriminator', () => {
  it('a plain string does not fit an array-typed key, so the plan\'s first reading picks the alternative that takes it', () => {
    const input = z.object({ s: z.union([z.object({ q: z.array(z.string()), note: z.string().nullable() }), z.object({ q: z.string(), note: z.number().optional() })]) })
    const tool = compileTool({ name: 'search', input }, { profile: 'openai-strict' })
    const back = inverseArgs({ s: { q: 'x', note: null } }, tool, 'plan')
    expect(input.safeParse(back).success).toBe(true)
    expect(back).toEqual({ s: { q: 'x' } })
    // JSON text of an array still fits the array alternative, and is parsed there.
    expect(inverseArgs({ s: { q: '["a"]', note: { value: null } } }, tool, 'plan')).toEqual({ s: { q: ['a'], note: null } })
  })
})

describe('nulls inside JSON text a strict profile asked for', () => {
  // The model writes the original's value itself there, where no key had to be sent: a null is a value.
  it('are values in every reading, in an ambiguous union of objects whose plan drops nulls elsewhere', () => {
    const either = (properties: JsonSchemaObject['properties']): JsonSchemaObject => ({ type: ['object', 'array'], properties })
    const input = { type: 'object', properties: { v: { type: 'object', properties: { a: { anyOf: [either({ a: { type: 'string' } }), either({})] } } } } }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    expect(tool.decode!.properties!.v!.properties!.a!.parse).toBe('json')
    for (const reading of readingsOf(tool.coercion))
      expect(inverseArgs({ v: { a: '{"a":null}', other_keys: '{}' }, other_keys: '{}' }, tool, reading)).toEqual({ v: { a: { a: null } } })
  })

  it('are values through a named plan, while the same definition outside the text still drops them', () => {
    const node = { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' } } }
    const input = { type: 'object', $defs: { node }, properties: { n: { $ref: '#/$defs/node' }, t: { type: ['object', 'array'], properties: { n: { $ref: '#/$defs/node' } } } } }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    const written = { n: { name: 'x', child: null, other_keys: '{}' }, t: '{"n":{"name":"y","child":{"name":null}}}', other_keys: '{}' }
    for (const reading of readingsOf(tool.coercion))
      expect(inverseArgs(written, tool, reading)).toEqual({ n: { name: 'x' }, t: { n: { name: 'y', child: { name: null } } } })
  })

  it('are values inside JSON text that a named plan holds, where that plan is reached outside the text', () => {
    // `node` is recursive, `shared` long: both are named plans, used outside the text, that hold a place advertised as JSON text.
    const text = { type: ['object', 'array'], properties: { a: { type: 'string' } } }
    const node = { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' }, extra: text } }
    const shared = { type: 'object', properties: { extra: text, ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, { type: 'object', properties: { q: { type: 'string' } } }])) } }
    const input = { type: 'object', $defs: { node, shared }, properties: { n: { $ref: '#/$defs/node' }, s: { $ref: '#/$defs/shared' }, s2: { $ref: '#/$defs/shared' } } }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    expect(tool.decode!.properties!.n!.properties!.extra!.parse).toBe('json')
    const nulls = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, null]))
    const written = { n: { name: 'x', child: null, extra: '{"a":null}', other_keys: '{}' }, s: { extra: '{"a":null}', ...nulls, other_keys: '{}' }, s2: null, other_keys: '{}' }
    for (const reading of readingsOf(tool.coercion))
      expect(inverseArgs(written, tool, reading)).toEqual({ n: { name: 'x', extra: { a: null } }, s: { extra: { a: null } } })
  })

  it('plan a named plan holding JSON text once for the places alike that use it, not once per place', () => {
    const shared = { type: 'object', properties: { extra: { type: ['object', 'array'], properties: { a: { type: 'string' } } }, ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, { type: 'object', properties: { q: { type: 'string' } } }])) } }
    const input = { type: 'object', $defs: { shared }, properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${i}`, { $ref: '#/$defs/shared' }])) }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    expect(Object.keys(tool.coercion.defs!)).toEqual(['shared holding text'])
    expect(JSON.stringify(tool.coercion).length).toBeLessThan(2 * JSON.stringify(shared).length)
    const nulls = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${i}`, null]))
    for (const reading of readingsOf(tool.coercion))
      expect(inverseArgs({ ...nulls, s3: { extra: '{"a":null}', other_keys: '{}' }, other_keys: '{}' }, tool, reading)).toEqual({ s3: { extra: { a: null } } })
  })

  it('copy no definition that drops no null, itself or through one it names: a plan that keeps every null is left as it was', () => {
    const node = { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' } } }
    const list = { type: 'array', items: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/list' }] } }
    const input = { type: 'object', $defs: { node, list }, properties: { n: { $ref: '#/$defs/node' }, t: { type: ['object', 'array'], properties: { n: { $ref: '#/$defs/node' }, l: { $ref: '#/$defs/list' } } } } }
    for (const profile of ['gemini', 'anthropic-strict', 'openai-strict'] as const) {
      const tool = compileTool({ name: 't', input }, { profile, preset: 'json-schema' })
      // openai-strict drops nulls in `node`, so that one is copied for the text, and planned for each decoding of its
      // rest key the flat schema spells out (two levels); `list` (nested arrays) drops none.
      expect(Object.keys(tool.coercion.defs!).sort(), profile).toEqual(profile === 'openai-strict' ? ['list', 'node as text', 'node holding text', 'node holding text\''] : ['list', 'node'])
    }
  })

  it('plan a definition reached only inside JSON text once, as text: the plan that drops its nulls is not kept beside it', () => {
    const node = { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' } } }
    const input = { type: 'object', $defs: { node }, properties: { t: { type: ['object', 'array'], properties: { n: { $ref: '#/$defs/node' } } } } }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    expect(Object.keys(tool.coercion.defs!)).toEqual(['node as text'])
    for (const reading of readingsOf(tool.coercion))
      expect(inverseArgs({ t: '{"n":{"name":null,"child":{"name":null}}}', other_keys: '{}' }, tool, reading)).toEqual({ t: { n: { name: null, child: { name: null } } } })
  })

  it('keep the repairs of a union\'s alternatives: a value inside the text sent as JSON text of its own is read as the alternative it fits', () => {
    const u = { anyOf: [
      { type: 'object', properties: { a: { type: 'string' }, k: { type: 'object', properties: { x: { type: 'number' } } } }, required: ['a'] },
      { type: 'object', properties: { b: { type: 'string' }, k: { type: 'array', items: { type: 'number' } } }, required: ['b'] },
    ] }
    const input = { type: 'object', properties: { t: { type: ['object', 'array'], properties: { u } } } }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    expect(tool.decode!.properties!.t!.parse).toBe('json')
    for (const reading of readingsOf(tool.coercion)) {
      expect(inverseArgs({ t: '{"u":{"a":"x","k":"{\\"x\\":1}"}}', other_keys: '{}' }, tool, reading)).toEqual({ t: { u: { a: 'x', k: { x: 1 } } } })
      expect(inverseArgs({ t: '{"u":{"b":"y","k":"[1]"}}', other_keys: '{}' }, tool, reading)).toEqual({ t: { u: { b: 'y', k: [1] } } })
      expect(inverseArgs({ t: '{"u":{"a":"x","b":null,"k":null}}', other_keys: '{}' }, tool, reading)).toEqual({ t: { u: { a: 'x', b: null, k: null } } })
    }
  })
})

describe('nulls inside a rest key\'s JSON text', () => {
  // The rest key holds the original's other keys as JSON text the model wrote: a null there is a value too.
  it('are values at the keys it holds, in every reading', () => {
    const input = { type: 'object', properties: { o: { type: 'object', properties: { a: { type: 'string' } } } } }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    expect(tool.decode!.properties!.o!.rest).toBe('other_keys')
    for (const reading of readingsOf(tool.coercion)) {
      expect(inverseArgs({ o: { a: null, other_keys: '{"x":null}' }, other_keys: '{"y":null}' }, tool, reading), reading).toEqual({ o: { x: null }, y: null })
      // The named key's null still means it was left out.
      expect(inverseArgs({ o: { a: null, other_keys: '{}' }, other_keys: '{}' }, tool, reading), reading).toEqual({ o: {} })
      // A key sent beside the text, even as a null for a key left out, is one the text may not name.
      expect(inverseArgs({ o: { a: null, other_keys: '{"a":"v"}' }, other_keys: '{}' }, tool, reading), reading).toEqual(new RefusedArguments('"other_keys" holds the keys not sent beside it, and "a" was sent beside it too.'))
    }
  })

  it('are values at any depth below it, where a recursive definition the flat schema cut goes on inside the text', () => {
    const node = { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' } } }
    const input = { type: 'object', $defs: { node }, properties: { n: { $ref: '#/$defs/node' } } }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    const inner = { name: 'y', x: null, child: { x: null, child: { x: null } } }
    const written = { n: { name: 'x', child: { other_keys: JSON.stringify(inner) }, other_keys: '{}' }, other_keys: '{}' }
    for (const reading of readingsOf(tool.coercion))
      expect(inverseArgs(written, tool, reading), reading).toEqual({ n: { name: 'x', child: inner } })
  })

  it('are values where an alternative of the same union names that key as optional', () => {
    const input = { type: 'object', properties: { u: { anyOf: [
      { type: 'object', properties: { a: { type: 'string' }, k: { const: 'a' } }, required: ['k'] },
      { type: 'object', properties: { b: { type: 'string' }, k: { const: 'b' } }, required: ['k'] },
    ] } } }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    for (const reading of readingsOf(tool.coercion)) {
      const back = inverseArgs({ u: { k: 'b', b: null, other_keys: '{"a":null}' }, other_keys: '{}' }, tool, reading)
      expect(back, reading).toEqual({ u: { k: 'b', a: null } })
    }
  })

  it('leave a key sent beside the rest key planned as it was: a null below it still stands for a key left out', () => {
    // `c` is required, so the decoding plans nothing at it; its closed object's optional `k` is the coercion plan's to drop.
    const leaf = { type: 'object', properties: { k: { type: 'string' }, j: { type: ['string', 'null'] } }, required: ['j'], additionalProperties: false }
    const input = { type: 'object', properties: { o: { type: 'object', properties: { c: leaf, d: { type: ['string', 'null'] } }, required: ['c', 'd'] } } }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    expect(inverseArgs({ o: { c: { k: null, j: null }, d: null, other_keys: '{"x":null}' }, other_keys: '{}' }, tool)).toEqual({ o: { c: { j: null }, d: null, x: null } })
    // A definition used beside the rest key and again where the flat schema cut it (inside the text).
    const node = { type: 'object', properties: { c: { $ref: '#/$defs/leaf' }, child: { $ref: '#/$defs/node' } }, required: ['c'] }
    const recursive = { type: 'object', $defs: { node, leaf }, properties: { n: { $ref: '#/$defs/node' } } }
    const cut = compileTool({ name: 't', input: recursive }, { profile: 'openai-strict', preset: 'json-schema' })
    const inner = { c: { j: null }, child: { c: { j: null }, child: { c: { j: null, k: 'x' }, x: null } } }
    const written = { n: { c: { k: null, j: null }, child: { other_keys: JSON.stringify(inner) }, other_keys: '{}' }, other_keys: '{}' }
    expect(inverseArgs(written, cut)).toEqual({ n: { c: { j: null }, child: inner } })
  })

  it('leave a record\'s known key sent beside the rest key planned as the record\'s values are', () => {
    // The original plans `m`'s values together (`additional`); the flat schema names `a` and `id` beside its rest key.
    const value = z.union([z.strictObject({ kind: z.literal('r') }), z.object({ kind: z.literal('p'), a: z.string() })])
    const input = z.union([z.object({ m: z.record(z.enum(['a', 'id']), value) }), z.object({ m: z.record(z.string(), z.string()) })])
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict' })
    expect(tool.decode!.properties!.m!.rest).toBe('other_keys')
    const sent = { m: { a: { kind: 'r' }, id: { kind: 'p', a: 'x' } } }
    const written = modelAnswer(tool.inputSchema, tool.decode, sent, { nullsForMissing: true })
    expect(JSON.stringify(written)).toContain('"kind":"r","a":null')
    expect(input.safeParse(inverseArgs(written, tool)).data).toEqual(sent)
  })
})

describe('the inverse map\'s bounds', () => {
  it('JSON text a profile asked for is parsed past the repair limits: a 1.1 MB value and 4,097 encoded cells', () => {
    const payload = compileTool({ name: 'payload', input: z.object({ payload: z.unknown() }) }, { profile: 'openai-strict' })
    const big = { a: 'x'.repeat(1_100_000) }
    expect(inverseArgs({ payload: JSON.stringify(big) }, payload)).toEqual({ payload: big })
    const sheet = compileTool({ name: 'sheet', input: z.object({ cells: z.array(z.union([z.string(), z.number()])) }) }, { profile: 'gemini' })
    expect(sheet.decode).toEqual({ properties: { cells: { items: { parse: 'json' } } } })
    const cells = Array.from({ length: 4097 }, (_, i) => i % 2 ? i : `s${i}`)
    expect(inverseArgs({ cells: cells.map(cell => JSON.stringify(cell)) }, sheet)).toEqual({ cells })
  })

  it('text that is not JSON stays as it came, for the original to judge', () => {
    const sheet = compileTool({ name: 'sheet', input: z.object({ cells: z.array(z.union([z.string(), z.number()])) }) }, { profile: 'gemini' })
    expect(inverseArgs({ cells: ['plain', '{'] }, sheet)).toEqual({ cells: ['plain', '{'] })
  })
})

describe('a union of objects, one of them open, in a strict profile', () => {
  it('reads a null left out where the value has a key from the rest key\'s text that only the open alternative takes', () => {
    const open = { type: 'object', properties: { n: { type: 'object', properties: {}, additionalProperties: false }, b: { type: 'array', items: { type: 'object', properties: { c: { type: 'object', properties: { value: { type: 'null' } } } }, required: ['c'] } } }, required: ['b'] }
    const closed = { type: 'object', properties: { n: { type: 'object', properties: { n: { const: 'x' }, constructor: { type: 'array' } }, required: ['n'], additionalProperties: false } }, required: ['n'], additionalProperties: false }
    const input = { type: 'object', properties: { v: { oneOf: [open, closed] } }, required: ['v'], additionalProperties: false }
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    const value = { v: { n: {}, b: [{ c: { value: null } }], x5: 1 } }
    const written = modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true })
    const back = readingsOf(tool.coercion).map(reading => inverseArgs(written, tool, reading))
    // `x5` came from the rest key's text: no alternative names it, so none fits by its named keys; the
    // open one fits with it passed over, and its null for `n.n` left out is dropped in the first reading.
    expect(tool.coercion.properties!.v!.variants!.map(v => v.open)).toEqual([true, undefined])
    expect(back[0]).toEqual(value)
  })
})

describe('a union of objects whose alternatives plan a key apart, in a strict profile', () => {
  const alternative = (q: object, extra: object, closed: object) => ({ type: 'object', properties: { a: { type: 'object', properties: { q }, required: ['q'], additionalProperties: false }, ...extra }, required: ['a'], ...closed })
  const unionOf = (closed: object) => ({ type: 'object', properties: { v: { anyOf: [alternative({ type: 'string' }, { s: { type: 'string' } }, closed), alternative({ type: ['string', 'null'] }, { t: { type: 'number' } }, closed)] } }, required: ['v'], additionalProperties: false })
  const input = unionOf({})

  it('follows no open alternative where several fit with a key from the rest key\'s text passed over: the union\'s plan keeps the null', () => {
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    const value = { v: { a: { q: null }, x: 1 } }
    const written = modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true })
    expect(inverseArgs(written, tool, readingsOf(tool.coercion)[0])).toEqual(value)
  })

  // Alternatives that fit alike are followed as one plan below the object, keeping a null where any keeps it.
  it('keeps a null below a key sent beside the rest key where an alternative the value fits takes it', () => {
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    // Both alternatives fit: the first drops `a.q`'s null, the second takes it.
    const value = { v: { a: { q: null } } }
    const written = modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true })
    expect(inverseArgs(written, tool, readingsOf(tool.coercion)[0])).toEqual(value)
  })

  it('keeps it where the alternatives are closed too', () => {
    const tool = compileTool({ name: 't', input: unionOf({ additionalProperties: false }) }, { profile: 'openai-strict', preset: 'json-schema' })
    const value = { v: { a: { q: null } } }
    const written = modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true })
    expect(inverseArgs(written, tool, readingsOf(tool.coercion)[0])).toEqual(value)
  })
})

describe('a union of objects that fit alike, only the second planning a discriminated union below', () => {
  // `m` is a plain object in the first alternative, a union told apart by `t` in the second; `x` tells them apart only by its bounds.
  const cases = { anyOf: [{ type: 'object', properties: { t: { const: 'p' }, q: { type: ['string', 'null'] } }, required: ['t', 'q'], additionalProperties: false }, { type: 'object', properties: { t: { const: 'r' }, z: { type: 'string' } }, required: ['t'], additionalProperties: false }] }
  const plain = { type: 'object', properties: { t: { type: 'string' }, q: { type: 'string' } }, required: ['t'], additionalProperties: false }
  const alternative = (x: object, m: object) => ({ type: 'object', properties: { x: { type: 'number', ...x }, n: { type: ['string', 'null'] }, m }, required: ['x', 'n'], additionalProperties: false })
  const input = { type: 'object', properties: { v: { anyOf: [alternative({ minimum: 0 }, plain), alternative({ maximum: -1 }, cases)] } }, required: ['v'], additionalProperties: false }

  it('drops the null the second\'s case drops (`z`, left out), keeping the real nulls (`n`, `m.q`)', () => {
    const tool = compileTool({ name: 't', input }, { profile: 'openai-strict', preset: 'json-schema' })
    const value = { v: { x: -2, n: null, m: { t: 'p', q: null } } }
    const written = modelAnswer(tool.inputSchema, tool.decode, value, { nullsForMissing: true })
    // The later readings drop `n`'s real null, which the original requires: only the first may be accepted.
    expect(inverseArgs(written, tool, readingsOf(tool.coercion)[0])).toEqual(value)
  })
})
