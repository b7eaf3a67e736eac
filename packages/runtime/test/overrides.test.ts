// Operator overrides of tools they did not write: a tool hidden (not listed, not callable), a
// parameter hidden or fixed (out of every profile's schema, set on every call, checked against the
// upstream's schema), a description replaced, Claude Code's hints marked; said at start-up, recorded
// in a snapshot, and served the same by the fetch handler.
import type { UpstreamClient, UpstreamTool } from '@flatmcp/runtime/proxy'
import { applyOverrides, createProxy, describeOverrides, readOverrides, SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { createProxyHandler } from '@flatmcp/runtime/proxy/fetch'
import { recordingHandler } from '../../../test/support/recording-handler'
import { Client, InMemoryTransport } from '@modelcontextprotocol/client'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'

const TOOLS: UpstreamTool[] = [
  { name: 'search', description: 'Searches code.', inputSchema: { type: 'object', properties: { q: { type: 'string' }, org: { type: 'string', enum: ['acme', 'other'] }, debug: { type: 'boolean' } }, required: ['q', 'org'], additionalProperties: false } },
  { name: 'delete_repo', description: 'Deletes a repository.', inputSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'] } },
]
const OVERRIDES = readOverrides({
  tools: {
    search: { description: 'Searches Acme\'s code.', alwaysLoad: true, searchHint: 'ripgrep source', params: { org: { fix: 'acme' }, debug: { hide: true } } },
    delete_repo: { hide: true },
  },
})

function fakeUpstream(tools: UpstreamTool[]): UpstreamClient & { calls: unknown[] } {
  const calls: unknown[] = []
  return {
    calls,
    request: async (message: { method: string, params?: Record<string, unknown> }) => {
      if (message.method === 'tools/list')
        return { tools }
      calls.push(message.params)
      return { content: [{ type: 'text', text: 'ok' }] }
    },
    notification: async () => {},
    getServerCapabilities: () => ({ tools: {} }),
    getServerVersion: () => ({ name: 'fake', version: '1' }),
    getInstructions: () => undefined,
    setNotificationHandler: () => {},
  } as never
}

const ajv = new Ajv2020({ strict: false })
const validator = (schema: object) => (value: unknown) => ajv.validate(schema, value)

async function clientOf(proxy: Awaited<ReturnType<typeof createProxy>>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await proxy.server().connect(serverSide)
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
  return client
}

describe('operator overrides', () => {
  it('hide a tool, hide and fix parameters, replace a description and mark the hints, said on stderr, in every profile', async () => {
    const lines: string[] = []
    const upstream = fakeUpstream(TOOLS)
    const proxy = await createProxy(upstream, { overrides: OVERRIDES, validator, profiles: ['openai-strict'], log: line => lines.push(line) })
    expect(lines).toEqual([
      'flatmcp proxy: tool "search": description replaced, "org" fixed to "acme", "debug" hidden, alwaysLoad true, searchHint "ripgrep source" (overrides)',
      'flatmcp proxy: tool "delete_repo" hidden (overrides)',
    ])
    const client = await clientOf(proxy)
    const { tools } = await client.listTools()
    expect(tools.map(tool => tool.name)).toEqual(['search'])
    expect(tools[0]).toMatchObject({ description: 'Searches Acme\'s code.', _meta: { 'anthropic/alwaysLoad': true, 'anthropic/searchHint': 'ripgrep source' } })
    expect(Object.keys(tools[0]!.inputSchema.properties!)).toEqual(['q'])
    expect(tools[0]!.inputSchema.required).toEqual(['q'])
    const strict = (await createProxy(fakeUpstream(TOOLS), { overrides: OVERRIDES, validator, profile: 'openai-strict', log: () => {} }))
    expect(Object.keys((await (await clientOf(strict)).listTools()).tools[0]!.inputSchema.properties!)).toEqual(['q'])

    // The fixed value goes upstream whatever the client sent; the hidden tool is no tool.
    // A hidden parameter a client sends anyway does not get through.
    expect(await client.callTool({ name: 'search', arguments: { q: 'x', org: 'other', debug: true } })).toMatchObject({ content: [{ text: 'ok' }] })
    expect(upstream.calls).toEqual([{ name: 'search', arguments: { q: 'x', org: 'acme' } }])
    await expect(client.callTool({ name: 'delete_repo', arguments: { repo: 'r' } })).rejects.toThrow(/Unknown tool "delete_repo"/)
    expect(upstream.calls).toHaveLength(1)

    // The snapshot records them; the fetch handler serves it the same.
    const snapshot = proxy.snapshot('flatmcp@test')
    expect(snapshot.overrides).toEqual({ file: OVERRIDES, fixed: { search: { org: { value: 'acme', schema: { type: 'string', enum: ['acme', 'other'] } } } } })
    const recording = recordingHandler(snapshot)
    const { forwarded, handler } = recording
    const post = async (body: object): Promise<unknown> => (await recording.post(body)).json()
    const listed = (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as { result: { tools: { name: string }[], cacheScope: string } }
    expect(listed.result.tools.map(tool => tool.name)).toEqual(['search'])
    expect(listed.result.cacheScope).toBe('public')
    // A caller with a credential of its own: no shared cache may answer another with its list.
    const credentialed = await handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'authorization': 'Bearer mine' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }))
    expect(((await credentialed.json()) as { result: { cacheScope: string } }).result.cacheScope).toBe('private')
    await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { q: 'y', org: 'other', debug: true } } })
    expect((forwarded[0] as { params: { arguments: unknown } }).params.arguments).toEqual({ q: 'y', org: 'acme' })
    expect(await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'delete_repo', arguments: { repo: 'r' } } })).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Unknown tool "delete_repo".' } })
    expect(forwarded).toHaveLength(1)
  })

  it('refuses what cannot hold, naming the JSON path: a fixed value the upstream\'s schema does not take, a required parameter hidden, a parameter the tool lacks, a file of another shape', async () => {
    const fixedWrong = readOverrides({ tools: { search: { params: { org: { fix: 'nobody' } } } } })
    await expect(createProxy(fakeUpstream(TOOLS), { overrides: fixedWrong, validator, log: () => {} })).rejects.toThrow('overrides.tools["search"].params["org"].fix: "nobody" is not a value the upstream\'s schema of "org" takes')
    await expect(createProxy(fakeUpstream(TOOLS), { overrides: readOverrides({ tools: { search: { params: { org: { hide: true } } } } }), log: () => {} })).rejects.toThrow('overrides.tools["search"].params["org"]: "org" is required by tool "search": fix its value instead')
    await expect(createProxy(fakeUpstream(TOOLS), { overrides: readOverrides({ tools: { search: { params: { nope: { hide: true } } } } }), log: () => {} })).rejects.toThrow('tool "search" has no parameter "nope" at the root of its input (it has "q", "org", "debug")')
    expect(() => readOverrides({ tool: {} })).toThrow('overrides: needs "tools"')
    // With many servers: each server's prefix and the separator, checked.
    expect(readOverrides({ servers: { github: { prefix: 'gh' } }, separator: '-' })).toEqual({ servers: { github: { prefix: 'gh' } }, separator: '-', tools: {} })
    expect(() => readOverrides({ servers: { github: { prefix: 'g.h' } } })).toThrow('overrides.servers["github"].prefix: must be letters, digits, _ or -')
    expect(() => readOverrides({ servers: { github: { name: 'x' } } })).toThrow('overrides.servers["github"]: must be {"prefix": "…"}')
    expect(() => readOverrides({ separator: '::' })).toThrow('overrides.separator: must be letters, digits, _ or -')
    expect(() => readOverrides({ tools: {}, extra: 1 })).toThrow('overrides.extra: is not an overrides key ("tools", "views"; with --config, "servers" and "separator")')
    expect(() => readOverrides({ views: { 'a b': {} } })).toThrow('overrides.views["a b"]: a view\'s name is letters, digits, _ or - (64 at most)')
    expect(() => readOverrides({ views: { triage: { surface: 'lean' } } })).toThrow('overrides.views["triage"].surface: must be "full" or "search"')
    expect(() => readOverrides({ views: { triage: { tools: 'search' } } })).toThrow('overrides.views["triage"].tools: must be a list of tool names, as served')
    expect(() => readOverrides({ tools: { search: { hidden: true } } })).toThrow('overrides.tools["search"].hidden: is not a tool override')
    expect(() => readOverrides({ tools: { search: { params: { org: { fix: 1, hide: true } } } } })).toThrow('overrides.tools["search"].params["org"]: must be {"hide": true}, {"fix": value}, {"default": value} or {"optional": true}')
    const lines: string[] = []
    await createProxy(fakeUpstream(TOOLS), { overrides: readOverrides({ tools: { gone: { hide: true } } }), log: line => lines.push(line) })
    expect(lines).toContain('flatmcp proxy: the overrides name tool "gone", which the upstream does not list; nothing to change there')
  })

  it('names the key, parameter or tool a mistyped one was meant as, and says an override as applied only once it held against the list', async () => {
    const said: string[] = []
    await expect(createProxy(fakeUpstream(TOOLS), { overrides: readOverrides({ tools: { search: { params: { ogr: { hide: true } } } } }), log: line => said.push(line) })).rejects.toThrow('tool "search" has no parameter "ogr" (did you mean "org"?) at the root of its input')
    expect(said.filter(line => line.includes('(overrides)'))).toEqual([])
    expect(() => readOverrides({ tools: { search: { hiden: true } } })).toThrow('overrides.tools["search"].hiden: is not a tool override (did you mean "hide"?)')
    expect(() => readOverrides({ tool: {}, views: {} })).toThrow('overrides.tool: is not an overrides key (did you mean "tools"?)')
    await createProxy(fakeUpstream(TOOLS), { overrides: readOverrides({ tools: { serch: { hide: true } } }), log: line => said.push(line) })
    expect(said).toContain('flatmcp proxy: the overrides name tool "serch" (did you mean "search"?), which the upstream does not list; nothing to change there')
  })

  it('the fetch handler refuses a body it cannot read, or one that spells a key otherwise, and forwards only what it read: no hidden tool runs, no fixed value is replaced', async () => {
    const snapshot = (await createProxy(fakeUpstream(TOOLS), { overrides: OVERRIDES, validator, log: () => {} })).snapshot('flatmcp@test')
    const forwarded: string[] = []
    const handler = createProxyHandler({
      upstream: 'http://upstream.invalid/mcp',
      snapshot,
      fetch: async (request) => {
        forwarded.push(await request.text())
        return new Response('{"jsonrpc":"2.0","id":1,"result":{"content":[]}}', { headers: { 'content-type': 'application/json' } })
      },
    })
    const post = async (body: string): Promise<{ status: number, body: { error?: { code: number, message: string } } }> => {
      const response = await handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))
      return { status: response.status, body: await response.json() as never }
    }
    const refused = [
      // Python's json.loads takes NaN; JSON.parse does not.
      ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_repo","arguments":{"repo":NaN}}}', -32700, 'Parse error: the body is not JSON.'],
      ['[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_repo","arguments":{"repo":"r"}}},1]', -32600, 'Invalid Request: member 1 of the batch is not a JSON-RPC message (an object).'],
      // Go's decoder matches keys without case.
      ['{"jsonrpc":"2.0","id":1,"Method":"tools/call","Params":{"Name":"delete_repo","Arguments":{"repo":"r"}}}', -32600, 'Invalid Request: "Method" is not a key MCP reads (it spells it "method").'],
      ['{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"a:b"},"METHOD":"tools/call"}', -32600, 'Invalid Request: "METHOD" is not a key MCP reads (it spells it "method").'],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":"x"},"Arguments":{"q":"x","org":"other"}}}', -32600, 'Invalid Request: "Arguments" is not a key MCP reads (it spells it "arguments").'],
      ['{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"delete_repo"}}', -32600, 'Invalid Request: "jsonrpc" must be "2.0".'],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["delete_repo"]}', -32600, 'Invalid Request: "params" must be an object.'],
      ['[]', -32600, 'Invalid Request: an empty batch.'],
    ] as const
    for (const [body, code, message] of refused)
      expect(await post(body), body).toEqual({ status: 400, body: { jsonrpc: '2.0', id: null, error: { code, message } } })
    expect(forwarded).toEqual([])

    // What goes upstream is what was read, written anew: one "arguments" (the last, as JSON.parse reads it), no key JSON-RPC lacks.
    await post('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"q":"a","org":"other"},"arguments":{"q":"b","org":"other"}}}')
    await post('{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"a:b"},"extra":{"method":"tools/call"}}')
    expect(forwarded.map(text => JSON.parse(text))).toEqual([
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { q: 'b', org: 'acme' } } },
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'a:b' } },
    ])
    expect(forwarded[1]).toBe('{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"a:b"}}')
  })

  it('a parameter given a default is listed optional with it in every profile and filled in where a call leaves it out; one made optional falls back on the upstream\'s default; a description appended to', async () => {
    const tools: UpstreamTool[] = [{ name: 'page', description: 'Pages through results.', inputSchema: { type: 'object', properties: { q: { type: 'string' }, size: { type: 'integer', minimum: 1 }, order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } }, required: ['q', 'size', 'order'] } }]
    const overrides = readOverrides({ tools: { page: { appendDescription: 'Ask for 50 at most.', params: { size: { default: 20 }, order: { optional: true } } } } })
    const lines: string[] = []
    const upstream = fakeUpstream(tools)
    const proxy = await createProxy(upstream, { overrides, validator, profiles: ['openai-strict'], log: line => lines.push(line) })
    expect(lines).toContain('flatmcp proxy: tool "page": description appended to, "size" defaults to 20, "order" optional (its default) (overrides)')
    const client = await clientOf(proxy)
    const [listed] = (await client.listTools()).tools
    expect(listed!.description).toBe('Pages through results.\n\nAsk for 50 at most.')
    expect(listed!.inputSchema.required).toEqual(['q'])
    expect(listed!.inputSchema.properties).toMatchObject({ size: { type: 'integer', default: 20 }, order: { default: 'asc' } })
    await client.callTool({ name: 'page', arguments: { q: 'a' } })
    await client.callTool({ name: 'page', arguments: { q: 'b', size: 5, order: 'desc' } })
    expect(upstream.calls).toEqual([{ name: 'page', arguments: { q: 'a', size: 20, order: 'asc' } }, { name: 'page', arguments: { q: 'b', size: 5, order: 'desc' } }])
    // A default the upstream's schema does not take is refused as a fixed value is; optional needs a default to fall back on.
    await expect(createProxy(fakeUpstream(tools), { overrides: readOverrides({ tools: { page: { params: { size: { default: 0 } } } } }), validator, log: () => {} })).rejects.toThrow('overrides.tools["page"].params["size"].default: 0 is not a value the upstream\'s schema of "size" takes')
    await expect(createProxy(fakeUpstream(tools), { overrides: readOverrides({ tools: { page: { params: { size: { optional: true } } } } }), log: () => {} })).rejects.toThrow('overrides.tools["page"].params["size"]: the upstream\'s schema of "size" has no default to fall back on: give one ({"default": value})')
  })

  it('a parameter whose schema refers into the root\'s $defs (a pydantic enum) is fixed and checked with them', async () => {
    const tools: UpstreamTool[] = [{ name: 'run', inputSchema: { type: 'object', $defs: { Mode: { type: 'string', enum: ['fast', 'safe'] } }, properties: { q: { type: 'string' }, mode: { $ref: '#/$defs/Mode' } }, required: ['q', 'mode'] } }]
    const upstream = fakeUpstream(tools)
    const proxy = await createProxy(upstream, { overrides: readOverrides({ tools: { run: { params: { mode: { fix: 'safe' } } } } }), validator, log: () => {} })
    await (await clientOf(proxy)).callTool({ name: 'run', arguments: { q: 'x' } })
    expect(upstream.calls).toEqual([{ name: 'run', arguments: { q: 'x', mode: 'safe' } }])
    await expect(createProxy(fakeUpstream(tools), { overrides: readOverrides({ tools: { run: { params: { mode: { fix: 'reckless' } } } } }), validator, log: () => {} }))
      .rejects
      .toThrow('overrides.tools["run"].params["mode"].fix: "reckless" is not a value the upstream\'s schema of "mode" takes')
  })

  it('a parameter named __proto__ is fixed as any other: set as a key of the call, not as its prototype', async () => {
    const tools = JSON.parse('[{"name":"odd","inputSchema":{"type":"object","properties":{"q":{"type":"string"},"__proto__":{"type":"string"}}}}]') as UpstreamTool[]
    const upstream = fakeUpstream(tools)
    const proxy = await createProxy(upstream, { overrides: readOverrides(JSON.parse('{"tools":{"odd":{"params":{"__proto__":{"fix":"fixed"}}}}}')), validator, log: () => {} })
    expect(Object.keys((await (await clientOf(proxy)).listTools()).tools[0]!.inputSchema.properties!)).toEqual(['q'])
    await (await clientOf(proxy)).callTool({ name: 'odd', arguments: { q: 'x' } })
    const sent = (upstream.calls[0] as { arguments: object }).arguments
    expect(Object.getOwnPropertyDescriptor(sent, '__proto__')?.value).toBe('fixed')
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype)
    expect(proxy.snapshot('flatmcp@test').overrides?.fixed).toEqual(JSON.parse('{"odd":{"__proto__":{"value":"fixed","schema":{"type":"string"}}}}'))
  })

  it('with the search surface, lists a tool marked alwaysLoad beside the three, and find_tools reads a searchHint', async () => {
    const proxy = await createProxy(fakeUpstream(TOOLS), { overrides: OVERRIDES, surface: 'search', log: () => {} })
    const client = await clientOf(proxy)
    expect((await client.listTools()).tools.map(tool => tool.name)).toEqual([...Object.values(SURFACE_TOOLS), 'search'])
    // "ripgrep" is in the hint alone.
    expect(await client.callTool({ name: 'find_tools', arguments: { query: 'ripgrep' } })).toMatchObject({ content: [{ text: expect.stringMatching(/^search: /) }] })
    // Without it nothing matches, and a catalogue this small is shown whole.
    const plain = await createProxy(fakeUpstream(TOOLS), { surface: 'search', log: () => {} })
    expect(await (await clientOf(plain)).callTool({ name: 'find_tools', arguments: { query: 'ripgrep' } })).toMatchObject({ content: [{ text: expect.stringMatching(/^No tool matches "ripgrep" word for word; here are all 2 of them:\ndelete_repo: .*\nsearch: /) }] })
  })

  it('applyOverrides alone: the list less the hidden tool, the parameters out of properties and required, the fixed ones with the upstream\'s schema, the hints in _meta', () => {
    const lines: string[] = []
    const { tools, fixed, unmatched } = applyOverrides([...TOOLS, { name: 'other', inputSchema: { type: 'object' } }], OVERRIDES, line => lines.push(line))
    expect(tools).toEqual([
      {
        name: 'search',
        description: 'Searches Acme\'s code.',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false },
        _meta: { 'anthropic/alwaysLoad': true, 'anthropic/searchHint': 'ripgrep source' },
      },
      { name: 'other', inputSchema: { type: 'object' } },
    ])
    expect([...fixed]).toEqual([['search', { org: { value: 'acme', schema: { type: 'string', enum: ['acme', 'other'] } } }]])
    expect(lines).toEqual([])
    expect(unmatched).toEqual([])
    // The list it was given is left as it was.
    expect(Object.keys(TOOLS[0]!.inputSchema.properties as object)).toEqual(['q', 'org', 'debug'])
    expect(applyOverrides(TOOLS, undefined, () => {})).toEqual({ tools: TOOLS, fixed: new Map(), unmatched: [] })
    // A tool the list does not hold is said, returned, and left out of what describeOverrides says was done.
    const missing = { tools: { ...OVERRIDES.tools, serch: { hide: true as const } } }
    const said = applyOverrides(TOOLS, missing, line => lines.push(line))
    expect(said.unmatched).toEqual(['serch'])
    expect(lines).toEqual(['flatmcp proxy: the overrides name tool "serch" (did you mean "search"?), which the upstream does not list; nothing to change there'])
    expect(describeOverrides(missing, said.unmatched).join('\n')).not.toContain('serch')
    expect(describeOverrides(missing).join('\n')).toContain('"serch" hidden')
  })
})

describe('only served names are callable (issue 65)', () => {
  // The upstream names its tools with dots: they are served fitted (`files_delete`), and the overrides key them by that name.
  const DOTTED: UpstreamTool[] = [
    { name: 'files.delete', description: 'Deletes a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
    { name: 'files.write', description: 'Writes a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' }, root: { type: 'string' } }, required: ['path', 'root'] } },
  ]
  const HIDING = readOverrides({ tools: { files_delete: { hide: true }, files_write: { params: { root: { fix: '/srv' } } } } })

  it('a call to the upstream\'s own name of a tool served under a fitted one is an unknown tool\'s: a hidden tool never runs, a fixed value is never skipped', async () => {
    const upstream = fakeUpstream(DOTTED)
    const proxy = await createProxy(upstream, { overrides: HIDING, log: () => {} })
    const client = await clientOf(proxy)
    expect((await client.listTools()).tools.map(tool => tool.name)).toEqual(['files_write'])
    await expect(client.callTool({ name: 'files.delete', arguments: { path: '/etc' } })).rejects.toThrow(/Unknown tool "files\.delete"/)
    await expect(client.callTool({ name: 'files_delete', arguments: { path: '/etc' } })).rejects.toThrow(/Unknown tool "files_delete"/)
    await expect(client.callTool({ name: 'files.write', arguments: { path: 'a', root: '/' } })).rejects.toThrow(/Unknown tool "files\.write"/)
    // Nor is a name the list never held sent on: the upstream sees served names only.
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool "nope"/)
    // Nor through the search surface's call_tool.
    const searching = await clientOf(await createProxy(upstream, { overrides: HIDING, surface: 'search', log: () => {} }))
    for (const name of ['files.delete', 'files_delete', 'files.write']) {
      const result = await searching.callTool({ name: 'call_tool', arguments: { name, arguments: { path: '/etc', root: '/' } } }) as { isError?: boolean, content: { text: string }[] }
      expect([result.isError, result.content[0]!.text]).toEqual([true, `Unknown tool ${JSON.stringify(name)}.`])
    }
    expect(upstream.calls).toEqual([])
    await client.callTool({ name: 'files_write', arguments: { path: 'a', root: '/' } })
    expect(upstream.calls).toEqual([{ name: 'files.write', arguments: { path: 'a', root: '/srv' } }])

    // A tool the list reader left out (its inputSchema is no object schema) is no tool either.
    const leftOut = fakeUpstream([...DOTTED, { name: 'broken', inputSchema: 'object' } as never])
    const reader = await clientOf(await createProxy(leftOut, { log: () => {} }))
    expect((await reader.listTools()).tools.map(tool => tool.name)).toEqual(['files_delete', 'files_write'])
    await expect(reader.callTool({ name: 'broken', arguments: {} })).rejects.toThrow('Unknown tool "broken".')
    expect(leftOut.calls).toEqual([])

    const { forwarded, post } = recordingHandler(proxy.snapshot('flatmcp@test'))
    const answer = async (body: object): Promise<unknown> => (await post(body)).json()
    for (const name of ['files.delete', 'files_delete', 'files.write', 'nope'])
      expect(await answer({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { path: '/etc', root: '/' } } })).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: `Unknown tool ${JSON.stringify(name)}.` } })
    expect(forwarded).toEqual([])
    await answer({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'files_write', arguments: { path: 'a', root: '/' } } })
    expect(forwarded).toEqual([{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'files.write', arguments: { path: 'a', root: '/srv' } } }])
  })
})
