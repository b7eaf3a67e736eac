// `flatmcp proxy` in front of a real MCP SDK 2.x TypeScript server (test/support/upstream-v2.ts), run
// as real processes from the built CLI with real SDK 2.x clients: what passes through both ways
// (resources, prompts, logging, progress, cancellation, sampling, elicitation, _meta, errors), what is
// repaired (JSON text, a stringified number, each profile's model answer), HTTP downstream in both
// eras, snapshots (serving, drift, --frozen, the probe), and what must not stop it (hostile schemas,
// garbage answers, concurrent calls, a 4 MiB body).
import type { Connected, Era } from './support/client'
import type { Listening } from './support/proxy'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileTool, modelAnswer, TARGET_NAMES } from '@flatmcp/core'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { budgetedForms } from './support/budgeted-forms'
import { connectStdioV2, ROOT } from './support/client'
import { startOAuthUpstream } from './support/oauth-upstream'
import { CLI, httpClient, INITIALIZE, progressOrder, runCli, startListening, UPSTREAM_V2 } from './support/proxy'
import { SLOW } from './support/timeouts'

type Result = { isError?: boolean, content: { type: string, text?: string }[], structuredContent?: unknown }
interface Listed { name: string, description?: string, inputSchema: Record<string, unknown> }

const call = async (client: Connected['client'] | Client, name: string, args: unknown, options?: object): Promise<Result> =>
  await (client.callTool as (params: unknown, options?: unknown) => Promise<Result>)({ name, arguments: args }, options)

/** Calls each tool's original takes, in the shapes that matter: a union's each variant, optional keys, bounds. */
const CALLS: [string, Record<string, unknown>][] = [
  ['send', { kind: 'message', text: 'hi' }],
  ['send', { kind: 'message', text: 'hi', silent: true }],
  ['send', { kind: 'album', urls: ['a', 'b'], caption: 'c' }],
  ['page', { query: 'q' }],
  ['page', { query: 'q', limit: 100 }],
]

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-proxy-v2-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('flatmcp proxy in front of a real SDK 2.x TypeScript server over stdio', () => {
  let direct: Connected
  let proxied: Connected
  let listed: Listed[]

  beforeAll(async () => {
    const [command, ...args] = UPSTREAM_V2
    direct = await connectStdioV2(command!, args)
    proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--', ...UPSTREAM_V2])
    listed = (await direct.client.listTools()).tools as unknown as Listed[]
  }, SLOW)

  afterAll(async () => {
    await Promise.all([direct?.close(), proxied?.close()])
  })

  it('lists every tool flat, as compileTool compiles the upstream\'s own schema, the rest of each definition as the upstream said it', async () => {
    const flat = (await proxied.client.listTools()).tools as unknown as Listed[]
    expect(flat.map(tool => tool.name)).toEqual(listed.map(tool => tool.name))
    expect(JSON.stringify(listed.find(tool => tool.name === 'send')!.inputSchema)).toContain('"oneOf"')
    for (const tool of flat) {
      const original = listed.find(t => t.name === tool.name)!
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(/"oneOf"|"anyOf"|"\$schema"/)
      expect(tool.inputSchema, tool.name).toEqual(compileTool({ name: tool.name, input: original.inputSchema }).inputSchema)
      expect(tool.description).toBe(original.description)
    }
    expect(proxied.stderr()).toContain(`flatmcp proxy: serving ${listed.length} tools of`)
  })

  it('--log-level: debug says each call (tool, upstream, outcome, time, the paths repaired, never a value); warn leaves out what is served', async () => {
    const debug = await connectStdioV2(process.execPath, [CLI, 'proxy', '--log-level', 'debug', '--', ...UPSTREAM_V2])
    const warn = await connectStdioV2(process.execPath, [CLI, 'proxy', '--log-level', 'warn', '--', ...UPSTREAM_V2])
    try {
      for (const proxy of [debug, warn]) {
        await proxy.client.listTools()
        await proxy.client.callTool({ name: 'page', arguments: { query: 'secret words', limit: '100' } })
      }
      await expect.poll(debug.stderr, { timeout: 30_000 }).toMatch(/flatmcp proxy: call "page" \(.+\) → ok in \d+ ms; repaired \/limit\n/)
      expect(debug.stderr()).toContain('flatmcp proxy: serving')
      expect(debug.stderr()).not.toContain('secret words')
      expect(warn.stderr()).not.toMatch(/flatmcp proxy: (serving|call)/)
    }
    finally {
      await Promise.all([debug.close(), warn.close()])
    }
  })

  it('valid calls, objects and arrays sent as JSON text and a stringified number reach the handler as the direct call gives', async () => {
    for (const [name, args] of CALLS)
      expect((await call(proxied.client, name, args)).content, name).toEqual((await call(direct.client, name, args)).content)
    // The upstream's own zod refuses each of these as sent; through the proxy they are what was meant.
    const meant: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['send', { kind: 'album', urls: '["a","b"]' }, { kind: 'album', urls: ['a', 'b'] }],
      ['page', { query: 'q', limit: '5' }, { query: 'q', limit: 5 }],
    ]
    for (const [name, sent, expected] of meant) {
      expect((await call(direct.client, name, sent)).isError, name).toBe(true)
      expect((await call(proxied.client, name, sent)).content, name).toEqual((await call(direct.client, name, expected)).content)
    }
  })

  it('an invalid call is answered with the upstream\'s own error; a tool it does not list is no tool (only served names are called), answered with the same JSON-RPC code', async () => {
    const invalid = { kind: 'album', urls: ['only one'] }
    expect(await call(proxied.client, 'send', invalid)).toEqual(await call(direct.client, 'send', invalid))
    const [a, b] = await Promise.all([direct, proxied].map(c => call(c.client, 'nope', {}).then(() => 'answered', (error: { code?: number, message: string }) => `${error.code} ${error.message}`)))
    expect(a).toMatch(/^-32602 /)
    expect(b).toBe('-32602 Unknown tool "nope".')
  })

  it('resources, prompts, capabilities, logging and the call\'s _meta pass through unchanged', async () => {
    type Full = { listResources: () => Promise<unknown>, readResource: (p: unknown) => Promise<unknown>, listPrompts: () => Promise<unknown>, getPrompt: (p: unknown) => Promise<unknown>, getServerCapabilities: () => unknown, setLoggingLevel: (level: string) => Promise<unknown>, setNotificationHandler: (method: string, handler: (n: { params: unknown }) => void) => void }
    const [a, b] = [direct.client, proxied.client] as unknown as Full[]
    expect(await b!.listResources()).toEqual(await a!.listResources())
    expect(await b!.readResource({ uri: 'upstream://readme' })).toEqual(await a!.readResource({ uri: 'upstream://readme' }))
    expect(await b!.listPrompts()).toEqual(await a!.listPrompts())
    expect(await b!.getPrompt({ name: 'review', arguments: { code: 'x' } })).toEqual(await a!.getPrompt({ name: 'review', arguments: { code: 'x' } }))
    expect(b!.getServerCapabilities()).toEqual(a!.getServerCapabilities())
    const logged: unknown[] = []
    b!.setNotificationHandler('notifications/message', notification => logged.push(notification.params))
    await b!.setLoggingLevel('debug')
    expect((await call(proxied.client, 'shout', { line: 'over here' })).content[0]?.text).toBe('shouted')
    for (let i = 0; i < 50 && logged.length === 0; i++)
      await new Promise(resolve => setTimeout(resolve, 20))
    expect(logged).toEqual([{ level: 'warning', logger: 'shout', data: 'over here' }])
    const meta = { 'example.com/trace': 'abc', 'tenant': 7 }
    const withMeta = (client: Connected['client']): Promise<Result> => (client.callTool as (params: unknown) => Promise<Result>)({ name: 'meta', arguments: {}, _meta: meta })
    expect((await withMeta(proxied.client)).content).toEqual((await withMeta(direct.client)).content)
    expect(JSON.parse((await withMeta(proxied.client)).content[0]!.text!)).toEqual(meta)
  })

  it('a call\'s progress reaches the client, and cancelling a call cancels it upstream', async () => {
    expect(await progressOrder(process.execPath, [CLI, 'proxy', '--', ...UPSTREAM_V2], { name: 'count', arguments: { n: 3 } })).toBe('PPPR')
    const before = Number((await call(direct.client, 'cancelled', {})).content[0]!.text)
    expect(before).toBe(0)
    const controller = new AbortController()
    const held = call(proxied.client, 'hold', {}, { signal: controller.signal }).then(() => 'answered', () => 'cancelled')
    await new Promise(resolve => setTimeout(resolve, 300))
    controller.abort()
    expect(await held).toBe('cancelled')
    // The upstream behind the proxy saw the cancellation (its count is its own: the proxy's upstream process).
    let seen = '0'
    for (let i = 0; i < 50 && seen === '0'; i++) {
      seen = (await call(proxied.client, 'cancelled', {})).content[0]!.text!
      await new Promise(resolve => setTimeout(resolve, 20))
    }
    expect(seen).toBe('1')
  })

  it('sampling and elicitation the upstream asks for reach the client, and its answers go back, in either era', async () => {
    // The shared proxy's client declared no capability for them: the upstream's requests fail, and say so.
    const refused = await call(proxied.client, 'ask', { question: 'who?' })
    expect(refused.isError).toBe(true)
    // A 2025 session is asked on it; a 2026-07-28 client, in the rounds of its call (input_required).
    for (const era of ['legacy', 'modern'] as const) {
      const answering = await answeringProxy(era)
      const questions: unknown[] = []
      const c = answering.client as unknown as { setRequestHandler: (method: string, handler: (request: { params: Record<string, unknown> }) => unknown) => void }
      c.setRequestHandler('sampling/createMessage', (request) => {
        questions.push(request.params.messages)
        return { role: 'assistant', content: { type: 'text', text: 'a sampled answer' }, model: 'mock' }
      })
      c.setRequestHandler('elicitation/create', (request) => {
        questions.push(request.params.message)
        return { action: 'accept', content: { name: 'Ada' } }
      })
      const result = await call(answering.client, 'ask', { question: 'who are you?' })
      expect(JSON.parse(result.content[0]!.text!), era).toEqual({ sampled: { type: 'text', text: 'a sampled answer' }, form: { action: 'accept', content: { name: 'Ada' } } })
      expect(questions, era).toEqual([[{ role: 'user', content: { type: 'text', text: 'who are you?' } }], 'who are you?'])
    }
  })

  it('concurrent calls whose upstream asks questions: each answer goes to the call that asked it, in either era', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const answering = await answeringProxy(era)
      const c = answering.client as unknown as { setRequestHandler: (method: string, handler: (request: { params: Record<string, unknown> }) => unknown) => void }
      // Each question answered after a wait of its own, so answers come back out of order.
      const late = (text: string): Promise<void> => new Promise(resolve => setTimeout(resolve, (text.length * 37) % 60))
      c.setRequestHandler('sampling/createMessage', async (request) => {
        const text = ((request.params.messages as { content: { text: string } }[])[0]!.content.text)
        await late(text)
        return { role: 'assistant', content: { type: 'text', text: `sampled ${text}` }, model: 'mock' }
      })
      c.setRequestHandler('elicitation/create', async (request) => {
        await late(String(request.params.message))
        return { action: 'accept', content: { name: `form ${String(request.params.message)}` } }
      })
      const questions = Array.from({ length: 12 }, (_, i) => `question ${i}${'?'.repeat(i)}`)
      const results = await Promise.all(questions.map(question => call(answering.client, 'ask', { question })))
      for (const [i, result] of results.entries())
        expect(JSON.parse(result.content[0]!.text!), `${era} ${questions[i]}`).toEqual({ sampled: { type: 'text', text: `sampled ${questions[i]}` }, form: { action: 'accept', content: { name: `form ${questions[i]}` } } })
    }
  })

  it('a 4 MiB hostile body over stdio (JSON text that never closes, where JSON text is read) is answered, and the proxy serves on', async () => {
    // A stall would meet the test's own bound; the verdict reads no clock.
    const hostile = await call(proxied.client, 'send', { kind: 'album', urls: '['.repeat(4 * 1024 * 1024) })
    expect(hostile.isError).toBe(true)
    expect((await call(proxied.client, 'page', { query: 'after' })).content[0]?.text).toBe('{"query":"after"}')
  })

  it('a list that grows upstream is compiled anew, and the client is told', async () => {
    const told = new Promise<void>((resolve) => {
      (proxied.client as unknown as { setNotificationHandler: (method: string, handler: () => void) => void }).setNotificationHandler('notifications/tools/list_changed', () => resolve())
    })
    expect((await proxied.client.listTools()).tools.map(tool => tool.name)).not.toContain('echo')
    await call(proxied.client, 'grow', {})
    await told
    const grown = (await proxied.client.listTools()).tools.find(tool => tool.name === 'echo')
    // The same as the upstream's own listing compiled: the direct connection's upstream grows too.
    await call(direct.client, 'grow', {})
    const original = (await direct.client.listTools()).tools.find(tool => tool.name === 'echo')!
    expect(grown?.inputSchema).toEqual(compileTool({ name: 'echo', input: original.inputSchema }).inputSchema)
    expect((await call(proxied.client, 'echo', { word: 'ab', times: '2' })).content[0]?.text).toBe('abab')
  })
})

// One proxy for each era whose client declares sampling and elicitation, started at its first use and
// shared by the tests that answer the upstream's questions: each sets its own handlers before it calls.
const answering = new Map<Era, Promise<Connected>>()
afterAll(async () => {
  await Promise.all([...answering.values()].map(async opened => (await opened).close()))
})
function answeringProxy(era: Era): Promise<Connected> {
  if (!answering.has(era))
    answering.set(era, connectWithCapabilities(era))
  return answering.get(era)!
}

/** A proxy whose SDK 2.x client declares sampling and elicitation. */
async function connectWithCapabilities(era: Era): Promise<Connected> {
  const { Client } = await import('@modelcontextprotocol/client')
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio')
  const client = new Client({ name: 'flatmcp-test', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} }, versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--', ...UPSTREAM_V2], cwd: ROOT, stderr: 'pipe' }))
  return { client: client as unknown as Connected['client'], stderr: () => '', close: () => client.close() }
}

describe('flatmcp proxy --http in front of the SDK 2.x server over Streamable HTTP', () => {
  let upstream: Listening
  let proxy: Listening
  const clients: Client[] = []
  const connect = async (path: string, era: 'legacy' | 'modern'): Promise<Client> => {
    const client = await httpClient(proxy.url.replace(/\/mcp$/, path), era)
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    upstream = await startListening(UPSTREAM_V2[0]!, [...UPSTREAM_V2.slice(1), '--http', '0'])
    proxy = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', upstream.url])
  }, SLOW)

  afterAll(async () => {
    await Promise.all(clients.map(client => client.close().catch(() => {})))
    await Promise.all([proxy?.close(), upstream?.close()])
  })

  it('serves the same flat list to both protocol eras, and each profile at /mcp/<profile> and /<profile>/mcp, its model answers read back to the direct call\'s output', async () => {
    const direct = await httpClient(upstream.url)
    clients.push(direct)
    const listed = (await direct.listTools()).tools as unknown as Listed[]
    const [legacy, modern] = await Promise.all([connect('/mcp', 'legacy'), connect('/mcp', 'modern')])
    const [a, b] = await Promise.all([legacy.listTools(), modern.listTools()])
    expect(a.tools).toEqual(b.tools)
    expect(a.tools.find(tool => tool.name === 'send')!.inputSchema).toEqual(compileTool({ name: 'send', input: listed.find(tool => tool.name === 'send')!.inputSchema }).inputSchema)
    for (const profile of TARGET_NAMES) {
      // Each era at each of the profile's two routes.
      for (const [era, route] of [['legacy', `/mcp/${profile}`], ['modern', `/${profile}/mcp`]] as const) {
        const client = await connect(route, era)
        const advertised = (await client.listTools()).tools as unknown as Listed[]
        const served = budgetedForms(listed, { profile })
        for (const [name, args] of CALLS) {
          const compiled = served.get(name)!
          expect(advertised.find(tool => tool.name === name)!.inputSchema, `${profile} ${name}`).toEqual(compiled.inputSchema)
          const written = modelAnswer(compiled.inputSchema, compiled.decode, args, { nullsForMissing: profile === 'openai-strict' && compiled.strict === true })
          expect((await call(client, name, written)).content, `${profile} ${era} ${name} ${JSON.stringify(written)}`).toEqual((await call(direct, name, args)).content)
        }
      }
    }
  })

  it('answers 404 off /mcp and /mcp/<profile>, and refuses a Host that is not its own (DNS rebinding), writing none of a client\'s text to its log', async () => {
    const base = proxy.url.replace(/\/mcp$/, '')
    expect((await fetch(`${base}/other`)).status).toBe(404)
    expect((await fetch(`${base}/mcp/nonsense`)).status).toBe(404)
    // fetch will not send another Host: node:http will.
    const { request } = await import('node:http')
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request(proxy.url, { method: 'POST', headers: { 'host': 'attacker.example', 'origin': 'https://evil.example', 'content-type': 'application/json' } }, (res) => {
        res.resume()
        resolve(res.statusCode)
      }).on('error', reject).end('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')
    })
    expect(status).toBe(403)
    // A Host that makes no URL is refused by the guard before any URL is made of it.
    expect(await rawPost(proxy.url, 'client sent text')).toBe(403)
    // A client's Host reached the operator's log through the SDK's own check; the guard says nothing of a request.
    expect(proxy.stderr()).not.toMatch(/attacker|evil\.example|client sent/)
  })

  it('a body over 4 MiB is refused with 413, 200 concurrent calls are each answered right, and the proxy serves on', async () => {
    const tooBig = await fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'page', arguments: { query: 'x'.repeat(4.5 * 1024 * 1024) } } }) })
    expect(tooBig.status).toBe(413)
    const client = await connect('/mcp', 'legacy')
    const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => call(client, 'page', { query: `q${n}`, limit: String(n % 100 + 1) })))
    answers.forEach((answer, n) => expect(JSON.parse(answer.content[0]!.text!)).toEqual({ query: `q${n}`, limit: n % 100 + 1 }))
    expect(proxy.child.exitCode).toBe(null)
  })
})

/** A request written by hand, with a Host no fetch would send: the status line's code. */
async function rawPost(url: string, host: string, headers: Record<string, string> = {}): Promise<number> {
  const { createConnection } = await import('node:net')
  const { port } = new URL(url)
  const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
  const lines = [`POST /mcp HTTP/1.1`, `Host: ${host}`, 'Content-Type: application/json', 'Accept: application/json, text/event-stream', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), `Content-Length: ${body.length}`, 'Connection: close']
  return new Promise((resolve, reject) => {
    let answer = ''
    const socket = createConnection(Number(port), '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`))
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString()
    }).on('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]))).on('error', reject)
  })
}

describe('flatmcp proxy --http beyond loopback: nobody gets in without a credential', () => {
  const post = (url: string, headers: Record<string, string> = {}): Promise<Response> => fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept': 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
  })

  it('refuses to start on every interface without a caller credential, and says --no-auth when it is given', async () => {
    const refused = await runCli(['proxy', '--http', '0', '--host', '0.0.0.0', '--', ...UPSTREAM_V2])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--host 0.0.0.0 serves beyond loopback: give a caller credential')
    const open = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--host', '0.0.0.0', '--no-auth', '--', ...UPSTREAM_V2])
    try {
      expect(open.stderr()).toContain('with no caller credential (--no-auth): anyone who reaches the port uses the upstream with your credentials')
      expect((await post(open.url)).status).toBe(200)
    }
    finally {
      await open.close()
    }
  })

  it('with a token: a caller without it, or with another, gets 401; an Origin of a page elsewhere, or null, gets 403; the caller with it is served', async () => {
    const tokens = join(scratch, 'tokens')
    writeFileSync(tokens, '# callers\nfirst-token\nsecond-token\n')
    const proxy = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--host', '0.0.0.0', '--auth-token-file', tokens, '--', ...UPSTREAM_V2])
    try {
      const anonymous = await post(proxy.url)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get('www-authenticate')).toContain('Bearer')
      expect((await post(proxy.url, { authorization: 'Bearer wrong-token' })).status).toBe(401)
      // A caller without the token learns nothing, and writes nothing to the log, with a Host that makes no URL.
      expect(await rawPost(proxy.url, 'client sent text', { authorization: 'Bearer wrong-token' })).toBe(401)
      // With the token, such a Host is a bad request, said to the caller alone.
      expect(await rawPost(proxy.url, 'client sent text', { authorization: 'Bearer second-token' })).toBe(400)
      expect(proxy.stderr()).not.toContain('client sent')
      for (const origin of ['https://evil.example', 'null'])
        expect((await post(proxy.url, { authorization: 'Bearer second-token', origin })).status, origin).toBe(403)
      expect((await post(proxy.url, { authorization: 'Bearer second-token', origin: 'http://localhost:5173' })).status).toBe(200)
      const client = new Client({ name: 'caller', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { requestInit: { headers: { authorization: 'Bearer first-token' } } }))
      expect((await call(client, 'page', { query: 'q', limit: '3' })).content[0]?.text).toBe('{"query":"q","limit":3}')
      await client.close()
      // Callers with credentials: no shared cache may keep one's list for another (MCP-2026-008).
      const modern = new Client({ name: 'caller', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
      await modern.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { requestInit: { headers: { authorization: 'Bearer first-token' } } }))
      expect((await modern.listTools()).cacheScope).toBe('private')
      await modern.close()
    }
    finally {
      await proxy.close()
    }
  })
})

describe('flatmcp proxy in front of a server that speaks only MCP 2026-07-28', () => {
  it('connects in that era, said once, and a 2025 client gets its tools flat and its calls repaired', async () => {
    const upstream = await startListening(UPSTREAM_V2[0]!, [...UPSTREAM_V2.slice(1), '--http', '0', 'modern-only'])
    try {
      const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', upstream.url])
      try {
        const tools = (await proxied.client.listTools()).tools as unknown as Listed[]
        expect(JSON.stringify(tools.find(tool => tool.name === 'send')!.inputSchema)).not.toContain('oneOf')
        expect((await call(proxied.client, 'send', { kind: 'album', urls: '["a","b"]' })).content[0]?.text).toBe('{"kind":"album","urls":["a","b"]}')
        expect(proxied.stderr()).toContain('speaks only MCP 2026-07-28; connected in that era')
      }
      finally {
        await proxied.close()
      }
    }
    finally {
      await upstream.close()
    }
    // Over stdio the process that refused the 2025 handshake is started anew for the other.
    const overStdio = await connectStdioV2(process.execPath, [CLI, 'proxy', '--', ...UPSTREAM_V2, 'modern-only'])
    try {
      expect((await call(overStdio.client, 'page', { query: 'q', limit: '3' })).content[0]?.text).toBe('{"query":"q","limit":3}')
      expect(overStdio.stderr()).toContain('speaks only MCP 2026-07-28; connected in that era')
    }
    finally {
      await overStdio.close()
    }
  })
})

describe('flatmcp proxy when the upstream is hostile or broken', () => {
  it('a tool whose compile runs past --compile-timeout, or whose schema is over 256 KiB, is served as it came; a pattern that backtracks for ever does not stall a call; every other tool is compiled', async () => {
    const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--compile-timeout', '1500', '--', ...UPSTREAM_V2, 'hostile'])
    try {
      // Listed at all: the compile would take minutes, past the test's own bound, had the proxy waited for it.
      const tools = (await proxied.client.listTools()).tools as unknown as Listed[]
      expect(proxied.stderr()).toMatch(/tool "nested" served as it came: compiling it took longer than 1500 ms/)
      expect(JSON.stringify(tools.find(tool => tool.name === 'nested')!.inputSchema)).toContain('"$defs"')
      expect(JSON.stringify(tools.find(tool => tool.name === 'plain')!.inputSchema)).not.toContain('oneOf')
      expect((await call(proxied.client, 'plain', { shape: '{"kind":"b","y":"z"}' })).content[0]?.text).toBe('{"shape":{"kind":"b","y":"z"}}')
      // Over the size bound: served as it came, said why.
      expect(proxied.stderr()).toMatch(/tool "huge" served as it came: its input schema is \d+ KiB, over the 256 KiB the proxy compiles/)
      expect(Object.keys(tools.find(tool => tool.name === 'huge')!.inputSchema.properties as object)).toHaveLength(3000)
      // A pattern that backtracks for ever on this word (2^48 steps) does not choose the reading: the call
      // is answered, where a stall would meet the test's own bound.
      expect((await call(proxied.client, 'redos', { word: `${'a'.repeat(48)}!` })).content[0]?.text).toBe('redos')
    }
    finally {
      await proxied.close()
    }
  })

  it('an upstream that answers with garbage: malformed tools are left out with a line each (a schema read where it can be), a garbage result is a tool error, the rest is served', async () => {
    const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--', process.execPath, join(ROOT, 'test/support/garbage-upstream.mjs')])
    try {
      // `properties: 5` reads as no properties (any object): the tool is served, compiled.
      expect((await proxied.client.listTools()).tools.map(tool => tool.name)).toEqual(['bad_properties', 'good', 'bad_result'])
      const said = proxied.stderr()
      for (const line of ['a listed tool left out: it has no name', 'tool "string_schema" left out: its inputSchema is not an object schema', 'tool "array_schema" left out: its portable form cannot be served: its inputSchema is not an object schema', 'server "garbage" lists tool "good" 2 times; the first is served, the others left out', 'a listed tool left out: it is not an object'])
        expect(said).toContain(`flatmcp proxy: ${line}`)
      const garbage = await call(proxied.client, 'bad_result', {})
      expect(garbage).toEqual({ isError: true, content: [{ type: 'text', text: 'The server behind this proxy answered the call to "bad_result" with something that is not a tool result.' }] })
      expect((await call(proxied.client, 'good', { shape: '{"kind":"a","x":1}' })).content[0]?.text).toBe('{"shape":{"kind":"a","x":1}}')
    }
    finally {
      await proxied.close()
    }
  })
})

describe('flatmcp snapshot, proxy --artifact and probe', () => {
  const file = join(scratch, 'upstream-v2.mcp.json')

  beforeAll(async () => {
    const made = await runCli(['snapshot', '--out', file, '--', ...UPSTREAM_V2])
    expect(made.code, made.stderr).toBe(0)
  }, SLOW)

  it('writes the upstream\'s list compiled in every profile, with each definition it came from, and the proxy serves it without compiling', async () => {
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { upstream: unknown, options: { profiles: string[], preset: string }, tools: Listed[], runtime: Record<string, { upstream: { digest: string, tool: Listed } }> }
    expect(snapshot.upstream).toEqual({ name: 'upstream-v2', version: '1.0.0' })
    expect(snapshot.options).toMatchObject({ profiles: [...TARGET_NAMES], preset: 'json-schema' })
    expect(snapshot.runtime.send!.upstream.digest).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(JSON.stringify(snapshot.runtime.send!.upstream.tool.inputSchema)).toContain('oneOf')
    const [fromSnapshot, compiled] = await Promise.all([
      connectStdioV2(process.execPath, [CLI, 'proxy', '--artifact', file, '--', ...UPSTREAM_V2]),
      connectStdioV2(process.execPath, [CLI, 'proxy', '--', ...UPSTREAM_V2]),
    ])
    try {
      expect((await fromSnapshot.client.listTools()).tools).toEqual((await compiled.client.listTools()).tools)
      await expect.poll(fromSnapshot.stderr, { timeout: 30_000 }).toMatch(/serving \d+ tools of .*, all from the snapshot/)
      expect((await call(fromSnapshot.client, 'page', { query: 'q', limit: '3' })).content[0]?.text).toBe('{"query":"q","limit":3}')
    }
    finally {
      await Promise.all([fromSnapshot.close(), compiled.close()])
    }
  })

  it('answers initialize and the first tools/list from the snapshot while the upstream is still starting; a call waits for it, and a list the upstream changed is told', async () => {
    const gate = join(scratch, 'gate')
    const early = await connectStdioV2(process.execPath, [CLI, 'proxy', '--artifact', file, '--', ...UPSTREAM_V2, '--gate', gate])
    try {
      const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { tools: Listed[], handshake: { capabilities: Record<string, unknown> } }
      expect(snapshot.handshake.capabilities).toMatchObject({ tools: {}, prompts: {}, resources: {} })
      // The upstream is not serving (its gate is shut): the handshake and the list are the snapshot's.
      expect((early.client as unknown as Client).getServerVersion()).toMatchObject({ name: 'upstream-v2', version: '1.0.0' })
      expect((early.client as unknown as Client).getServerCapabilities()).toMatchObject({ prompts: {}, resources: {} })
      expect((await early.client.listTools()).tools).toEqual(snapshot.tools)
      const answered = call(early.client, 'page', { query: 'q', limit: '3' })
      const settled = await Promise.race([answered.then(() => 'answered'), new Promise(resolve => setTimeout(resolve, 300, 'waiting'))])
      expect(settled).toBe('waiting')
      writeFileSync(gate, '')
      expect((await answered).content[0]?.text).toBe('{"query":"q","limit":3}')
      await vi.waitFor(() => expect(early.stderr()).toContain('all from the snapshot'), { timeout: 60_000, interval: 50 })
      expect(early.stderr()).not.toContain('no longer matches')
    }
    finally {
      await early.close()
      rmSync(gate, { force: true })
    }
    // An upstream that changed: its own list replaces the snapshot's, and the client is told.
    const changed = await connectStdioV2(process.execPath, [CLI, 'proxy', '--artifact', file, '--', ...UPSTREAM_V2, 'revised', '--gate', gate])
    try {
      const told = new Promise<void>((resolve) => {
        (changed.client as unknown as { setNotificationHandler: (method: string, handler: () => void) => void }).setNotificationHandler('notifications/tools/list_changed', () => resolve())
      })
      expect((await changed.client.listTools()).tools.find(tool => tool.name === 'page')?.description).not.toBe('A page of results, newest first.')
      writeFileSync(gate, '')
      await told
      expect((await changed.client.listTools()).tools.find(tool => tool.name === 'page')?.description).toBe('A page of results, newest first.')
    }
    finally {
      await changed.close()
      rmSync(gate, { force: true })
    }
  })

  it('an upstream that ends before it is connected ends the proxy (exit 2), though the snapshot answered the client', async () => {
    const gate = join(scratch, 'gate-ends')
    // It ends, without a handshake, once the client has had its answers.
    const ends = `const { existsSync } = require('node:fs'); setInterval(() => existsSync(${JSON.stringify(gate)}) && process.exit(3), 20)`
    const child = spawn(process.execPath, [CLI, 'proxy', '--artifact', file, '--', process.execPath, '-e', ends], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)))
    child.stdin.write(`${INITIALIZE}${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`)
    await vi.waitFor(() => expect(stdout).toContain('"name":"page"'), { timeout: 60_000, interval: 50 })
    expect(stdout).toContain('"serverInfo":{"name":"upstream-v2"')
    writeFileSync(gate, '')
    expect(await exited).toBe(2)
    expect(stderr).toMatch(/flatmcp: could not connect to the upstream node: /)
  })

  it('when the upstream no longer matches, says what changed and compiles it anew; with --frozen it refuses to start', async () => {
    const drifted = await connectStdioV2(process.execPath, [CLI, 'proxy', '--artifact', file, '--compile-timeout', '1000', '--', ...UPSTREAM_V2, 'revised', 'hostile'])
    try {
      // The snapshot's list is served until the upstream gives its own: what it says of the drift comes first.
      await vi.waitFor(() => expect(drifted.stderr()).toContain('no longer matches'), { timeout: 60_000, interval: 50 })
      const page = (await drifted.client.listTools()).tools.find(tool => tool.name === 'page')
      expect(page?.description).toBe('A page of results, newest first.')
      expect(drifted.stderr()).toContain('flatmcp proxy: the upstream no longer matches the snapshot (changed: "page"; new: "nested", "redos", "huge", "plain"); what changed or is new is compiled anew')
    }
    finally {
      await drifted.close()
    }
    // The upstream's handshake waits for a client's: one says hello, and the proxy ends.
    const frozen = await runCli(['proxy', '--artifact', file, '--frozen', '--', ...UPSTREAM_V2, 'revised'], ROOT, 120_000, INITIALIZE)
    expect(frozen.code).toBe(1)
    expect(frozen.stderr).toContain(`the upstream no longer matches ${file} (changed: "page"); not serving it (--frozen)`)
    // The whole command that refreshes it, the upstream's included.
    expect(frozen.stderr).toContain(`Refresh the snapshot: flatmcp snapshot --out ${file} --profile openai-strict --profile anthropic-strict --profile gemini -- ${UPSTREAM_V2.join(' ')} revised`)
  })

  it('with --frozen, a tool the upstream adds later is neither listed nor called: its name is an unknown tool\'s, not sent on; the list served is unchanged, so the client is not told it changed', async () => {
    const frozen = await connectStdioV2(process.execPath, [CLI, 'proxy', '--artifact', file, '--frozen', '--', ...UPSTREAM_V2])
    try {
      let told = 0
      ;(frozen.client as unknown as { setNotificationHandler: (method: string, handler: () => void) => void }).setNotificationHandler('notifications/tools/list_changed', () => void told++)
      await call(frozen.client, 'grow', {})
      await expect.poll(frozen.stderr, { timeout: 30_000 }).toContain('is not served (--frozen)')
      expect((await frozen.client.listTools()).tools.map(tool => tool.name)).not.toContain('echo')
      expect(told).toBe(0)
      await expect(frozen.client.callTool({ name: 'echo', arguments: { word: 'ab' } })).rejects.toThrow(/Unknown tool "echo"/)
      expect((await call(frozen.client, 'page', { query: 'q' })).content[0]?.text).toBe('{"query":"q"}')
    }
    finally {
      await frozen.close()
    }
  })

  it('the probe finds a snapshot current and sound, alone and against its live upstream, and names each tool a changed upstream no longer matches', async () => {
    const alone = await runCli(['probe', file, '--samples', '20'])
    expect(alone.code, alone.stdout).toBe(0)
    expect(alone.stdout).toMatch(/✓ is current/)
    expect(alone.stdout).toMatch(/✓ accepts every value the original schemas accept/)
    const live = await runCli(['probe', file, '--samples', '5', '--', ...UPSTREAM_V2])
    expect(live.code, live.stdout).toBe(0)
    const changed = await runCli(['probe', file, '--samples', '5', '--', ...UPSTREAM_V2, 'revised', 'hostile'])
    expect(changed.code).toBe(1)
    expect(changed.stdout).toContain('page: the live upstream lists "page" with another definition than the snapshot\'s')
    expect(changed.stdout).toContain('nested: the live upstream lists "nested", which the snapshot does not hold')
  })

  it('proxy --check reads the list, applies the overrides and compiles, says what it would serve and exits: 0, 1 for a tool the upstream does not list, 2 for a parameter a tool lacks', async () => {
    const overrides = join(scratch, 'checked.json')
    writeFileSync(overrides, JSON.stringify({ tools: { page: { params: { limit: { fix: 5 } } } } }))
    const clean = await runCli(['proxy', '--check', '--overrides', overrides, '--', ...UPSTREAM_V2])
    expect(clean.code, clean.stderr).toBe(0)
    expect(clean.stderr).toContain('flatmcp proxy --check: tool "page": "limit" fixed to 5 (overrides)')
    expect(clean.stderr).toMatch(/flatmcp proxy --check: \d+ tools of .* would be served, read as json-schema \([^)]*\), in portable, openai-strict, anthropic-strict, gemini\n/)
    writeFileSync(overrides, JSON.stringify({ tools: { pgae: { hide: true } } }))
    const unlisted = await runCli(['proxy', '--check', '--overrides', overrides, '--', ...UPSTREAM_V2])
    expect(unlisted.code, unlisted.stderr).toBe(1)
    expect(unlisted.stderr).toContain('flatmcp proxy --check: the overrides name tool "pgae" (did you mean "page"?), which the upstream does not list')
    // Said as not listed, never as applied; a line that merely says "does not list" is no unmatched tool.
    expect(unlisted.stderr).not.toContain('"pgae" hidden')
    expect(unlisted.stderr).toContain('the overrides name 1 tool it does not list')
    writeFileSync(overrides, JSON.stringify({ tools: { page: { params: { limt: { hide: true } } } } }))
    const lacking = await runCli(['proxy', '--check', '--overrides', overrides, '--', ...UPSTREAM_V2])
    expect(lacking.code).toBe(2)
    expect(lacking.stderr).toContain('tool "page" has no parameter "limt" (did you mean "limit"?)')
    expect(lacking.stderr).not.toContain('(overrides)')
  })

  it('takes --overrides: the snapshot and the proxy hide, fix and describe alike, said on stderr; the probe finds it current, and a fixed value the upstream does not take', async () => {
    const overrides = join(scratch, 'overrides.json')
    writeFileSync(overrides, JSON.stringify({ tools: { send: { hide: true }, page: { description: 'Pages through results.', params: { limit: { fix: 5 } } }, filter: { params: { debug: { hide: true } } } } }))
    const made = join(scratch, 'overridden.mcp.json')
    const snapshotted = await runCli(['snapshot', '--out', made, '--overrides', overrides, '--', ...UPSTREAM_V2])
    expect(snapshotted.code, snapshotted.stderr).toBe(0)
    expect(snapshotted.stderr).toContain('flatmcp snapshot: tool "page": description replaced, "limit" fixed to 5 (overrides)')
    const snapshot = JSON.parse(readFileSync(made, 'utf8')) as { tools: Listed[], overrides: { fixed: unknown } }
    expect(snapshot.tools.map(tool => tool.name)).not.toContain('send')
    expect(snapshot.overrides.fixed).toEqual({ page: { limit: { value: 5, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100 }) } } })
    // The snapshot's own overrides hold where none are given.
    const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--artifact', made, '--', ...UPSTREAM_V2])
    try {
      const { tools } = await proxied.client.listTools()
      expect(tools).toEqual(snapshot.tools)
      expect(tools.find(tool => tool.name === 'page')).toMatchObject({ description: 'Pages through results.', inputSchema: { properties: { query: { type: 'string' } } } })
      expect(Object.keys(tools.find(tool => tool.name === 'page')!.inputSchema.properties as object)).toEqual(['query'])
      expect((await call(proxied.client, 'page', { query: 'q', limit: 99 })).content[0]?.text).toBe('{"query":"q","limit":5}')
      // A hidden parameter sent anyway does not reach an upstream that would take it.
      expect((await call(proxied.client, 'filter', { query: 'q', debug: true })).content[0]?.text).toBe('{"query":"q"}')
      expect(proxied.stderr()).toContain('flatmcp proxy: tool "send" hidden (overrides)')
      await expect.poll(proxied.stderr, { timeout: 30_000 }).toMatch(/all from the snapshot/)
    }
    finally {
      await proxied.close()
    }
    const probed = await runCli(['probe', made, '--samples', '5', '--', ...UPSTREAM_V2])
    expect(probed.code, probed.stdout).toBe(0)
    // A fixed value the upstream's schema does not take: the snapshot refuses it, and so does the probe of a snapshot edited to hold it.
    writeFileSync(overrides, JSON.stringify({ tools: { page: { params: { limit: { fix: 500 } } } } }))
    const refused = await runCli(['snapshot', '--out', join(scratch, 'refused.mcp.json'), '--overrides', overrides, '--', ...UPSTREAM_V2])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('overrides.tools["page"].params["limit"].fix: 500 is not a value the upstream\'s schema of "limit" takes')
    const edited = JSON.parse(readFileSync(made, 'utf8')) as { overrides: { fixed: { page: { limit: { value: number } } } } }
    edited.overrides.fixed.page.limit.value = 500
    writeFileSync(made, JSON.stringify(edited, null, 2))
    const wrong = await runCli(['probe', made, '--samples', '5'])
    expect(wrong.code).toBe(1)
    expect(wrong.stdout).toContain('the overrides fix "limit": 500 is not a value the upstream\'s schema of "limit" takes')
  })
})

describe('flatmcp proxy in front of an upstream protected by OAuth', () => {
  it('is that upstream\'s client by the client-credentials grant (the SDK\'s own provider): the token it gets goes upstream, its callers\' own token never does, and a refused token is replaced', async () => {
    const upstream = await startOAuthUpstream()
    const secret = join(scratch, 'oauth-secret')
    writeFileSync(secret, `${upstream.client.secret}\n`)
    let proxy: Listening | undefined
    try {
      // Without credentials: a setup error that says what to give.
      const refused = await runCli(['proxy', upstream.url], ROOT, 60_000, INITIALIZE)
      expect(refused.code).toBe(2)
      expect(refused.stderr).toContain(`could not connect to the upstream ${upstream.url}`)
      expect(refused.stderr).toContain('It asks for OAuth: give the proxy client credentials (--oauth-client-id, --oauth-client-secret-file, --oauth-issuer)')
      expect(upstream.tokenRequests).toEqual([])

      proxy = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--auth-token', 'caller-token', '--oauth-client-id', upstream.client.id, '--oauth-client-secret-file', secret, '--oauth-issuer', upstream.issuer, '--oauth-scope', 'tools', upstream.url])
      const client = new Client({ name: 'caller', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { requestInit: { headers: { authorization: 'Bearer caller-token' } } }))
      expect(JSON.stringify((await client.listTools()).tools)).not.toContain('oneOf')
      const picked = await call(client, 'pick', { shape: '{"kind":"circle","r":2}' })
      expect(JSON.parse(picked.content[0]!.text!)).toEqual({ shape: { kind: 'circle', r: 2 } })
      // One token, asked for with the proxy's own credentials, for this upstream and the scope given.
      expect(upstream.tokenRequests).toEqual([{ client: upstream.client.id, grant: 'client_credentials', scope: 'tools', resource: upstream.url }])
      expect(upstream.seen.filter(auth => auth !== undefined).every(auth => auth === 'Bearer token-1')).toBe(true)
      // Tokens expire: the next call is refused upstream, and the SDK's provider asks for a new one.
      upstream.expireTokens()
      const again = await call(client, 'pick', { shape: { kind: 'square', side: 3 } })
      expect(JSON.parse(again.content[0]!.text!)).toEqual({ shape: { kind: 'square', side: 3 } })
      expect(upstream.tokenRequests.length).toBe(2)
      expect(upstream.seen.at(-1)).toBe('Bearer token-2')
      // The caller's credential is the proxy's alone: never sent upstream, nor to the authorization server.
      expect(upstream.seen).not.toContain('Bearer caller-token')
      expect(JSON.stringify(upstream.tokenRequests)).not.toContain('caller-token')
      expect(proxy.stderr()).not.toContain(upstream.client.secret)
      await client.close()
    }
    finally {
      await proxy?.close()
      await upstream.close()
    }
  })

  it('sends its secret only to the issuer it was given: an upstream that names another authorization server is refused before any token request', async () => {
    const upstream = await startOAuthUpstream({ issuerOverride: 'http://127.0.0.1:9/elsewhere' })
    try {
      const run = await runCli(['proxy', '--oauth-client-id', upstream.client.id, '--oauth-issuer', upstream.issuer, upstream.url], ROOT, 60_000, INITIALIZE, { FLATMCP_OAUTH_CLIENT_SECRET: upstream.client.secret })
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(`could not connect to the upstream ${upstream.url}`)
      expect(upstream.tokenRequests).toEqual([])
      expect(run.stderr).not.toContain(upstream.client.secret)
    }
    finally {
      await upstream.close()
    }
  })

  it('takes a secret as given: one that holds ${NAME} is that text, from a file or from FLATMCP_OAUTH_CLIENT_SECRET', async () => {
    const upstream = await startOAuthUpstream({ secret: 'pa${HOME}ss' })
    const secret = join(scratch, 'dollar-secret')
    writeFileSync(secret, 'pa${HOME}ss\n')
    try {
      const flags = ['--oauth-client-id', upstream.client.id, '--oauth-issuer', upstream.issuer]
      const fromFile = await runCli(['snapshot', '--out', join(scratch, 'dollar.mcp.json'), ...flags, '--oauth-client-secret-file', secret, upstream.url])
      expect(fromFile.code, fromFile.stderr).toBe(0)
      const fromVariable = await runCli(['snapshot', '--out', join(scratch, 'dollar.mcp.json'), ...flags, upstream.url], ROOT, 60_000, undefined, { FLATMCP_OAUTH_CLIENT_SECRET: 'pa${HOME}ss' })
      expect(fromVariable.code, fromVariable.stderr).toBe(0)
      expect(upstream.tokenRequests).toHaveLength(2)
      expect(`${fromFile.stderr}${fromVariable.stderr}`).not.toContain('pa$')
    }
    finally {
      await upstream.close()
    }
  })

  it('takes all of its credentials or none, and never a secret on the command line', async () => {
    const usage = async (args: string[]): Promise<string> => {
      const run = await runCli(['proxy', ...args])
      expect(run.code).toBe(2)
      return run.stderr.split('\n')[0]!
    }
    expect(await usage(['--oauth-client-id', 'a', 'http://127.0.0.1:9/mcp'])).toContain('--oauth-client-id is for an OAuth-protected upstream: give --oauth-client-id, --oauth-issuer')
    expect(await usage(['--oauth-client-id', 'a', '--oauth-issuer', 'http://127.0.0.1:9', 'http://127.0.0.1:9/mcp'])).toContain('--oauth-client-id needs its secret: --oauth-client-secret-file file, or FLATMCP_OAUTH_CLIENT_SECRET')
    expect(await usage(['--oauth-client-id', 'a', '--oauth-issuer', 'http://127.0.0.1:9', '--header', 'Authorization: Bearer x', 'http://127.0.0.1:9/mcp'])).toContain('give one')
    expect(await usage(['--oauth-client-secret', 'x', 'http://127.0.0.1:9/mcp'])).toContain('unknown option --oauth-client-secret (did you mean --oauth-client-secret-file?)')
  })
})
