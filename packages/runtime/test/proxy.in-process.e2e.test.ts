// The proxy's parts in process, against an upstream made of data: what it reads of an upstream's list,
// how a call's reading is chosen, and how a snapshot is matched, refused and drifted from. The real
// upstreams, clients and transports are in test/proxy*.test.ts.
import type { UpstreamClient, UpstreamTool } from '@flatmcp/runtime/proxy'
import { isSnapshot, malformedTool, toSnapshot } from '@flatmcp/runtime/artifact'
import { createGateway, createProxy, digestOf, readSnapshot, serveProxy } from '@flatmcp/runtime/proxy'
import { createProxyHandler } from '@flatmcp/runtime/proxy/fetch'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createMcpHandler, InMemoryTransport, McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import type { AddressInfo } from 'node:net'
import { once } from 'node:events'
import path from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ROOT, TS_NODE } from '../../../test/support/client'
import { chooserSchema } from '../src/proxy/compile/chooser'
import { callSlots } from '../src/proxy/serve/slots'
import { proxyHealth } from '../src/proxy/serve/health'
import { InputRequired } from '../src/elicit/replay'
import { forwardedParams } from '../src/proxy/upstream/forward'
import { questionBridge } from '../src/proxy/serve/questions'
import { canonicalJson } from '../src/service/schema-hash'
import { SLOW } from '../../../test/support/timeouts'
import { recordingHandler } from '../../../test/support/recording-handler'
import { serveFetch } from '../../../test/support/serve-fetch'
import { toldClient } from '../../../test/support/told-client'

const shape = { oneOf: [{ type: 'object', properties: { kind: { const: 'a' }, x: { type: 'number' } }, required: ['kind'] }, { type: 'object', properties: { kind: { const: 'b' }, y: { type: 'string' } }, required: ['kind'] }] }
const TOOLS: UpstreamTool[] = [
  { name: 'draw', description: 'Draws.', inputSchema: { type: 'object', properties: { shape }, required: ['shape'] } },
  { name: 'page', inputSchema: { type: 'object', properties: { limit: { type: 'integer' } } } },
]

/** An upstream of data: its list (changeable), and the calls it got. */
function fakeUpstream(tools: UpstreamTool[]): UpstreamClient & { tools: UpstreamTool[], calls: unknown[] } {
  const upstream = {
    tools,
    calls: [] as unknown[],
    request: async (message: { method: string, params?: Record<string, unknown> }) => {
      if (message.method === 'tools/list')
        return { tools: upstream.tools }
      upstream.calls.push(message.params)
      return { content: [{ type: 'text', text: JSON.stringify(message.params?.arguments) }] }
    },
    notification: async () => {},
    getServerCapabilities: () => ({ tools: {} }),
    getServerVersion: () => ({ name: 'fake', version: '1' }),
    getInstructions: () => undefined,
    setNotificationHandler: () => {},
  }
  return upstream
}

async function clientOf(proxy: Awaited<ReturnType<typeof createProxy>>): Promise<{ listTools: () => Promise<{ tools: UpstreamTool[] }>, callTool: (params: object) => Promise<unknown> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await proxy.server().connect(serverSide)
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(clientSide)
  return client as never
}

/** A client of the proxy that counts the list changes it is told of, its list read once. */
async function toldClientOf(proxy: Awaited<ReturnType<typeof createProxy>>): Promise<{ client: Client, told: () => number }> {
  const connected = await toldClient(proxy)
  await connected.client.listTools()
  return connected
}



describe('readiness', () => {
  it('an upstream that answers a ping, even with "method not found", is ready; one whose ping fails otherwise is not, saying why', async () => {
    const answering = (fails?: unknown) => ({ request: async () => {
      if (fails)
        throw fails
      return {}
    } })
    const readiness = async (fails?: unknown): Promise<unknown> => {
      const health = proxyHealth(Promise.resolve(), answering(fails))
      await new Promise(resolve => setImmediate(resolve)) // the list is settled
      return health()
    }
    expect(await readiness()).toEqual({ ready: true })
    expect(await readiness(Object.assign(new Error('no ping'), { code: -32601 }))).toEqual({ ready: true })
    expect(await readiness(Object.assign(new Error('timed out'), { code: 'REQUEST_TIMEOUT' }))).toEqual({ ready: false, why: 'the upstream did not answer a ping within 2 s' })
  })
})

describe('tool names clients refuse', () => {
  it('are served fitted to ^[A-Za-z_][A-Za-z0-9_-]{0,63}$, deterministically and said once; a call to the fitted name reaches the upstream\'s own', async () => {
    const long = `a.${'x'.repeat(70)}`
    const named = (name: string): UpstreamTool => ({ name, inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } })
    const upstream = fakeUpstream([named('get.weather'), named('1st'), named('get_weather'), named('fine-name'), named(long)])
    const said: string[] = []
    const proxy = await createProxy(upstream, { log: line => said.push(line) })
    const client = await clientOf(proxy)
    const names = (await client.listTools()).tools.map(tool => tool.name)
    // "get.weather" fits to "get_weather", which the upstream lists itself: told apart by its digest.
    expect(names.slice(0, 4)).toEqual([expect.stringMatching(/^get_weather_[0-9a-f]{8}$/), '_1st', 'get_weather', 'fine-name'])
    expect(names[4]).toMatch(/^a_x{53}_[0-9a-f]{8}$/)
    for (const name of names)
      expect(name).toMatch(/^[A-Z_][\w-]{0,63}$/i)
    await client.callTool({ name: names[0]!, arguments: { n: 1 } })
    await client.callTool({ name: '_1st', arguments: { n: 2 } })
    await client.callTool({ name: 'get_weather', arguments: { n: 3 } })
    expect(upstream.calls.map(call => (call as { name: string }).name)).toEqual(['get.weather', '1st', 'get_weather'])
    await proxy.refresh()
    expect(said.filter(line => line.includes('is served as'))).toHaveLength(3)
    expect(said).toContain('flatmcp proxy: tool "1st" is served as "_1st" (clients refuse a name outside ^[A-Za-z_][\\w-]{0,63}$); a call to it reaches "1st"')
    expect((await createProxy(fakeUpstream([named('plain')]), { log: line => said.push(line) })).tools().size).toBe(1)
  })

  it('a snapshot records where a fitted name comes from, and the fetch handler calls the upstream by its own name', async () => {
    const snapshot = (await createProxy(fakeUpstream([{ name: 'get.weather', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }]), { log: () => {} })).snapshot('flatmcp@test')
    expect(snapshot.tools.map(tool => tool.name)).toEqual(['get_weather'])
    expect(snapshot.runtime.get_weather!.origin).toEqual({ server: 'fake', name: 'get.weather' })
    const { forwarded, post } = recordingHandler(snapshot)
    await post('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"n":3}}}')
    expect(forwarded).toEqual([{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get.weather', arguments: { n: 3 } } }])
  })
})

describe('what the proxy reads of an upstream', () => {
  it('a definition\'s digest does not depend on key order, and changes with anything in it', async () => {
    const a = await digestOf({ name: 't', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } })
    expect(await digestOf({ inputSchema: { properties: { x: { type: 'string' } }, type: 'object' }, name: 't' })).toBe(a)
    expect(await digestOf({ name: 't', inputSchema: { type: 'object', properties: { x: { type: 'number' } } } })).not.toBe(a)
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(canonicalJson({ b: [1, { d: 1, c: undefined }], a: null })).toBe('{"a":null,"b":[1,{"d":1}]}')
  })

  it('names what a client would refuse in a listed tool', () => {
    expect(malformedTool(TOOLS[0])).toBeUndefined()
    expect(malformedTool({ name: 'x', inputSchema: { type: 'array' } })).toMatch(/not an object schema/)
    expect(malformedTool({ name: 'x', inputSchema: { type: 'object', required: [1] } })).toMatch(/required is not a list of names/)
    expect(malformedTool({ name: 'x', inputSchema: { type: 'object' }, outputSchema: { type: 'string' } })).toMatch(/outputSchema/)
    expect(malformedTool({ name: 'x', inputSchema: { type: 'object' }, description: 5 })).toMatch(/description is not a string/)
    expect(malformedTool({ inputSchema: { type: 'object' } })).toMatch(/no name/)
  })

  it('the chooser reads the schema without what a validator may spend more than linear time on, and keeps names that look like keywords', () => {
    const schema = JSON.parse('{"type":"object","$schema":"x","properties":{"pattern":{"type":"string","pattern":"^(a+)+$","format":"email"},"__proto__":{"type":"number"}},"patternProperties":{"^x":{"type":"string"}},"additionalProperties":false,"items":{"uniqueItems":true,"type":"array"}}')
    const cut = chooserSchema(schema) as Record<string, any>
    expect(cut).toEqual(JSON.parse('{"type":"object","properties":{"pattern":{"type":"string"},"__proto__":{"type":"number"}},"items":{"type":"array"}}'))
    expect(Object.getPrototypeOf(cut.properties)).toBe(Object.prototype)
    expect(Object.keys(cut.properties)).toEqual(['pattern', '__proto__'])
  })

  it('the chooser reads a draft-04 schema as 2020-12, which ajv compiles: a boolean exclusive bound as a number, tuple items as prefixItems, id and a required that is no list of names left out', () => {
    const schema = { id: 'x', type: 'object', required: null, properties: { n: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false }, m: { type: 'number', exclusiveMaximum: true }, t: { type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'integer' } }, u: { type: 'array', items: { type: 'string' }, additionalItems: false } } }
    expect(chooserSchema(schema)).toEqual({ type: 'object', properties: { n: { type: 'integer', exclusiveMinimum: 0, maximum: 9 }, m: { type: 'number' }, t: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } }, u: { type: 'array', items: { type: 'string' } } } })
    expect(() => new Ajv2020({ strict: false, logger: false }).compile(chooserSchema(schema) as object)).not.toThrow()
  })

  it('the chooser reads a $ref that points outside the schema (a network URI, another file) as any value: ajv cannot compile it, and MCP 2026-07-28 says a server must not fetch it', () => {
    const schema = { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' }, b: { $ref: 'other.json#/x' }, c: { $ref: '#/$defs/c' } }, $defs: { c: { type: 'integer' } } }
    expect(chooserSchema(schema)).toEqual({ type: 'object', properties: { a: {}, b: {}, c: { $ref: '#/$defs/c' } }, $defs: { c: { type: 'integer' } } })
    expect(() => new Ajv2020({ strict: false, logger: false }).compile(chooserSchema(schema) as object)).not.toThrow()
  })

  it('leaves the downstream hop\'s envelope and progress token out of what goes upstream, and keeps the rest of _meta', () => {
    expect(forwardedParams({ name: 'x', _meta: { 'progressToken': 1, 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'trace': 't' } })).toEqual({ name: 'x', _meta: { trace: 't' } })
    expect(forwardedParams({ name: 'x', _meta: { progressToken: 1 } })).toEqual({ name: 'x' })
  })
})

describe('a proxy over an upstream of data', () => {
  it('serves the list flat, and sends a call upstream as its own schema reads it (JSON text parsed, a stringified integer repaired only where the schema refuses the string)', async () => {
    const upstream = fakeUpstream(TOOLS)
    const integers = (schema: object) => (value: unknown): boolean => !JSON.stringify(schema).includes('"integer"') || Number.isInteger((value as { limit?: unknown }).limit ?? 0)
    const client = await clientOf(await createProxy(upstream, { log: () => {}, validator: integers }))
    const { tools } = await client.listTools()
    expect(JSON.stringify(tools)).not.toContain('oneOf')
    await client.callTool({ name: 'draw', arguments: { shape: '{"kind":"b","y":"z"}' } })
    await client.callTool({ name: 'page', arguments: { limit: '7' } })
    expect(upstream.calls).toEqual([{ name: 'draw', arguments: { shape: { kind: 'b', y: 'z' } } }, { name: 'page', arguments: { limit: 7 } }])
  })

  it('a call a recursive union would take a validator 2^depth on is not checked and goes as the first reading; the validator never runs on it (24 levels: 70 s of ajv)', async () => {
    const expr = { anyOf: [
      { type: 'object', properties: { arg: { $ref: '#/$defs/e' }, op: { const: 'neg' } }, required: ['op'] },
      { type: 'object', properties: { arg: { $ref: '#/$defs/e' }, op: { const: 'not' } }, required: ['op'] },
      { type: 'object', properties: { value: { type: 'number' }, op: { const: 'lit' } }, required: ['op', 'value'] },
    ] }
    const upstream = fakeUpstream([{ name: 'calc', inputSchema: { type: 'object', properties: { expr: { $ref: '#/$defs/e' } }, required: ['expr'], $defs: { e: expr } } }])
    const checked: unknown[] = []
    const ajv = new Ajv2020({ strict: false, logger: false })
    const validator = (schema: object) => {
      const test = ajv.compile(schema)
      return (value: unknown): boolean => {
        checked.push(value)
        return test(value)
      }
    }
    const client = await clientOf(await createProxy(upstream, { log: () => {}, validator }))
    let deep: unknown = { op: 'lit', value: 1 }
    for (let i = 0; i < 24; i++)
      deep = { arg: deep, op: 'x' }
    await client.callTool({ name: 'calc', arguments: { expr: { op: 'neg', arg: { op: 'lit', value: 2 } } } })
    await client.callTool({ name: 'calc', arguments: { expr: deep } })
    expect(checked).toEqual([{ expr: { op: 'neg', arg: { op: 'lit', value: 2 } } }])
    expect(upstream.calls).toEqual([{ name: 'calc', arguments: { expr: { op: 'neg', arg: { op: 'lit', value: 2 } } } }, { name: 'calc', arguments: { expr: deep } }])
  })

  it('a validator whose set-up takes over the one-second reading budget (ajv loaded by a cold process on a busy machine) still repairs the first call, through createProxy and the fetch handler in the 2026-07-28 era', async () => {
    const ajv = new Ajv2020({ strict: false, logger: false })
    /** A validator that spends 1.1 s of the clock being made, as loading ajv did on three replicas starting on two cores. */
    const slowToMake = (schema: object) => {
      const until = Date.now() + 1100
      while (Date.now() < until) {
        // Busy, as loading and setting up ajv is: the time is the process's own, not a wait.
      }
      return ajv.compile(schema) as (value: unknown) => boolean
    }
    const upstream = fakeUpstream(TOOLS)
    const proxy = await createProxy(upstream, { log: () => {}, validator: slowToMake })
    await (await clientOf(proxy)).callTool({ name: 'page', arguments: { limit: '7' } })
    expect(upstream.calls).toEqual([{ name: 'page', arguments: { limit: 7 } }])
    // A fresh replica of the fetch handler that has served no list, its first call a 2026-07-28 one.
    const forwarded: { params: { arguments?: unknown } }[] = []
    const handler = createProxyHandler({ upstream: 'http://upstream.test/mcp', snapshot: proxy.snapshot('flatmcp@test'), validator: slowToMake, fetch: async (request) => {
      forwarded.push(await request.json() as { params: { arguments?: unknown } })
      return Response.json({ jsonrpc: '2.0', id: 1, result: { content: [] } })
    } })
    const answer = await handler.fetch(new Request('http://proxy.test/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'page' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'page', arguments: { limit: '8' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'caller', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
    }))
    expect(answer.status).toBe(200)
    expect(forwarded.map(body => body.params.arguments)).toEqual([{ limit: 8 }])
  })

  it('an upstream schema the validator cannot make a test of is tried once per list, not on every call, and its calls go as the first reading', async () => {
    const upstream = fakeUpstream(TOOLS)
    let made = 0
    const refusing = (): never => {
      made++
      throw new Error('cannot compile this schema')
    }
    const client = await clientOf(await createProxy(upstream, { log: () => {}, validator: refusing }))
    for (let i = 0; i < 3; i++)
      await client.callTool({ name: 'page', arguments: { limit: 7 } })
    expect(made).toBe(1)
    expect(upstream.calls).toEqual(Array.from({ length: 3 }, () => ({ name: 'page', arguments: { limit: 7 } })))
  })

  it('an upstream schema in draft-04 (id, boolean exclusive bounds, a tuple items array, a required that is not a list) is read as 2020-12 by the chooser: ajv refused it, so its stringified integers went upstream unrepaired', async () => {
    const draft04 = { id: 'urn:page', $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' as const, properties: {
      limit: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 100, exclusiveMaximum: false },
      at: { type: 'array', items: [{ type: 'integer' }, { type: 'integer' }], additionalItems: false },
      filter: { type: 'object', properties: { depth: { type: 'integer' } }, required: null },
    } }
    const upstream = fakeUpstream([{ name: 'page', inputSchema: draft04 }])
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false })
    const client = await clientOf(await createProxy(upstream, { log: () => {}, validator: schema => ajv.compile(schema) as never }))
    await client.callTool({ name: 'page', arguments: { limit: '3', at: [1, 2], filter: '{"depth":2}' } })
    await client.callTool({ name: 'page', arguments: { limit: '100' } })
    expect(upstream.calls).toEqual([{ name: 'page', arguments: { limit: 3, at: [1, 2], filter: { depth: 2 } } }, { name: 'page', arguments: { limit: 100 } }])
  })

  it('a root anyOf of objects with no type: branches left open serve each other\'s keys as any value, closed ones keep their types', async () => {
    const branches = (closed: object) => ({ anyOf: [{ properties: { id: { type: 'integer' } }, required: ['id'], ...closed }, { properties: { name: { type: 'string' } }, required: ['name'], ...closed }] })
    const upstream = fakeUpstream([{ name: 'open', inputSchema: branches({}) as never }, { name: 'shut', inputSchema: branches({ additionalProperties: false }) as never }])
    const { tools } = await (await clientOf(await createProxy(upstream, { log: () => {} }))).listTools()
    const [open, shut] = tools.map(tool => tool.inputSchema as { type: string, properties: Record<string, { type: unknown }> })
    expect(open!.type).toBe('object')
    expect(open!.properties.id!.type).toEqual(['object', 'array', 'string', 'number', 'boolean', 'null'])
    expect(shut!.properties).toEqual({ id: { type: 'integer' }, name: { type: 'string' } })
  })

  it('an upstream schema with a $ref to a network URI still has its stringified integers repaired: ajv refused it, so the chooser chose nothing and "2" went upstream as a string', async () => {
    const upstream = fakeUpstream([{ name: 'page', inputSchema: { type: 'object', properties: { filter: { $ref: 'http://127.0.0.1:9/filter.json' }, limit: { type: 'integer' } } } }])
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false })
    const client = await clientOf(await createProxy(upstream, { log: () => {}, validator: schema => ajv.compile(schema) as never }))
    await client.callTool({ name: 'page', arguments: { filter: 'x', limit: '2' } })
    expect(upstream.calls).toEqual([{ name: 'page', arguments: { filter: 'x', limit: 2 } }])
  })

  it('reads every page of the upstream\'s list, and cuts a list that never ends at 100 pages, said', async () => {
    const paged = fakeUpstream(TOOLS)
    paged.request = async (message: { method: string, params?: Record<string, unknown> }) => {
      const page = Number(message.params?.cursor ?? 0)
      return { tools: [paged.tools[page]!], ...(page + 1 < paged.tools.length ? { nextCursor: String(page + 1) } : {}) }
    }
    const all = await clientOf(await createProxy(paged, { log: () => {} }))
    expect((await all.listTools()).tools.map(tool => tool.name)).toEqual(['draw', 'page'])
    const endless = fakeUpstream(TOOLS)
    endless.request = async (message: { method: string, params?: Record<string, unknown> }) => ({ tools: [{ name: `t${String(message.params?.cursor ?? 0)}`, inputSchema: { type: 'object' } }], nextCursor: String(Number(message.params?.cursor ?? 0) + 1) })
    const lines: string[] = []
    const cut = await createProxy(endless, { log: line => lines.push(line) })
    expect(cut.tools().size).toBe(100)
    expect(lines).toContain('flatmcp proxy: the upstream\'s tools/list has more than 100 pages; serving the first 100')
  })

  it('keeps an x-mcp-header every variant declares alike, and carries the upstream\'s cache hints (none: ttlMs 0)', async () => {
    const region = { 'type': 'string', 'x-mcp-header': 'Region' }
    const headed: UpstreamTool = { name: 'put', inputSchema: { type: 'object', oneOf: [{ type: 'object', properties: { kind: { const: 'a' }, region }, required: ['kind', 'region'] }, { type: 'object', properties: { kind: { const: 'b' }, region, n: { type: 'number' } }, required: ['kind', 'region'] }] } }
    const upstream = fakeUpstream([headed])
    const client = await clientOf(await createProxy(upstream, { log: () => {} }))
    const raw = (): Promise<{ tools: UpstreamTool[], ttlMs: number, cacheScope: string }> => (client as unknown as { request: (message: object, schema: object) => Promise<never> }).request({ method: 'tools/list', params: {} }, { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } })
    const listed = await raw()
    expect((listed.tools[0]!.inputSchema.properties as Record<string, unknown>).region).toEqual(region)
    expect(listed).toMatchObject({ ttlMs: 0, cacheScope: 'public' })
    const hinted = fakeUpstream([headed])
    hinted.request = async () => ({ tools: hinted.tools, ttlMs: 5000, cacheScope: 'private' })
    const hintedClient = await clientOf(await createProxy(hinted, { log: () => {} }))
    expect(await (hintedClient as unknown as { request: (message: object, schema: object) => Promise<unknown> }).request({ method: 'tools/list', params: {} }, { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } })).toMatchObject({ ttlMs: 5000, cacheScope: 'private' })
  })

  it('serves a snapshot without compiling while the list matches it, and compiles anew what drifted, said once', async () => {
    const lines: string[] = []
    const snapshot = (await createProxy(fakeUpstream(TOOLS), { log: () => {}, profiles: ['gemini'] })).snapshot('flatmcp@test')
    expect(isSnapshot(snapshot)).toBe(true)
    const upstream = fakeUpstream(TOOLS)
    const proxy = await createProxy(upstream, { snapshot, log: line => lines.push(line) })
    expect([...proxy.tools().values()].every(tool => tool.fromSnapshot)).toBe(true)
    expect(proxy.drift()).toEqual({ changed: [], added: [], removed: [] })
    upstream.tools = [{ ...TOOLS[0]!, description: 'Draws, better.' }, { name: 'new', inputSchema: { type: 'object' } }]
    await proxy.refresh()
    await proxy.refresh()
    expect(proxy.drift()).toEqual({ changed: ['draw'], added: ['new'], removed: ['page'] })
    expect(proxy.tools().get('draw')).toMatchObject({ fromSnapshot: false, served: 'compiled' })
    expect(lines.filter(line => line.includes('no longer matches'))).toEqual(['flatmcp proxy: the upstream no longer matches the snapshot (changed: "draw"; new: "new"; gone: "page"); what changed or is new is compiled anew'])
  })

  it('records each tool\'s schemaHash per profile in its snapshot, the hash its tools/catalog gives in that profile', async () => {
    // A closed root, so the strict form is not the portable one.
    const closed = { ...TOOLS[0]!, inputSchema: { ...TOOLS[0]!.inputSchema, additionalProperties: false } }
    const proxy = await createProxy(fakeUpstream([closed, TOOLS[1]!]), { log: () => {}, profiles: ['openai-strict'], profile: 'openai-strict' })
    const snapshot = proxy.snapshot('flatmcp@test')
    const client = await clientOf(proxy) as unknown as { request: (message: object, schema: object) => Promise<{ tools: { name: string, schemaHash: string }[] }> }
    const loose = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } }
    const catalog = await client.request({ method: 'tools/catalog', params: {} }, loose)
    expect(catalog.tools.map(entry => entry.name)).toEqual(['draw', 'page'])
    for (const entry of catalog.tools)
      expect(snapshot.runtime[entry.name]!.schemaHash).toEqual({ 'portable': expect.stringMatching(/^[0-9a-f]{64}$/), 'openai-strict': entry.schemaHash })
    // The union's strict form is another schema, so another hash.
    expect(snapshot.runtime.draw!.schemaHash!.portable).not.toBe(snapshot.runtime.draw!.schemaHash!['openai-strict'])
  })

  it('with frozen, serves only what the snapshot holds; refuses a snapshot of another preset or without a profile it is asked for', async () => {
    const snapshot = (await createProxy(fakeUpstream(TOOLS), { log: () => {} })).snapshot('flatmcp@test')
    const upstream = fakeUpstream([{ ...TOOLS[0]!, description: 'Changed.' }, TOOLS[1]!])
    const frozen = await createProxy(upstream, { snapshot, frozen: true, log: () => {} })
    expect([...frozen.tools().keys()]).toEqual(['page'])
    await expect(createProxy(fakeUpstream(TOOLS), { snapshot, preset: 'pydantic', log: () => {} })).rejects.toThrow(/compiled with preset json-schema, not pydantic/)
    await expect(createProxy(fakeUpstream(TOOLS), { snapshot, profile: 'gemini', log: () => {} })).rejects.toThrow(/holds no gemini profile/)
  })

  it('takes tools compiled before (known) where a live definition is theirs and compiles what differs, serving nothing from them ahead and saying no drift; known tools that do not fit are passed over', async () => {
    const made = (await createProxy(fakeUpstream(TOOLS), { log: () => {} })).snapshot('flatmcp@test')
    // Marked, so a tool taken from them shows: the form they recorded, not one compiled now.
    const known = { ...made, tools: made.tools.map(tool => ({ ...tool, description: `${tool.description ?? 'Pages.'} (recorded)` })) }
    const lines: string[] = []
    const proxy = await createProxy(fakeUpstream([TOOLS[0]!, { ...TOOLS[1]!, description: 'Pages, changed.' }]), { known, log: line => lines.push(line) })
    expect((await (await clientOf(proxy)).listTools()).tools.map(tool => tool.description)).toEqual(['Draws. (recorded)', 'Pages, changed.'])
    expect([...proxy.tools().values()].map(tool => tool.fromSnapshot)).toEqual([false, false])
    expect(proxy.drift()).toEqual({ changed: [], added: [], removed: [] })
    expect(lines.filter(line => line.includes('snapshot'))).toEqual([])
    // Another profile than they hold, or no snapshot at all: everything compiled.
    for (const unfit of [{ known, profile: 'gemini' as const }, { known: { not: 'a snapshot' } }]) {
      const compiled = await createProxy(fakeUpstream(TOOLS), { ...unfit, log: () => {} })
      expect((await (await clientOf(compiled)).listTools()).tools.map(tool => tool.description)).toEqual(['Draws.', undefined])
    }
  })

  it('reads a list that known tools recorded whole with the preset it was read with then, and tells it anew over any other list; a known tool served as it came is compiled again', async () => {
    const made = (await createProxy(fakeUpstream(TOOLS), { log: () => {} })).snapshot('flatmcp@test')
    const known = { ...made, options: { ...made.options, preset: 'pydantic' as const } }
    expect((await createProxy(fakeUpstream(TOOLS), { known, log: () => {} })).snapshot('flatmcp@test').options.preset).toBe('pydantic')
    expect((await createProxy(fakeUpstream(TOOLS.slice(0, 1)), { known, log: () => {} })).snapshot('flatmcp@test').options.preset).toBe('json-schema')
    // Served as it came then (its compile ran out of time, say): compiled now, and the list told anew.
    const asItCame = { ...made, runtime: { ...made.runtime, draw: { ...made.runtime.draw!, served: 'as-is' as const, reason: 'compiling it took longer than 10000 ms' } } }
    const proxy = await createProxy(fakeUpstream(TOOLS), { known: asItCame, log: () => {} })
    expect(proxy.tools().get('draw')).toMatchObject({ served: 'compiled' })
  })

  it('holds a burst past maxInFlight in turn (in order, never more upstream at once) and refuses what overflows the wait, and a cancelled wait leaves no hole', async () => {
    const upstream = fakeUpstream(TOOLS)
    let running = 0
    let most = 0
    const order: unknown[] = []
    const held: (() => void)[] = []
    upstream.request = async (message: { method: string, params?: Record<string, unknown> }) => {
      if (message.method === 'tools/list')
        return { tools: upstream.tools }
      most = Math.max(most, ++running)
      order.push((message.params?.arguments as { limit: number }).limit)
      await new Promise<void>(resolve => held.push(resolve))
      running--
      return { content: [{ type: 'text', text: 'ok' }] }
    }
    const client = await clientOf(await createProxy(upstream, { log: () => {}, maxInFlight: 2 }))
    const answers = Array.from({ length: 12 }, (_, n) => client.callTool({ name: 'page', arguments: { limit: n } }) as Promise<{ isError?: boolean, content: { text: string }[] }>)
    const refused = await Promise.all(answers.slice(10))
    expect(refused.map(answer => answer.content[0]!.text)).toEqual(Array.from({ length: 2 }, () => 'The server behind this proxy has 2 requests in flight and 8 waiting, its limit; try again shortly.'))
    while (order.length < 10 || held.length > 0) {
      await new Promise(resolve => setTimeout(resolve, 1))
      held.shift()?.()
    }
    expect((await Promise.all(answers.slice(0, 10))).map(answer => answer.content[0]!.text)).toEqual(Array.from({ length: 10 }, () => 'ok'))
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(most).toBe(2)
  })

  it('a call slot is handed on in order, and a waiter whose signal aborts leaves the queue', async () => {
    const slots = callSlots(1, 2)
    const first = await slots.take()
    const cancelled = new AbortController()
    const [second, third] = [slots.take(cancelled.signal), slots.take()]
    expect(await slots.take()).toBeUndefined()
    cancelled.abort()
    expect(await second).toBeUndefined()
    expect(slots.waiting).toBe(1)
    first!()
    first!()
    const release = await third
    expect(slots.running).toBe(1)
    release!()
    expect([slots.running, slots.waiting]).toEqual([0, 0])
  })

  it('refuses a snapshot of another shape, naming the field', () => {
    expect(() => readSnapshot({ upstream: { name: 'x', version: '1' }, options: { preset: 'json-schema', profiles: [] }, tools: [{ name: 'a', inputSchema: { type: 'object' } }], runtime: { a: { coercion: {} } } })).toThrow(/runtime\["a"\]\.upstream needs the digest/)
    expect(() => readSnapshot({ upstream: {}, tools: [], runtime: {} })).toThrow(/"upstream" needs the server's name and version/)
    // Checked as an artifact is, every profile's schema too: \`properties: 5\` made every tools/list fail.
    const served = { upstream: { name: 'x', version: '1' }, options: { preset: 'json-schema', profiles: ['gemini'] } }
    const upstream = { digest: 'd', tool: { name: 'a', inputSchema: { type: 'object' } } }
    expect(() => readSnapshot({ ...served, tools: [{ name: 'a', inputSchema: { type: 'object', properties: 5 } }], runtime: { a: { coercion: {}, upstream } } })).toThrow(/tool "a": its inputSchema\.properties is not an object/)
    expect(() => readSnapshot({ ...served, tools: [{ name: 'a', inputSchema: { type: 'object' } }], runtime: { a: { coercion: {}, upstream, profiles: { gemini: { coercion: {}, inputSchema: { type: 'object', properties: 5 } } } } } })).toThrow(/tool "a", profile "gemini": its inputSchema\.properties is not an object/)
  })

  it('an entry renamed by hand, its digest kept, replaces no live tool: the live one is compiled anew, and the drift says so truthfully', async () => {
    const snapshot = (await createProxy(fakeUpstream(TOOLS), { log: () => {} })).snapshot('flatmcp@test')
    // `page` renamed to `evil` everywhere a reader checks, the digest of `page` kept.
    const tampered = JSON.parse(JSON.stringify(snapshot).replaceAll('"page"', '"evil"')) as typeof snapshot
    expect(tampered.runtime.evil!.upstream.digest).toBe(snapshot.runtime.page!.upstream.digest)
    const lines: string[] = []
    const proxy = await createProxy(fakeUpstream(TOOLS), { snapshot: tampered, log: line => lines.push(line) })
    expect([...proxy.tools()].map(([name, tool]) => `${name} ${tool.fromSnapshot ? 'snapshot' : 'compiled'}`)).toEqual(['draw snapshot', 'page compiled'])
    expect(lines).toContain('flatmcp proxy: the upstream no longer matches the snapshot (new: "page"; gone: "evil"); what changed or is new is compiled anew')
  })
})

describe('a proxied tool\'s outputs', () => {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true })
  const validator = (schema: object) => ajv.compile(schema) as (value: unknown) => boolean
  const OUTPUTS: UpstreamTool[] = [
    // As servers outside TypeScript list them: a draft-07 tag, definitions, a union behind a reference.
    { name: 'forecast', inputSchema: { type: 'object' }, outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { days: { type: 'array', items: { $ref: '#/definitions/Day' } } }, required: ['days'], definitions: { Day: { oneOf: [{ type: 'object', properties: { kind: { const: 'sun' } }, required: ['kind'] }, { type: 'object', properties: { kind: { const: 'rain' }, mm: { type: 'number' } }, required: ['kind'] }] } } } },
    { name: 'words', inputSchema: { type: 'object' }, outputSchema: { type: 'array', items: { type: 'string' } } as never },
    { name: 'echo', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { echo: { type: 'string' } } } },
  ]
  const ANSWERS: Record<string, unknown> = { forecast: { days: [{ kind: 'sun' }, { kind: 'rain', mm: 2 }] }, words: ['a', 'b'], echo: { echo: 5 } }

  function outputsUpstream(): UpstreamClient & { listChanged: number } {
    const upstream = fakeUpstream(OUTPUTS)
    upstream.request = async (message) => {
      if (message.method === 'tools/list')
        return { tools: OUTPUTS }
      const name = message.params?.name as string
      return { content: [{ type: 'text', text: JSON.stringify(ANSWERS[name]) }], structuredContent: ANSWERS[name] }
    }
    return Object.assign(upstream, { listChanged: 0 })
  }

  it('lists each output schema compiled (a root object, no combinator, $ref or $schema; another root wrapped), and a result\'s structured part wrapped to match', async () => {
    const lines: string[] = []
    const proxy = await createProxy(outputsUpstream(), { validator, log: line => lines.push(line) })
    const client = await clientOf(proxy)
    const listed = (await client.listTools()).tools
    for (const tool of listed) {
      expect(tool.outputSchema!.type, tool.name).toBe('object')
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toMatch(/"(oneOf|anyOf|\$ref|\$schema|definitions|\$defs)"/)
    }
    expect(listed.find(tool => tool.name === 'words')!.outputSchema).toEqual({ type: 'object', properties: { result: { type: 'array', items: { type: 'string' } } }, required: ['result'] })
    // The SDK client checks each result against the listed schema.
    expect(await client.callTool({ name: 'forecast', arguments: {} })).toMatchObject({ structuredContent: ANSWERS.forecast })
    expect(await client.callTool({ name: 'words', arguments: {} })).toMatchObject({ structuredContent: { result: ['a', 'b'] } })
    expect(lines).toEqual([])
  })

  it('a result that misses its own output schema goes on as it came, once, and the schema is no longer listed: clients are told, and later calls pass their check', async () => {
    const lines: string[] = []
    const proxy = await createProxy(outputsUpstream(), { validator, log: line => lines.push(line) })
    const { client, told } = await toldClientOf(proxy)
    await expect(client.callTool({ name: 'echo', arguments: {} })).rejects.toThrow(/does not match the tool's output schema/)
    expect(lines).toEqual([expect.stringMatching(/^flatmcp proxy: tool "echo" answered with structuredContent its output schema does not take; its output schema is no longer listed/)])
    await new Promise(resolve => setTimeout(resolve, 50))
    expect(told()).toBe(1)
    const relisted = (await client.listTools()).tools
    expect(relisted.find(tool => tool.name === 'echo')!.outputSchema).toBeUndefined()
    expect(relisted.find(tool => tool.name === 'forecast')!.outputSchema).toBeDefined()
    expect(await client.callTool({ name: 'echo', arguments: {} })).toMatchObject({ structuredContent: { echo: 5 } })
    await client.callTool({ name: 'echo', arguments: {} })
    expect(lines).toHaveLength(1)
  })
})

describe('the proxy\'s own list changes', () => {
  const ajv = new Ajv2020({ strict: false })
  const validator = (schema: object) => ajv.compile(schema) as (value: unknown) => boolean

  it('300 tools whose results miss their output schemas at once: each said once, the clients told once or twice, not 300 times', async () => {
    const tools: UpstreamTool[] = Array.from({ length: 300 }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }))
    const upstream = fakeUpstream(tools)
    upstream.request = async (message: { method: string }) => message.method === 'tools/list' ? { tools } : { content: [{ type: 'text', text: 'x' }], structuredContent: { n: 'not a number' } }
    upstream.getServerCapabilities = () => ({ tools: { listChanged: true } })
    const lines: string[] = []
    const proxy = await createProxy(upstream, { validator, log: line => lines.push(line) })
    const { client, told } = await toldClientOf(proxy)
    await Promise.allSettled(tools.map(tool => client.callTool({ name: tool.name, arguments: {} })))
    await expect.poll(told, { timeout: 5_000 }).toBeGreaterThan(0)
    await new Promise(resolve => setTimeout(resolve, 600))
    expect(lines.filter(line => line.includes('is no longer listed'))).toHaveLength(300)
    expect(told()).toBeLessThanOrEqual(2)
    expect((await client.listTools()).tools.every(tool => tool.outputSchema === undefined)).toBe(true)
  })
})

describe('the fetch handler over an upstream of data', () => {
  it('answers tools/list from the snapshot, forwards a call as the upstream\'s schema reads it, and refuses a body over the bound with 413 before reading it', async () => {
    const snapshot = (await createProxy(fakeUpstream(TOOLS), { log: () => {} })).snapshot('flatmcp@test')
    const { forwarded, post } = recordingHandler(snapshot, { maxRequestBodySize: 1000 })
    const list = await (await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).json() as { result: { tools: UpstreamTool[] } }
    expect(list.result.tools).toEqual(snapshot.tools)
    expect(forwarded).toEqual([])
    await post('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"draw","arguments":{"shape":"{\\"kind\\":\\"a\\",\\"x\\":1}"}}}')
    expect(forwarded).toEqual([{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'draw', arguments: { shape: { kind: 'a', x: 1 } } } }])
    const tooBig = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'page', arguments: { q: 'x'.repeat(2000) } } }))
    expect(tooBig.status).toBe(413)
    expect(forwarded).toHaveLength(1)
  })

  it('wraps a call\'s structured part as the snapshot\'s output schema says, in a JSON answer and in an event stream (progress untouched, in order), and withdraws a schema its upstream breaks', async () => {
    const tools: UpstreamTool[] = [
      { name: 'words', inputSchema: { type: 'object' }, outputSchema: { type: 'array', items: { type: 'string' } } as never },
      { name: 'echo', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { echo: { type: 'string' } } } },
    ]
    const snapshot = (await createProxy(fakeUpstream(tools), { log: () => {} })).snapshot('flatmcp@test')
    const ajv = new Ajv2020({ strict: false })
    const lines: string[] = []
    let stream = false
    const handler = createProxyHandler({
      upstream: 'http://upstream.invalid/mcp',
      snapshot,
      validator: schema => ajv.compile(schema) as never,
      log: line => lines.push(line),
      fetch: async (request) => {
        const { id, params } = await request.json() as { id: number, params: { name: string } }
        const structuredContent = params.name === 'words' ? ['a', 'b'] : { echo: 5 }
        const answer = JSON.stringify({ jsonrpc: '2.0', id, result: { content: [], structuredContent } })
        if (!stream)
          return new Response(answer, { headers: { 'content-type': 'application/json' } })
        const progress = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } })
        // Events split across reads, as a network splits them.
        const text = `event: message\ndata: ${progress}\n\nevent: message\ndata: ${answer}\n\n`
        return new Response(new ReadableStream({ start(controller) {
          for (let at = 0; at < text.length; at += 7)
            controller.enqueue(new TextEncoder().encode(text.slice(at, at + 7)))
          controller.close()
        } }), { headers: { 'content-type': 'text/event-stream' } })
      },
    })
    const call = (id: number, name: string): Promise<Response> => handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }) }))
    expect(await (await call(1, 'words')).json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [], structuredContent: { result: ['a', 'b'] } } })
    stream = true
    const events = (await (await call(2, 'words')).text()).split('\n\n').filter(Boolean).map(event => JSON.parse(event.split('data: ')[1]!))
    expect(events).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } }, { jsonrpc: '2.0', id: 2, result: { content: [], structuredContent: { result: ['a', 'b'] } } }])
    stream = false
    expect(await (await call(3, 'echo')).json()).toMatchObject({ result: { structuredContent: { echo: 5 } } })
    expect(lines).toEqual([expect.stringMatching(/tool "echo" answered with structuredContent its output schema does not take/)])
    const list = await (await handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":4,"method":"tools/list"}' }))).json() as { result: { tools: UpstreamTool[] } }
    expect(list.result.tools.find(tool => tool.name === 'echo')!.outputSchema).toBeUndefined()
    expect(list.result.tools.find(tool => tool.name === 'words')!.outputSchema).toBeDefined()
  })
})

describe('a proxy bounded against its upstream', () => {
  it('a tool nested 400 levels deep is served as it came, one 10,000 deep is left out, each said, and the others are compiled (they stopped the whole proxy)', async () => {
    const nested = (levels: number): UpstreamTool['inputSchema'] => {
      let deep: Record<string, unknown> = { type: 'string' }
      for (let i = 0; i < levels; i++)
        deep = { type: 'object', properties: { a: deep } }
      return deep as UpstreamTool['inputSchema']
    }
    const lines: string[] = []
    const proxy = await createProxy(fakeUpstream([{ name: 'deep', inputSchema: nested(200) }, { name: 'deeper', inputSchema: nested(5000) }, ...TOOLS]), { log: line => lines.push(line) })
    expect([...proxy.tools()].map(([name, tool]) => `${name} ${tool.served}`)).toEqual(['deep as-is', 'draw compiled', 'page compiled'])
    expect(lines).toEqual([
      'flatmcp proxy: tool "deeper" left out: its definition nests deeper than 1024 levels',
      'flatmcp proxy: tool "deep" served as it came: its definition nests deeper than 256 levels',
    ])
  })

  it('a storm of list changes is two reads of the list, the newest served; a time limit no timer holds is clamped, a negative one refused', async () => {
    const upstream = fakeUpstream(TOOLS)
    let changed: (() => void) | undefined
    let reads = 0
    const request = upstream.request
    upstream.setNotificationHandler = (_method, handler) => {
      changed = handler
    }
    upstream.request = async (message, schema, options) => {
      if (message.method === 'tools/list') {
        reads++
        await new Promise(resolve => setTimeout(resolve, 20))
      }
      return request(message, schema, options)
    }
    const proxy = await createProxy(upstream, { log: () => {}, timeoutMs: 2 ** 40 })
    expect(reads).toBe(1)
    for (let i = 0; i < 200; i++) {
      upstream.tools = [...TOOLS.slice(0, 1), { name: `tool${i}`, inputSchema: { type: 'object' } }]
      changed!()
    }
    await new Promise(resolve => setTimeout(resolve, 200))
    expect(reads).toBe(3)
    expect([...proxy.tools().keys()]).toEqual(['draw', 'tool199'])
    await expect(createProxy(fakeUpstream(TOOLS), { timeoutMs: -1 })).rejects.toThrow('timeoutMs must be a number of milliseconds, 0 or more (got -1)')
  })
})

describe('the fetch handler\'s callers', () => {
  it('with tokens: a caller needs one (401 otherwise), an Origin elsewhere is refused (403), and the caller\'s credential never goes upstream', async () => {
    const snapshot = (await createProxy(fakeUpstream(TOOLS), { log: () => {} })).snapshot('flatmcp@test')
    const seen: Headers[] = []
    const handler = createProxyHandler({
      upstream: 'http://upstream.invalid/mcp',
      snapshot,
      tokens: ['caller-token'],
      headers: { 'x-api-key': 'operator' },
      fetch: async (request) => {
        seen.push(request.headers)
        return new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } })
      },
    })
    const post = (headers: Record<string, string>): Promise<Response> => handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }))
    expect((await post({})).status).toBe(401)
    expect((await post({ authorization: 'Bearer caller-tokenx' })).status).toBe(401)
    expect((await post({ authorization: 'Bearer caller-token', origin: 'https://evil.example' })).status).toBe(403)
    expect(seen).toHaveLength(0)
    expect((await post({ authorization: 'Bearer caller-token' })).status).toBe(200)
    expect(seen[0]!.has('authorization')).toBe(false)
    expect(seen[0]!.get('x-api-key')).toBe('operator')
  })
})

describe('the fetch handler\'s redirects', () => {
  it('follows a redirect within the upstream\'s origin, and refuses one to another origin: the operator\'s headers never go there', async () => {
    const snapshot = (await createProxy(fakeUpstream(TOOLS), { log: () => {} })).snapshot('flatmcp@test')
    const seen: { url: string, key: string | null }[] = []
    const lines: string[] = []
    const handler = createProxyHandler({
      upstream: 'http://upstream.test/mcp',
      snapshot,
      headers: { 'x-api-key': 'operator' },
      log: line => lines.push(line),
      fetch: async (request) => {
        seen.push({ url: request.url, key: request.headers.get('x-api-key') })
        const path = new URL(request.url).pathname
        if (path === '/mcp')
          return new Response(null, { status: 307, headers: { location: '/v2/mcp' } })
        if (path === '/v2/mcp')
          return new Response(null, { status: 308, headers: { location: 'https://elsewhere.example/steal' } })
        return new Response('{}', { headers: { 'content-type': 'application/json' } })
      },
    })
    const answer = await handler.fetch(new Request('http://proxy.test/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }))
    expect(answer.status).toBe(502)
    expect(seen).toEqual([{ url: 'http://upstream.test/mcp', key: 'operator' }, { url: 'http://upstream.test/v2/mcp', key: 'operator' }])
    expect(lines).toEqual(['flatmcp proxy: the upstream redirected to another origin; not followed'])
  })
})

describe('the fetch handler\'s mirrored headers (2026-07-28)', () => {
  const tools: UpstreamTool[] = [{ name: 'page', inputSchema: { type: 'object', properties: { region: { 'type': 'string', 'x-mcp-header': 'Region' }, 'n': { 'type': 'integer', 'x-mcp-header': 'Page' }, 'filter': { type: 'object', properties: { q: { type: 'string' } } } }, required: ['region'] } }]
  const modern = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }

  it('a call\'s Mcp-Param-* headers are made from the arguments sent on, by the upstream\'s declarations; the client\'s are not copied', async () => {
    const snapshot = (await createProxy(fakeUpstream(tools), { log: () => {} })).snapshot('flatmcp@test')
    const seen: Headers[] = []
    const handler = createProxyHandler({
      upstream: 'http://upstream.invalid/mcp',
      snapshot,
      fetch: async (request) => {
        seen.push(request.headers)
        return new Response('{"jsonrpc":"2.0","id":1,"result":{"content":[]}}', { headers: { 'content-type': 'application/json' } })
      },
    })
    const call = (args: unknown, headers: Record<string, string>): Promise<Response> => handler.fetch(new Request('http://proxy.test/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'page', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'page', arguments: args, _meta: modern } }),
    }))
    // A stringified integer repaired, an object sent as JSON text parsed: the headers follow the body sent on.
    await call({ region: 'eu', n: '2', filter: '{"q":"x"}' }, { 'Mcp-Param-Region': 'us', 'Mcp-Param-Stale': 'y' })
    expect(Object.fromEntries([...seen[0]!].filter(([name]) => name.startsWith('mcp-')))).toEqual({ 'mcp-method': 'tools/call', 'mcp-name': 'page', 'mcp-param-page': '2', 'mcp-param-region': 'eu', 'mcp-protocol-version': '2026-07-28' })
    // A value no plain header can carry goes as base64 of its UTF-8; an absent one goes without.
    await call({ region: ' zürich' }, {})
    expect(seen[1]!.get('mcp-param-region')).toBe(`=?base64?${Buffer.from(' zürich').toString('base64')}?=`)
    expect(seen[1]!.has('mcp-param-page')).toBe(false)
  })

  it('a real SDK 2.x server checks them and takes the call: through every face (the proxy\'s own server, as stdio serves it; --http; the fetch handler; a gateway) a 2025 client and a 2026-07-28 one are both served, "3" and the JSON text repaired', async () => {
    const server = (): McpServer => {
      const made = new McpServer({ name: 'headers', version: '1.0.0' })
      made.registerTool('page', { inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }), n: z.number().int().optional(), filter: z.object({ q: z.string() }).optional() }) }, args => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }))
      return made
    }
    const upstream = createMcpHandler(server)
    const listening = serveFetch('upstream', 0, request => upstream.fetch(request))
    await once(listening, 'listening')
    const url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`
    // As the command's: ajv 2020-12, nothing strict.
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, logger: false })
    const validator = (schema: object) => ajv.compile(schema) as (value: unknown) => boolean
    const proxy = await createProxy({ url }, { log: () => {}, validator })
    const gateway = await createGateway([{ name: 'up', target: { url } }], { log: () => {}, validator })
    const http = await serveProxy(proxy, { http: { host: '127.0.0.1', port: 0 }, log: () => {} })
    const handler = createProxyHandler({ upstream: url, snapshot: proxy.snapshot('flatmcp@test'), validator })
    const overHttp = (at: string, fetching?: (request: Request) => Promise<Response>) => new StreamableHTTPClientTransport(new URL(at), fetching ? { fetch: (to, init) => fetching(new Request(to, init)) } : {})
    // As `serveProxy` serves stdio: each connection in the era its client opens with.
    const sessions: { close: () => Promise<void> }[] = []
    const inMemory = async (served: typeof proxy) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
      sessions.push(serveStdio(request => served.server(request), { transport: serverSide }))
      return clientSide
    }
    const faces = { 'stdio': { tool: 'page', transport: () => inMemory(proxy) }, '--http': { tool: 'page', transport: async () => overHttp(http.url!) }, 'fetch handler': { tool: 'page', transport: async () => overHttp('http://proxy.test/mcp', request => handler.fetch(request)) }, 'gateway': { tool: 'up__page', transport: () => inMemory(gateway) } }
    try {
      for (const [face, { tool, transport }] of Object.entries(faces)) {
        for (const mode of ['legacy', { pin: '2026-07-28' }] as const) {
          const client = new Client({ name: 'caller', version: '1' }, { versionNegotiation: { mode } })
          await client.connect(await transport())
          const result = await client.callTool({ name: tool, arguments: { region: 'eu', n: '3', filter: '{"q":"x"}' } }) as { isError?: boolean, content: { text: string }[] }
          expect(result.isError, `${face} ${JSON.stringify(mode)}: ${JSON.stringify(result)}`).not.toBe(true)
          expect(JSON.parse(result.content[0]!.text), `${face} ${JSON.stringify(mode)}`).toEqual({ region: 'eu', n: 3, filter: { q: 'x' } })
          await client.close()
        }
      }
    }
    finally {
      await Promise.all([...sessions.map(session => session.close()), http.close(), proxy.close(), gateway.close()])
      listening.close()
    }
  }, SLOW)
})

describe('an upstream\'s questions to a 2026-07-28 client (input_required rounds)', () => {
  it('a question asked between calls is asked by the next call first; one asked during a call ends its round, and the answer goes back; one not answered in time is refused', async () => {
    const bridge = questionBridge(200)
    const roots = bridge.ask({ method: 'roots/list' })
    let sent = 0
    let answerQuestion: ((value: unknown) => void) | undefined
    const send = (): Promise<unknown> => {
      sent++
      return new Promise((resolve) => {
        // The upstream asks during the call, then answers with what it was told.
        void bridge.ask({ method: 'elicitation/create', params: { message: 'name?' } }).then(answer => resolve({ content: [{ type: 'text', text: JSON.stringify(answer) }] }))
        answerQuestion = resolve
      })
    }
    const first = await bridge.call({ state: undefined, responses: undefined }, send).catch((error: unknown) => error) as InputRequired
    expect(first).toBeInstanceOf(InputRequired)
    expect(first.inputRequests).toEqual({ q0: { method: 'roots/list' } })
    expect(sent).toBe(0)
    const second = await bridge.call({ state: first.state, responses: { q0: { roots: [{ uri: 'file:///w' }] } } }, send).catch((error: unknown) => error) as InputRequired
    expect(await roots).toEqual({ roots: [{ uri: 'file:///w' }] })
    expect(second.inputRequests).toEqual({ q0: { method: 'elicitation/create', params: { message: 'name?' } } })
    expect(await bridge.call({ state: second.state, responses: { q0: { action: 'accept', content: { name: 'Ada' } } } }, send)).toEqual({ content: [{ type: 'text', text: '{"action":"accept","content":{"name":"Ada"}}' }] })
    expect(sent).toBe(1)
    expect(answerQuestion).toBeDefined()
    // Nobody comes back for this one: the upstream hears a refusal, and the state is forgotten.
    const lonely = bridge.ask({ method: 'roots/list' })
    const third = await bridge.call({ state: undefined, responses: undefined }, async () => 'done').catch((error: unknown) => error) as InputRequired
    await expect(lonely).rejects.toThrow('the client behind this proxy did not answer roots/list')
    expect(await bridge.call({ state: third.state, responses: {} }, async () => 'anew')).toBe('anew')
  })
})

describe('the proxy whole in the library', () => {
  it('createProxy takes a command: it starts the upstream, serves its tools flat, hands progress on before the answer, and closes it', async () => {
    const lines: string[] = []
    const proxy = await createProxy({ command: [...TS_NODE, path.join(ROOT, 'test/support/upstream-v2.ts')] }, { log: line => lines.push(line) })
    try {
      expect(proxy.where).toBe('upstream-v2.ts')
      expect(proxy.tools().get('send')).toMatchObject({ served: 'compiled', fromSnapshot: false })
      const client = await clientOf(proxy)
      const listed = (await client.listTools()).tools.find(tool => tool.name === 'send')!
      expect(JSON.stringify(listed.inputSchema)).not.toMatch(/oneOf|anyOf/)
      const progress: number[] = []
      const counted = await (client as unknown as Client).callTool({ name: 'count', arguments: { n: 5 } }, { onprogress: ({ progress: at }) => void progress.push(at) }) as { content: { text: string }[] }
      expect(counted.content[0]!.text).toBeDefined()
      // Every update reached the client before the answer did: none is dropped as late.
      expect(progress).toEqual([1, 2, 3, 4, 5])
      // A shape sent as JSON text is repaired before it goes upstream.
      const sent = await client.callTool({ name: 'send', arguments: { kind: 'album', urls: '["a","b"]' } }) as { content: { text: string }[] }
      expect(JSON.parse(sent.content[0]!.text)).toEqual({ kind: 'album', urls: ['a', 'b'] })
    }
    finally {
      await proxy.close()
    }
  }, SLOW)

  it('an upstream that cannot start is a ProxySetupError naming it', async () => {
    const { ProxySetupError } = await import('@flatmcp/runtime/proxy')
    const started = createProxy({ command: [path.join(ROOT, 'no-such-server')] }, { log: () => {} })
    await expect(started).rejects.toBeInstanceOf(ProxySetupError)
    await expect(started).rejects.toThrow(/could not connect to the upstream .*no-such-server/)
  })

  it('compileUpstreamList is what the proxy serves and its snapshot holds, and takes a tool compiled before as it is', async () => {
    const { compileUpstreamList, readUpstreamList } = await import('@flatmcp/runtime/proxy')
    const lines: string[] = []
    const entries = await readUpstreamList([...TOOLS, { name: 'broken', inputSchema: 'object' }], line => lines.push(line))
    expect(lines).toEqual(['flatmcp proxy: tool "broken" left out: its inputSchema is not an object schema (it is no JSON object)'])
    const list = await compileUpstreamList(entries, { profiles: ['openai-strict'] })
    expect(list.preset).toBe('json-schema')
    const proxy = await createProxy(fakeUpstream(TOOLS), { profiles: ['openai-strict'], log: () => {} })
    expect(toSnapshot(list.tools, { generator: 'flatmcp@test', upstream: { name: 'fake', version: '1' }, handshake: { capabilities: { tools: {} } }, preset: list.preset, profiles: ['openai-strict'] })).toEqual(proxy.snapshot('flatmcp@test'))
    const again = await compileUpstreamList(entries, { profiles: ['openai-strict'], known: [{ preset: list.preset, tools: list.tools }] })
    expect(again.tools[0]).toBe(list.tools[0])
    // A preset told over the list, not asked for: pydantic's fingerprints are read as pydantic.
    const pydantic = await readUpstreamList([{ name: 'p', inputSchema: { type: 'object', title: 'pArguments', properties: { q: { type: 'string', title: 'Q' } }, required: ['q'] } }], () => {})
    expect((await compileUpstreamList(pydantic)).preset).toBe('pydantic')
  })
})
