import { defineTool, flat, isFlatSchema } from '@flatmcp/runtime'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'

const Media = z.object({ url: z.string() })
const Send = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string().transform(text => text.trim()) }),
  z.object({ kind: z.literal('mediaGroup'), media: z.array(Media).min(1) }),
])

vi.spyOn(console, 'warn').mockImplementation(() => {})
const sendInput = flat(Send, { name: 'send' })

describe('flat()', () => {
  it('advertises one flat object for every supported target, the same object each time', () => {
    const schema = sendInput['~standard'].jsonSchema.input({ target: 'draft-2020-12' })
    expect(JSON.stringify(schema)).not.toMatch(/"(oneOf|anyOf|allOf|\$schema)"/)
    expect(schema).toMatchObject({ type: 'object', properties: { kind: { enum: ['text', 'mediaGroup'] } }, required: ['kind'] })
    expect(sendInput['~standard'].jsonSchema.input({ target: 'draft-07' })).toBe(schema)
    expect(isFlatSchema(sendInput)).toBe(true)
    expect(isFlatSchema(Send)).toBe(false)
  })

  it('refuses a target it cannot produce, naming the ones it can', () => {
    expect(() => sendInput['~standard'].jsonSchema.input({ target: 'openapi-3.0' })).toThrow(/target "openapi-3.0"; it supports draft-2020-12 and draft-07/)
  })

  it('returns the original output JSON Schema, computed once; a transform\'s output is an error naming it', () => {
    const plain = flat(z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]))
    const output = plain['~standard'].jsonSchema.output({ target: 'draft-2020-12' })
    expect(JSON.stringify(output)).toMatch(/anyOf/)
    expect(plain['~standard'].jsonSchema.output({ target: 'draft-07' })).toBe(output)
    expect(() => sendInput['~standard'].jsonSchema.output({ target: 'draft-2020-12' })).toThrow(/z\.transform\(\) at \/oneOf\/0\/properties\/text/)
  })

  it('validates synchronously when the original does: repairs JSON strings, then the original parses (transforms run)', () => {
    const media = JSON.stringify([{ url: 'u' }])
    expect(sendInput['~standard'].validate({ kind: 'mediaGroup', media })).toEqual({ value: { kind: 'mediaGroup', media: [{ url: 'u' }] } })
    expect(sendInput['~standard'].validate(JSON.stringify({ kind: 'text', text: ' hi ' }))).toEqual({ value: { kind: 'text', text: 'hi' } })
  })

  it('keeps each issue at its path, with a message that names the variant', () => {
    const result = sendInput['~standard'].validate({ kind: 'mediaGroup' }) as { issues: { path: unknown[], message: string }[] }
    expect(result.issues.map(i => [i.path, i.message])).toEqual([[['media'], 'missing required key "media" (array). (for kind "mediaGroup")']])
    expect(sendInput.describe(result.issues as never, { kind: 'mediaGroup' })).toContain('with kind "mediaGroup"')
    const original = flat(Send, { messages: 'original' })['~standard'].validate({ kind: 'mediaGroup' }) as { issues: { message: string }[] }
    expect(original.issues[0]!.message).toMatch(/expected array/)
  })

  it('stays asynchronous when the original is', async () => {
    const slow = flat(z.object({ a: z.string().refine(async value => value === 'ok') }))
    const result = slow['~standard'].validate({ a: 'ok' })
    expect(result).toBeInstanceOf(Promise)
    expect(await result).toEqual({ value: { a: 'ok' } })
  })
})

describe('flat() compiled in the serving process', () => {
  it('runs the author\'s transforms and refines on real values only: its examples come from the JSON Schema alone', () => {
    const seen: unknown[] = []
    const Counted = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), n: z.number().transform((n) => { seen.push(n); return n * 2 }) }),
      z.object({ kind: z.literal('b'), s: z.string().refine((s) => { seen.push(s); return s.length < 100 }) }),
    ])
    const counted = flat(Counted, { name: 'counted' })
    const schema = counted['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as { examples?: unknown[] }
    expect(schema.examples).toEqual([{ kind: 'a', n: 0 }, { kind: 'b', s: 'a' }])
    expect(seen).toEqual([])
    expect(counted['~standard'].validate({ kind: 'a', n: 4 })).toEqual({ value: { kind: 'a', n: 8 } })
    expect(seen).toEqual([4])
  })

  it('so does a server whose tools were not built with the plugin: listing them runs none of the author\'s code', async () => {
    const seen: unknown[] = []
    const tool = defineTool({
      name: 'counted',
      input: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), n: z.number().transform((n) => { seen.push(n); return n }) }),
        z.object({ kind: z.literal('b'), s: z.string() }),
      ]),
      handler: input => JSON.stringify(input),
    })
    const server = createMcpServer([tool], { name: 't', version: '1' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'c', version: '1' })
    await client.connect(clientSide)
    expect((await client.listTools()).tools[0]!.inputSchema.examples).toEqual([{ kind: 'a', n: 0 }, { kind: 'b', s: 'a' }])
    expect(seen).toEqual([])
    await client.callTool({ name: 'counted', arguments: { kind: 'a', n: 3 } })
    expect(seen).toEqual([3])
  })
})

describe('flat() with a target profile', () => {
  const Post = z.object({ kind: z.literal('post'), tag: z.string().optional(), count: z.number().default(1), media: z.union([Media, z.array(Media)]) })

  it('openai-strict: advertises the strict form, and reads a strict model\'s nulls as missing keys', () => {
    const input = flat(Post, { name: 'post', profile: 'openai-strict' })
    const schema = input['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as Record<string, any>
    expect(schema.required).toEqual(['kind', 'tag', 'count', 'media'])
    expect(input['~standard'].validate({ kind: 'post', tag: null, count: null, media: { url: 'u' } })).toEqual({ value: { kind: 'post', count: 1, media: { url: 'u' } } })
  })

  it('gemini: advertises a collided key as JSON text and parses it back', () => {
    const input = flat(Post, { name: 'post', profile: 'gemini' })
    expect((input['~standard'].jsonSchema.input({ target: 'draft-07' }) as Record<string, any>).properties.media.type).toBe('string')
    expect(input['~standard'].validate({ kind: 'post', media: '[{"url":"u"}]' })).toEqual({ value: { kind: 'post', count: 1, media: [{ url: 'u' }] } })
  })

  it('openai-strict: a record and a loose object are closed with a rest key, merged back; a rest key holding no JSON object is refused, naming it', () => {
    const Labels = z.object({ id: z.string(), labels: z.record(z.string(), z.string()), extra: z.looseObject({ name: z.string() }) })
    const input = flat(Labels, { name: 'labels', profile: 'openai-strict' })
    const schema = input['~standard'].jsonSchema.input({ target: 'draft-2020-12' }) as Record<string, any>
    expect(schema.properties.labels).toMatchObject({ type: 'object', properties: { other_keys: { type: 'string' } }, required: ['other_keys'], additionalProperties: false })
    expect(schema.properties.extra.required).toEqual(['name', 'other_keys'])
    const sent = { id: 'a', labels: { other_keys: '{"env":"prod","team":"core"}' }, extra: { name: 'n', other_keys: '{"seen":true}' } }
    expect(input['~standard'].validate(sent)).toEqual({ value: { id: 'a', labels: { env: 'prod', team: 'core' }, extra: { name: 'n', seen: true } } })
    expect(input['~standard'].validate({ ...sent, labels: { other_keys: '{}' }, extra: { name: 'n', other_keys: null } })).toEqual({ value: { id: 'a', labels: {}, extra: { name: 'n' } } })
    // The original still judges what the rest key carried: a label must be a string.
    expect((input['~standard'].validate({ ...sent, labels: { other_keys: '{"env":1}' } }) as { issues?: unknown[] }).issues).toHaveLength(1)
    for (const [held, why] of [['[1]', 'it held "[1]"'], ['not json', 'it held "not json"'], [7, 'it held 7']] as const) {
      const refused = input['~standard'].validate({ ...sent, labels: { other_keys: held } }) as { issues?: { message: string }[] }
      expect(refused.issues?.[0]?.message).toBe(`"other_keys" holds the object's other keys as the JSON text of an object ({} for none); ${why}.`)
    }
    const twice = input['~standard'].validate({ ...sent, extra: { name: 'n', other_keys: '{"name":"m"}' } }) as { issues?: { message: string }[] }
    expect(twice.issues?.[0]?.message).toBe('"other_keys" holds the keys not sent beside it, and "name" was sent beside it too.')
  })

  it('reports the first reading\'s issues when no reading is accepted', () => {
    const input = flat(Post, { name: 'post', profile: 'openai-strict' })
    const result = input['~standard'].validate({ kind: 'post', tag: 5, count: null, media: null }) as unknown as { issues: { path: string[] }[] }
    expect(result.issues.map(issue => issue.path.join('.'))).toEqual(['tag', 'media'])
  })
})

describe('flat() with the MCP SDK 2.x McpServer', () => {
  async function connect() {
    const server = new McpServer({ name: 'v2', version: '1.0.0' }, { capabilities: { tools: {} } })
    const seen: unknown[] = []
    server.registerTool('send', { description: 'Send a message', inputSchema: sendInput }, async (input) => {
      seen.push(input)
      // The handler sees the union: narrowing on kind type-checks.
      const text = input.kind === 'text' ? input.text : `${input.media.length} files`
      return { content: [{ type: 'text', text }] }
    })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(clientSide)
    return { client, seen }
  }

  it('lists the flat schema as given, with no combinator', async () => {
    const { client } = await connect()
    const { tools } = await client.listTools()
    expect(JSON.stringify(tools[0]!.inputSchema)).not.toMatch(/"(oneOf|anyOf|allOf)"/)
    expect(tools[0]!.inputSchema).toEqual(sendInput['~standard'].jsonSchema.input({ target: 'draft-2020-12' }))
  })

  it('serves a double-serialized call, handing the handler the parsed union value', async () => {
    const { client, seen } = await connect()
    const result = await client.callTool({ name: 'send', arguments: { kind: 'mediaGroup', media: JSON.stringify([{ url: 'u' }]) } })
    expect(result.content).toEqual([{ type: 'text', text: '1 files' }])
    expect(seen).toEqual([{ kind: 'mediaGroup', media: [{ url: 'u' }] }])
  })

  it('answers a wrong call with text naming the variant and the missing key', async () => {
    const { client } = await connect()
    const result = await client.callTool({ name: 'send', arguments: { kind: 'mediaGroup' } })
    expect(result.isError).toBe(true)
    const text = (result.content as { text: string }[])[0]!.text
    expect(text).toContain('media')
    expect(text).toContain('kind "mediaGroup"')
  })
})

describe('flat() when the original\'s validate throws', () => {
  const secret = z.object({ token: z.string().refine(() => {
    throw new Error('db password is hunter2')
  }) })

  it('answers "not accepted" with a message that says nothing of the error, and tells onError', async () => {
    const thrown: unknown[] = []
    const schema = flat(secret, { name: 'secret', onError: error => thrown.push(error) })
    const result = await schema['~standard'].validate({ token: 'x' }) as { issues?: { message: string }[] }
    expect(result.issues?.[0]?.message).toMatch(/internal error/)
    expect(JSON.stringify(result)).not.toContain('hunter2')
    expect((thrown[0] as Error).message).toBe('db password is hunter2')
  })

  it('through the SDK 2.x McpServer, the thrown message never reaches the client', async () => {
    const server = new McpServer({ name: 'v2', version: '1.0.0' }, { capabilities: { tools: {} } })
    server.registerTool('secret', { inputSchema: flat(secret, { name: 'secret', onError: () => {} }) }, async () => ({ content: [{ type: 'text', text: 'ok' }] }))
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: 'test', version: '1.0.0' })
    await client.connect(clientSide)
    const result = await client.callTool({ name: 'secret', arguments: { token: 'x' } })
    expect(result.isError).toBe(true)
    expect(JSON.stringify(result)).not.toContain('hunter2')
  })
})
