import type { ToolDefinition } from '@flatmcp/runtime'
import { compileTool } from '@flatmcp/core'
import { attachCompiled, defineTool, toPrecomputed } from '@flatmcp/runtime'
import type { ProfileRequest } from '@flatmcp/runtime/sdk'
import { createMcpServer, framePreserialized } from '@flatmcp/runtime/sdk'
import { createMcpServer as createMcpServerV2 } from '@flatmcp/runtime/server'
import { forgetSaidOnce } from '../src/util/log'
import { createToolService } from '../src/service/tool-service'
import { Client as ClientV2 } from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { SLOW } from '../../../test/support/timeouts'

const Media = z.object({ id: z.string() })
const seen: unknown[] = []

function sendTool(): ToolDefinition {
  return defineTool({
    name: 'send',
    params: z.object({ chatId: z.string() }),
    input: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('message'), text: z.string(), media: Media.optional() }),
      z.object({ kind: z.enum(['mediaGroup', 'album']), media: z.array(Media).min(1) }),
    ]),
    handler: (input, { params }) => {
      seen.push({ input, params })
      return input.kind === 'message' ? `sent ${input.text} to ${params.chatId}` : `sent ${input.media.length}`
    },
  })
}

type Options = Parameters<typeof createMcpServer>[2]

/** A server made by `createMcpServer` on one SDK major, and a client of that major, in memory. */
function connectOn(major: '1.x' | '2.x'): (tools: ToolDefinition[], options?: Options, clientName?: string) => Promise<Client> {
  return async (tools, options, clientName = 'test-client') => {
    if (major === '2.x') {
      const server = createMcpServerV2(tools, { name: 'test', version: '1.0.0' }, options)
      const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair()
      await server.connect(serverSide)
      const client = new ClientV2({ name: clientName, version: '1.0.0' })
      await client.connect(clientSide)
      return client as unknown as Client
    }
    const server = createMcpServer(tools, { name: 'test', version: '1.0.0' }, options)
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: clientName, version: '1.0.0' })
    await client.connect(clientSide)
    return client
  }
}

const text = (result: unknown): string => ((result as { content: { text: string }[] }).content[0]?.text ?? '')

afterEach(() => {
  seen.length = 0
  vi.restoreAllMocks()
  // Lines said once per process: each test (and each SDK major's run of it) hears its own.
  forgetSaidOnce()
})

describe.each(['1.x', '2.x'] as const)('on the MCP SDK %s', (major) => {
  const connect = connectOn(major)

  describe('createMcpServer', () => {
    it('lists the flat schema: one object, no oneOf/anyOf, params merged in', async () => {
      const client = await connect([sendTool()])
      const { tools } = await client.listTools()
      expect(tools).toHaveLength(1)
      const schema = tools[0]!.inputSchema as any
      expect(JSON.stringify(schema)).not.toMatch(/oneOf|anyOf/)
      expect(Object.keys(schema.properties)).toEqual(['chatId', 'kind', 'text', 'media'])
      expect(schema.properties.media.type).toEqual(['object', 'array'])
    })

    it.skipIf(major === '2.x')('serializes the tools/list answer once: the stdio line is the precomputed text', async () => {
      const server = createMcpServer([sendTool()], { name: 'test', version: '1.0.0' })
      const handler = (server as unknown as { _requestHandlers: Map<string, (r: unknown, e: unknown) => Promise<object>> })._requestHandlers.get('tools/list')!
      const request = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }
      const first = await handler(request, {})
      expect(await handler(request, {})).toBe(first)
      const line = framePreserialized({ jsonrpc: '2.0', id: 7, result: first as never })!
      expect(JSON.parse(line)).toEqual({ jsonrpc: '2.0', id: 7, result: JSON.parse(JSON.stringify(first)) })
      expect(line.endsWith('}\n')).toBe(true)
      expect(framePreserialized({ jsonrpc: '2.0', id: 8, result: { tools: [] } })).toBeUndefined()
    })

    it('serves precomputed data as is, without compiling', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      const tool = sendTool()
      const data = toPrecomputed(compileTool(tool))
      data.tool.description = 'precomputed marker'
      const client = await connect([attachCompiled(tool, data)])
      const { tools } = await client.listTools()
      expect(tools[0]!.description).toBe('precomputed marker')
      expect(tools[0]!.inputSchema).toEqual(data.tool.inputSchema)
      expect(warn).not.toHaveBeenCalled()
    })

    it('repairs double-serialized arguments, validates with the original schema and passes the union value', async () => {
      const client = await connect([sendTool()])
      const result = await client.callTool({ name: 'send', arguments: { chatId: 'c1', kind: 'album', media: JSON.stringify([{ id: 'a' }, { id: 'b' }]) } })
      expect(result.isError).toBeFalsy()
      expect(text(result)).toBe('sent 2')
      expect(seen).toEqual([{ input: { kind: 'album', media: [{ id: 'a' }, { id: 'b' }] }, params: { chatId: 'c1' } }])
    })

    it('repairs a value serialized twice (an array of JSON strings, itself sent as a JSON string)', async () => {
      const client = await connect([sendTool()])
      const media = JSON.stringify([JSON.stringify({ id: 'a' }), { id: 'b' }])
      const result = await client.callTool({ name: 'send', arguments: { chatId: 'c1', kind: 'album', media } })
      expect(text(result)).toBe('sent 2')
      expect(seen[0]).toEqual({ input: { kind: 'album', media: [{ id: 'a' }, { id: 'b' }] }, params: { chatId: 'c1' } })
    })

    it('accepts the whole arguments object sent as a JSON string', async () => {
      const client = await connect([sendTool()])
      const result = await client.callTool({ name: 'send', arguments: JSON.stringify({ chatId: 'c1', kind: 'message', text: 'hi', media: JSON.stringify({ id: 'm' }) }) as never })
      expect(text(result)).toBe('sent hi to c1')
      expect(seen[0]).toEqual({ input: { kind: 'message', text: 'hi', media: { id: 'm' } }, params: { chatId: 'c1' } })
    })

    it('a wrong tag lists the allowed values', async () => {
      const client = await connect([sendTool()])
      const result = await client.callTool({ name: 'send', arguments: { chatId: 'c', kind: 'photo' } })
      expect(result.isError).toBe(true)
      expect(text(result)).toBe('Invalid arguments for tool "send":\n- kind: must be one of "message", "mediaGroup", "album" (got "photo").')
    })

    it('a missing or unknown key names the selected variant', async () => {
      const client = await connect([sendTool()])
      const missing = await client.callTool({ name: 'send', arguments: { chatId: 'c', kind: 'message', media: { id: 'm' }, caption: 'x' } })
      expect(missing.isError).toBe(true)
      expect(text(missing)).toBe('Invalid arguments for tool "send" with kind "message":\n- missing required key "text" (string).\n- key "caption" is not accepted here.')
      const wrongType = await client.callTool({ name: 'send', arguments: { chatId: 'c', kind: 'album', media: { id: 'm' } } })
      expect(text(wrongType)).toBe('Invalid arguments for tool "send" with kind "album":\n- media: expected array, got object.')
      const params = await client.callTool({ name: 'send', arguments: { kind: 'message', text: 't' } })
      expect(text(params)).toBe('Invalid arguments for tool "send":\n- missing required key "chatId" (string).')
      expect(seen).toEqual([])
    })

    it('a handler that throws gives an error result with its message, no stack', async () => {
      const failing = defineTool({ name: 'fail', input: z.object({}), handler: () => { throw new Error('backend down') } })
      const client = await connect([failing])
      const result = await client.callTool({ name: 'fail', arguments: {} })
      expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'Tool "fail" failed: backend down' }] })
    })

    it('an unknown tool is a protocol error naming the available tools', async () => {
      const client = await connect([sendTool()])
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool "nope". Available tools: send/)
    })

    it('returns structured content for a tool with an output schema', async () => {
      const count = defineTool({ name: 'count', input: z.object({ q: z.string() }), output: z.object({ n: z.number() }), handler: ({ q }) => ({ n: q.length }) })
      const client = await connect([count])
      const { tools } = await client.listTools()
      expect(tools[0]!.outputSchema).toMatchObject({ type: 'object', properties: { n: { type: 'number' } } })
      const result = await client.callTool({ name: 'count', arguments: { q: 'abc' } })
      expect(result.structuredContent).toEqual({ n: 3 })
    })

    it('compiles lazily without precomputed data, warning once', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
      const { compileLazily } = await import('../src/precomputed/compiler')
      // The warning is once per process; a fresh module would reset it, so count from here.
      const before = warn.mock.calls.length
      await compileLazily(sendTool(), undefined)
      await compileLazily(sendTool(), undefined)
      expect(warn.mock.calls.length - before).toBeLessThanOrEqual(1)
    })

    it('rejects two tools with one name', () => {
      expect(() => createMcpServer([sendTool(), sendTool()], { name: 't', version: '1' })).toThrow(/two tools are named "send"/)
    })
  })

  describe('a profile per session', () => {
    /** `send` as a build with `profiles: ['portable', 'openai-strict', 'gemini']` leaves it. */
    function builtSend(profiles: ('openai-strict' | 'gemini')[] = ['openai-strict', 'gemini']): ToolDefinition {
      const tool = sendTool()
      return attachCompiled(tool, toPrecomputed(compileTool(tool), profiles.map(profile => compileTool(tool, { profile }))))
    }
    const schemaOf = async (client: Client): Promise<Record<string, any>> => (await client.listTools()).tools[0]!.inputSchema
    const pick = ({ clientInfo }: ProfileRequest): string | undefined => clientInfo?.name === 'strict-agent' ? 'openai-strict' : clientInfo?.name === 'gemini-agent' ? 'gemini' : undefined

    it('by default every client gets the same list, the base profile, whatever name it gives', async () => {
      const tools = [builtSend()]
      const lists = []
      for (const name of ['gemini-cli-mcp-client', 'claude-code', 'codex-mcp-client', 'test-client']) {
        const client = await connect(tools, {}, name)
        lists.push(JSON.stringify((await client.listTools()).tools))
        await client.close()
      }
      expect(new Set(lists).size).toBe(1)
      expect(JSON.parse(lists[0]!)[0].inputSchema.properties.media.type).toEqual(['object', 'array'])
    })

    it('a profile name no build made and flatmcp does not know, or an option it does not take, is refused at createMcpServer with the names there are', () => {
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
      try {
        expect(() => createMcpServer([builtSend()], { name: 's', version: '1' }, { profile: 'gemni' })).toThrow('createMcpServer: unknown profile "gemni" (did you mean "gemini"?); the profiles are "portable", "minimal", "openai-strict", "anthropic-strict", "gemini" (these tools were built with "openai-strict", "gemini")')
        expect(() => createMcpServerV2([sendTool()], { name: 's', version: '1' }, { profile: 'strict' })).toThrow(/unknown profile "strict"; the profiles are "portable", "minimal", "openai-strict", "anthropic-strict", "gemini"$/)
        expect(() => createMcpServer([builtSend()], { name: 's', version: '1' }, { profil: 'gemini' } as never)).toThrow('createMcpServer: unknown option "profil" (did you mean "profile"?); its options are extend,')
        // A profile flatmcp knows that this build left out is served as the base profile, said once (as before).
        expect(() => createMcpServer([builtSend(['gemini'])], { name: 's', version: '1' }, { profile: 'anthropic-strict' })).not.toThrow()
      }
      finally {
        stderr.mockRestore()
      }
    })

    it('a choice that names an inherited key, a profile the build lacks, or throws is served the base profile, the reason on stderr only', async () => {
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
      try {
        for (const [tools, profile] of [
          [[builtSend()], () => 'constructor'],
          [[builtSend(['gemini'])], () => 'openai-strict'],
          [[sendTool()], () => 'toString'],
          [[builtSend()], () => { throw new Error('secret-token-123') }],
        ] as [ToolDefinition[], () => string][]) {
          const client = await connect(tools, { profile })
          const listed = (await client.listTools()).tools[0]!.inputSchema as Record<string, any>
          expect(listed.properties.media.type).toEqual(['object', 'array'])
          const answer = await client.callTool({ name: 'send', arguments: { chatId: 'c', kind: 'message', text: 'hi' } })
          expect(text(answer)).toBe('sent hi to c')
          expect(JSON.stringify(answer)).not.toContain('secret-token-123')
          await client.close()
        }
        expect(stderr.mock.calls.map(call => String(call[0])).join('')).toContain('the profile choice failed (secret-token-123); serving the base profile (said once).')
      }
      finally {
        stderr.mockRestore()
      }
    })

    it('an async choice is awaited; one that rejects, gives what is no name, or takes over 2 s is served the base profile with one line, and no request ends the process', async () => {
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
      const unhandled: unknown[] = []
      const onUnhandled = (reason: unknown): void => {
        unhandled.push(reason)
      }
      process.on('unhandledRejection', onUnhandled)
      try {
        const tools = [builtSend()]
        const gemini = await connect(tools, { profile: async () => 'gemini' })
        expect((await schemaOf(gemini)).properties.media).toMatchObject({ type: 'string' })
        await gemini.close()
        const base = JSON.stringify((await schemaOf(await connect(tools))))
        for (const profile of [async () => Promise.reject(new Error('db down')), () => 42 as never, async () => ({ name: 'gemini' }) as never, () => new Promise<string>(resolve => setTimeout(() => resolve('gemini'), 2500))]) {
          for (let request = 0; request < 3; request++) {
            const client = await connect(tools, { profile })
            expect(JSON.stringify(await schemaOf(client))).toBe(base)
            expect(text(await client.callTool({ name: 'send', arguments: { chatId: 'c', kind: 'message', text: 'hi' } }))).toBe('sent hi to c')
            await client.close()
          }
        }
        await new Promise(resolve => setTimeout(resolve, 50))
        expect(unhandled).toEqual([])
        const lines = stderr.mock.calls.map(call => String(call[0])).filter(line => line.includes('profile choice'))
        expect(lines).toEqual([
          'flatmcp: the profile choice failed (db down); serving the base profile (said once).\n',
          'flatmcp: the profile choice gave number, not a profile name or undefined; serving the base profile (said once).\n',
          'flatmcp: the profile choice took longer than 2000 ms; serving the base profile (said once).\n',
        ])
      }
      finally {
        process.off('unhandledRejection', onUnhandled)
        stderr.mockRestore()
      }
    }, SLOW)

    it('whatever a choice does, sync or async, every request is answered with the profile it names or the base one (property)', async () => {
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
      try {
        const tools = [builtSend()]
        const lists = new Map<string | undefined, string>()
        for (const profile of [undefined, 'openai-strict', 'gemini']) {
          const client = await connect(tools, profile === undefined ? {} : { profile })
          lists.set(profile, JSON.stringify(await schemaOf(client)))
          await client.close()
        }
        const behaviours = fc.oneof(
          fc.constantFrom('openai-strict', 'gemini', 'constructor', 'nope', undefined).map(name => ({ expect: name === 'openai-strict' || name === 'gemini' ? name : undefined, choice: (): string | undefined => name })),
          fc.constantFrom('openai-strict', 'gemini').map(name => ({ expect: name, choice: async (): Promise<string> => name })),
          fc.string({ maxLength: 20 }).map(message => ({ expect: undefined, choice: (): never => { throw new Error(message) } })),
          fc.string({ maxLength: 20 }).map(message => ({ expect: undefined, choice: async (): Promise<never> => { throw new Error(message) } })),
          fc.anything().filter(value => typeof value !== 'string' && value !== undefined).map(value => ({ expect: undefined, choice: () => value as never })),
        )
        await fc.assert(fc.asyncProperty(behaviours, async ({ expect: named, choice }) => {
          const client = await connect(tools, { profile: choice as never })
          try {
            expect(JSON.stringify(await schemaOf(client))).toBe(lists.get(named))
          }
          finally {
            await client.close()
          }
        }), { numRuns: 60 })
      }
      finally {
        stderr.mockRestore()
      }
    })

    it('two clients of one server factory each get their profile\'s list, and each one\'s model-shaped call succeeds', async () => {
      const tools = [builtSend()]
      const gemini = await connect(tools, { profile: pick }, 'gemini-agent')
      const strict = await connect(tools, { profile: pick }, 'strict-agent')
      const plain = await connect(tools, { profile: pick })
      expect((await schemaOf(gemini)).properties.media).toMatchObject({ type: 'string' })
      expect((await schemaOf(strict)).required).toEqual(['chatId', 'kind', 'text', 'media'])
      expect((await schemaOf(plain)).properties.media.type).toEqual(['object', 'array'])
      // Gemini writes the collided key as JSON text; a strict model writes null for what it does not mean.
      expect(text(await gemini.callTool({ name: 'send', arguments: { chatId: 'c', kind: 'mediaGroup', media: '[{"id":"a"},{"id":"b"}]' } }))).toBe('sent 2')
      expect(text(await strict.callTool({ name: 'send', arguments: { chatId: 'c', kind: 'message', text: 'hi', media: null } }))).toBe('sent hi to c')
      // The same null from a portable session is what it looks like: a value the original rejects.
      const rejected = await plain.callTool({ name: 'send', arguments: { chatId: 'c', kind: 'message', text: 'hi', media: null } })
      expect(rejected.isError).toBe(true)
      for (const client of [gemini, strict, plain])
        await client.close()
    })

    it('a tool without build data is compiled for the profile a session asks for', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {})
      const client = await connect([sendTool()], { profile: 'openai-strict' })
      expect((await schemaOf(client)).additionalProperties).toBe(false)
      expect(text(await client.callTool({ name: 'send', arguments: { chatId: 'c', kind: 'mediaGroup', media: [{ id: 'a' }], text: null } }))).toBe('sent 1')
      await client.close()
    })

    it('a profile the build did not include is said once on stderr when the server is made, and served as the base profile', async () => {
      const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
      createMcpServer([builtSend(['openai-strict'])], { name: 'test', version: '1.0.0' }, { profile: 'anthropic-strict' })
      const said = (): string[] => errors.mock.calls.map(call => String(call[0])).filter(line => line.includes('anthropic-strict'))
      expect(said()).toEqual(['flatmcp: profile "anthropic-strict" was not built for tool "send"; add it to the plugin\'s `profiles` option. Serving the base profile (said once).\n'])
      const client = await connect([builtSend(['openai-strict'])], { profile: 'anthropic-strict' })
      expect(await schemaOf(client)).toEqual(compileTool(sendTool()).inputSchema)
      expect(said()).toHaveLength(1)
      await client.close()
    })
  })

  describe('extend: fields every tool shares', () => {
    const extend = {
      schema: z.object({ tenant: z.string().describe('Which workspace') }),
      resolve: vi.fn(async (fields: { tenant: string }) => ({ workspace: fields.tenant.toUpperCase() })),
    }

    it('advertises the fields on every tool, resolves them once per call and hides them from the tool', async () => {
      const received: unknown[] = []
      const echo = defineTool({ name: 'echo', input: z.strictObject({ word: z.string() }), handler: (input, { context }) => {
        received.push({ input, context })
        return input.word
      } })
      const client = await connect([echo, sendTool()], { extend })
      const { tools } = await client.listTools()
      for (const tool of tools) {
        expect((tool.inputSchema as any).properties.tenant).toEqual({ description: 'Which workspace', type: 'string' })
        expect(tool.inputSchema.required).toContain('tenant')
      }
      const result = await client.callTool({ name: 'echo', arguments: { tenant: 'acme', word: 'hi' } })
      expect(result.isError).toBeFalsy()
      expect(received).toEqual([{ input: { word: 'hi' }, context: { workspace: 'ACME' } }])
      expect(extend.resolve).toHaveBeenCalledTimes(1)
      const missing = await client.callTool({ name: 'echo', arguments: { word: 'hi' } })
      expect(text(missing)).toMatch(/missing required key "tenant"/)
    })

    it('refuses precomputed tools built with other shared fields than the server has', () => {
      const plain = defineTool({ name: 'plain', input: z.object({ a: z.string() }), handler: () => 'x' })
      attachCompiled(plain, toPrecomputed(compileTool(plain)))
      expect(() => createMcpServer([plain], { name: 't', version: '1' }, { extend })).toThrow(/tool "plain" was built without the shared extend fields/)
      const shared = defineTool({ name: 'shared', input: z.object({ a: z.string() }), handler: () => 'x' })
      attachCompiled(shared, toPrecomputed(compileTool(shared, { extend: { schema: extend.schema } })))
      expect(() => createMcpServer([shared], { name: 't', version: '1' })).toThrow(/tool "shared" was built with shared extend fields \(tenant\)/)
    })

    it('a clash between a shared field and a tool\'s own key is an error naming both', async () => {
      const clash = defineTool({ name: 'clash', input: z.object({ tenant: z.number() }), handler: () => 'x' })
      expect(() => compileTool(clash, { extend: { schema: extend.schema } }))
        .toThrow(/tool "clash" input at \/properties\/tenant: key "tenant" is declared in both the shared extend fields and input/)
      const client = await connect([clash], { extend })
      await expect(client.listTools()).rejects.toThrow(/key "tenant" is declared in both the shared extend fields and input/)
    })
  })

  describe('messages for unions without a discriminator', () => {
    it('name what the closest alternative still needs', async () => {
      const contact = defineTool({
        name: 'contact',
        input: z.object({ to: z.union([z.object({ email: z.string() }), z.object({ phone: z.string(), country: z.string() })]) }),
        handler: () => 'ok',
      })
      const client = await connect([contact])
      const result = await client.callTool({ name: 'contact', arguments: { to: { email: 5 } } })
      expect(text(result)).toBe('Invalid arguments for tool "contact":\n- to: matches none of the allowed shapes; the closest needs: to.email: expected string, got number.')
    })
  })

  describe('hostile arguments', () => {
    it('neither crash nor stall the server', async () => {
      const client = await connect([sendTool()])
      let deep: unknown = 'end'
      for (let i = 0; i < 10_000; i++)
        deep = { id: deep }
      const huge = 'x'.repeat(1 << 20)
      const calls: Record<string, unknown>[] = [
        { chatId: 'c', kind: 'message', text: 'x', media: deep },
        { chatId: 'c', kind: 'album', media: `[${'['.repeat(5000)}${']'.repeat(5000)}]` },
        { chatId: huge, kind: 'message', text: huge, media: `{"id":"${huge}"}` },
        { chatId: 'c', kind: 'message', text: 't', __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } },
      ]
      for (const args of calls) {
        const result = await client.callTool({ name: 'send', arguments: args as never })
        expect(result.content).toBeDefined()
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      expect((await client.listTools()).tools).toHaveLength(1)
    })
  })

  describe('failures outside the handler are tool results, their messages only in the log', () => {
    const SECRET = 'db down: postgres://admin:pw@10.0.0.5/prod'

    it('a refine or transform that throws, a non-Error throw, and extend.resolve failing', async () => {
      const logged: { error: unknown, phase: string }[] = []
      const onError = (error: unknown, where: { phase: string }): void => {
        logged.push({ error, phase: where.phase })
      }
      const refining = defineTool({ name: 'refining', input: z.object({ a: z.string().refine(() => { throw new Error(SECRET) }) }), handler: () => 'no' })
      const transforming = defineTool({ name: 'transforming', input: z.object({ a: z.string().transform(() => { throw SECRET }) }), handler: () => 'no' })
      const client = await connect([refining, transforming], { onError })
      for (const name of ['refining', 'transforming']) {
        const result = await client.callTool({ name, arguments: { a: 'x' } })
        expect(result.isError).toBe(true)
        expect(text(result)).toContain(`Tool "${name}" could not check its arguments`)
        expect(text(result)).not.toContain('postgres')
      }
      expect(logged.map(l => l.phase)).toEqual(['validate', 'validate'])
      expect(String((logged[0]!.error as Error).message)).toBe(SECRET)

      const shared = await connect([defineTool({ name: 'plain', input: z.object({}), handler: () => 'ok' })], {
        onError,
        extend: { schema: z.object({ tenant: z.string() }), resolve: () => { throw new Error(SECRET) } },
      })
      const failed = await shared.callTool({ name: 'plain', arguments: { tenant: 't' } })
      expect(failed.isError).toBe(true)
      expect(text(failed)).not.toContain('postgres')
      expect(logged.at(-1)!.phase).toBe('extend')
    })

    it('without onError the message goes to stderr, not to the model', async () => {
      const lines: string[] = []
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk))
        return true
      })
      const client = await connect([defineTool({ name: 'r', input: z.object({ a: z.string().refine(() => { throw new Error(SECRET) }) }), handler: () => 'no' })])
      const result = await client.callTool({ name: 'r', arguments: { a: 'x' } })
      expect(text(result)).not.toContain('postgres')
      expect(lines.join('')).toContain(SECRET)
    })

    it('echoed input is capped: a 10 MB discriminator value and a 3 MB tool name', async () => {
      const client = await connect([sendTool()])
      const huge = 'x'.repeat(10_000_000)
      const result = await client.callTool({ name: 'send', arguments: { chatId: 'c', kind: huge } })
      expect(result.isError).toBe(true)
      expect(text(result).length).toBeLessThan(2000)
      const unknown = await client.callTool({ name: 'y'.repeat(3_000_000), arguments: {} }).catch((error: Error) => error)
      expect(String((unknown as Error).message ?? JSON.stringify(unknown)).length).toBeLessThan(2000)
    })
  })
})

describe('cache hints on tools/list (MCP 2026-07-28)', () => {
  it('a list that cannot vary is public, one a choice function may vary is private, an hour each; both can be set; a bad hint fails at start-up', async () => {
    const hints = async (options: Parameters<typeof createToolService>[1]): Promise<unknown> => {
      const { ttlMs, cacheScope } = await createToolService([sendTool()], options, message => new Error(message)).list()
      return { ttlMs, cacheScope }
    }
    expect(await hints({})).toEqual({ ttlMs: 3_600_000, cacheScope: 'public' })
    expect(await hints({ profile: 'gemini' })).toEqual({ ttlMs: 3_600_000, cacheScope: 'public' })
    expect(await hints({ profile: () => undefined })).toEqual({ ttlMs: 3_600_000, cacheScope: 'private' })
    expect(await hints({ profile: () => undefined, cache: { ttlMs: 0, scope: 'public' } })).toEqual({ ttlMs: 0, cacheScope: 'public' })
    expect(() => createMcpServer([sendTool()], { name: 't', version: '1' }, { cache: { ttlMs: -1 } })).toThrow(/cache\.ttlMs must be a non-negative integer/)
    expect(() => createMcpServerV2([sendTool()], { name: 't', version: '1' }, { cache: { scope: 'shared' as never } })).toThrow(/cache\.scope must be "public" or "private"/)
  })
})

describe('the start-up warning for a tool without precomputed data', () => {
  it('tells "not built with the plugin" apart from "built, but its module was not matched"', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const tool = defineTool({ name: 'unmatched', input: z.object({ a: z.string() }), handler: () => 'x' })
    vi.resetModules()
    const first = await import('../src/precomputed/compiler')
    const registry = (globalThis as Record<symbol, Map<string, unknown> | undefined>)[Symbol.for('flatmcp.precomputed')]
    registry?.clear()
    await first.compileLazily(tool, undefined)
    expect(warn.mock.calls[0]![0]).toContain('Build with unplugin-flatmcp to skip this')
    vi.resetModules()
    const second = await import('../src/precomputed/compiler')
    const { registerPrecomputed } = await import('../src/precomputed/registry')
    const { toPrecomputed } = await import('../src/artifact/precomputed')
    registerPrecomputed({ other: toPrecomputed(compileTool(tool)) })
    await second.compileLazily(tool, undefined)
    expect(warn.mock.calls[1]![0]).toContain('its module was not matched by the plugin\'s `include`')
    ;(globalThis as Record<symbol, Map<string, unknown> | undefined>)[Symbol.for('flatmcp.precomputed')]?.clear()
  })
})

describe('a server that cannot be made', () => {
  it('says why on stderr once, though the SDK\'s serving entry answers its factory\'s error as -32603 and says nothing', async () => {
    const { createMcpHandler } = await import('@modelcontextprotocol/server')
    forgetSaidOnce()
    const lines: string[] = []
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk))
      return true
    })
    try {
      const noHandler = [{ name: 'send', input: z.object({}) }] as unknown as ToolDefinition[]
      const handler = createMcpHandler(() => createMcpServerV2(noHandler, { name: 't', version: '1' }))
      const initialize = (): Request => new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }) })
      for (let i = 0; i < 3; i++) {
        const text = await (await handler.fetch(initialize())).text()
        expect(text).toContain('-32603')
      }
      expect(lines).toEqual(['flatmcp: createMcpServer: every tool needs a name and a handler (use defineTool)\n'])
      lines.length = 0
      expect(() => createMcpServer([defineTool({ name: 'a', input: z.object({}), handler: () => 'ok' })], { name: 't', version: '1' }, { cache: { ttlMs: -1 } })).toThrow(RangeError)
      expect(lines).toEqual(['flatmcp: createMcpServer: cache.ttlMs must be a non-negative integer of milliseconds (got -1)\n'])
    }
    finally {
      write.mockRestore()
    }
  })
})
