// `flatmcp proxy` in front of real Python servers (the official SDK and FastMCP, test/python), run
// as a real subprocess from the built CLI, with a real SDK 2.x client downstream: the flat list, calls
// that reach the upstream's handler with the output a direct call gives (valid ones, objects and
// arrays sent as JSON text, each profile's model answer mapped back), the upstream's own error for
// an invalid call, and resources and prompts passed through unchanged.
import type { ProfileName } from '@flatmcp/core'
import type { Connected } from './support/client'
import { compileTool, modelAnswer, PROFILE_NAMES, TARGET_NAMES } from '@flatmcp/core'
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { budgetedForms } from './support/budgeted-forms'
import { connectStdioV2 } from './support/client'
import { CLI, freePort, listening, progressOrder } from './support/proxy'
import { PYTHON_DIR, pythonStack } from './support/python'
import { SLOW } from './support/timeouts'

const stack = pythonStack()

interface Listed { name: string, description?: string, inputSchema: Record<string, any> }
type Result = { isError?: boolean, content: { type: string, text?: string }[] }

/** Values each tool's original takes, in the shapes that matter: unions, nulls, nested models. */
const CALLS: [string, Record<string, unknown>][] = [
  ['draw', { shape: { kind: 'circle', radius: 2 } }],
  ['draw', { shape: { kind: 'rect', w: 1, h: 2 }, color: 'blue', label: null, tags: ['a'] }],
  ['notify', { targets: [{ type: 'slack', channel: 'c', thread: null }, { type: 'email', address: 'a@b.c' }], message: 'hi' }],
  ['git_log', { repo_path: '/r', max_count: 3, paths: ['src'] }],
  ['lookup', { target: { name: 'n', owner: 'o' }, tree: { label: 'a', children: [{ label: 'b' }] } }],
  ['put_item', { table: 't', item: { pk: 'a', extra: 1 }, options: { limit: 5 }, values: { x: [1] } }],
  ['get_metric_data', { namespace: 'n', metric_name: 'm', dimensions: [{ name: 'd', value: 'v' }], statistic: 'Sum' }],
]

describe.skipIf('skipped' in stack).each(['mcp', 'fastmcp'] as const)('flatmcp proxy in front of the real Python %s', (sdk) => {
  const upstream = (): string[] => [(stack as { python: string }).python, join(PYTHON_DIR, 'serve.py'), sdk]
  let direct: Connected
  const proxies = new Map<ProfileName, Connected>()
  const proxy = (profile: ProfileName): Connected => proxies.get(profile)!
  let listed: Listed[]

  beforeAll(async () => {
    const [command, ...args] = upstream()
    direct = await connectStdioV2(command!, args, PYTHON_DIR)
    listed = (await direct.client.listTools()).tools as unknown as Listed[]
    // each profile the proxy serves (`minimal` has no route)
    for (const profile of PROFILE_NAMES.filter(name => name !== 'minimal'))
      proxies.set(profile, await connectStdioV2(process.execPath, [CLI, 'proxy', '--profile', profile, '--', ...upstream()], PYTHON_DIR))
  }, SLOW)

  afterAll(async () => {
    await Promise.all([direct, ...proxies.values()].map(connection => connection?.close()))
  })

  const call = async (connection: Connected, name: string, args: unknown): Promise<Result> => await connection.client.callTool({ name, arguments: args as Record<string, unknown> }) as Result

  it('lists every upstream tool flat: no oneOf, $ref, discriminator or title; the rest of the definition as the upstream said it', async () => {
    const flat = (await proxy('portable').client.listTools()).tools as unknown as Listed[]
    expect(flat.map(tool => tool.name)).toEqual(listed.map(tool => tool.name))
    for (const tool of flat) {
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toMatch(/"oneOf"|"anyOf"|"\$ref"|"\$defs"|"discriminator"|"title"/)
      // The proxy compiles as the build does: the same schema compileTool gives for the upstream's.
      const original = listed.find(t => t.name === tool.name)!
      expect(tool.inputSchema).toEqual(compileTool({ name: tool.name, input: original.inputSchema }, { preset: 'pydantic' }).inputSchema)
      expect(tool.description).toBe(original.description)
    }
    expect(proxy('portable').stderr()).toContain(`flatmcp proxy: serving ${listed.length} tools`)
  })

  it('a valid call reaches the upstream\'s handler with the output a direct call gives', async () => {
    for (const [name, args] of CALLS) {
      const expected = await call(direct, name, args)
      expect(expected.isError, `${name} ${JSON.stringify(args)}: ${expected.content[0]?.text}`).toBeFalsy()
      expect((await call(proxy('portable'), name, args)).content, name).toEqual(expected.content)
    }
  })

  it('objects and arrays sent as JSON text are repaired before they go upstream', async () => {
    const expected = await call(direct, 'draw', { shape: { kind: 'rect', w: 1, h: 2 }, tags: ['a', 'b'] })
    expect((await call(proxy('portable'), 'draw', { shape: '{"kind":"rect","w":1,"h":2}', tags: '["a","b"]' })).content).toEqual(expected.content)
    const nested = await call(direct, 'notify', { targets: [{ type: 'email', address: 'x@y.z', cc: ['a'] }], message: 'm' })
    expect((await call(proxy('portable'), 'notify', { targets: '[{"type":"email","address":"x@y.z","cc":["a"]}]', message: 'm' })).content).toEqual(nested.content)
  })

  it.each(TARGET_NAMES)('%s: the model\'s form of each call is mapped back to the output a direct call gives', async (profile) => {
    const advertised = (await proxy(profile).client.listTools()).tools as unknown as Listed[]
    const served = budgetedForms(listed, { profile, preset: 'pydantic' })
    for (const [name, args] of CALLS) {
      const compiled = served.get(name)!
      expect(advertised.find(t => t.name === name)!.inputSchema, `${profile} ${name}`).toEqual(compiled.inputSchema)
      const written = modelAnswer(compiled.inputSchema, compiled.decode, args, { nullsForMissing: profile === 'openai-strict' && compiled.strict === true })
      const expected = await call(direct, name, args)
      const got = await call(proxy(profile), name, written)
      expect(got.content, `${profile} ${name}: ${JSON.stringify(written)}`).toEqual(expected.content)
    }
  })

  it('an invalid call is answered with the upstream\'s own error', async () => {
    const direct_ = await call(direct, 'draw', { shape: { kind: 'rect', w: 1 } })
    const proxied = await call(proxy('portable'), 'draw', { shape: { kind: 'rect', w: 1 } })
    expect(direct_.isError).toBe(true)
    expect(proxied).toEqual(direct_)
  })

  it('resources, prompts and the capabilities pass through unchanged (the proxy\'s list may change: it says so)', async () => {
    const [a, b] = [direct.client, proxy('portable').client] as unknown as { listResources: () => Promise<unknown>, readResource: (p: unknown) => Promise<unknown>, listPrompts: () => Promise<unknown>, getPrompt: (p: unknown) => Promise<unknown>, getServerCapabilities: () => unknown }[]
    expect(await b!.listResources()).toEqual(await a!.listResources())
    expect(await b!.readResource({ uri: 'corpus://readme' })).toEqual(await a!.readResource({ uri: 'corpus://readme' }))
    expect(await b!.listPrompts()).toEqual(await a!.listPrompts())
    expect(await b!.getPrompt({ name: 'review', arguments: { code: 'x = 1' } })).toEqual(await a!.getPrompt({ name: 'review', arguments: { code: 'x = 1' } }))
    // Mirrored, but for the list changes the proxy says it may send (it withdraws an output schema a result missed).
    const own = a!.getServerCapabilities() as { tools?: object }
    expect(b!.getServerCapabilities()).toEqual({ ...own, tools: { ...own.tools, listChanged: true } })
  })
})

describe.skipIf('skipped' in stack)('flatmcp proxy, what happens while it runs (the real Python mcp server)', () => {
  let proxied: Connected

  beforeAll(async () => {
    proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--', (stack as { python: string }).python, join(PYTHON_DIR, 'serve.py'), 'mcp', 'extras'], PYTHON_DIR)
  }, SLOW)

  afterAll(async () => {
    await proxied?.close()
  })

  it('the upstream\'s progress on a call reaches the client, every update and ahead of the answer, however the reads fall', async () => {
    const upstream = [(stack as { python: string }).python, join(PYTHON_DIR, 'serve.py'), 'mcp', 'extras']
    expect(await progressOrder(upstream[0]!, upstream.slice(1), { name: 'count', arguments: { n: 5 } }, PYTHON_DIR)).toBe('PPPPPR')
    // Several runs: the SDK client drops progress that shares a read with its answer, and reads fall as the load has them.
    for (let run = 0; run < 3; run++)
      expect(await progressOrder(process.execPath, [CLI, 'proxy', '--', ...upstream], { name: 'count', arguments: { n: 5 } }, PYTHON_DIR)).toBe('PPPPPR')
  })

  it('a list that changes upstream is compiled anew, and the client is told', async () => {
    const told = new Promise<void>((resolve) => {
      (proxied.client as unknown as { setNotificationHandler: (method: string, handler: () => void) => void }).setNotificationHandler('notifications/tools/list_changed', () => resolve())
    })
    expect((await proxied.client.listTools()).tools.map(tool => tool.name)).not.toContain('echo_word')
    await proxied.client.callTool({ name: 'grow', arguments: {} })
    await told
    const grown = (await proxied.client.listTools()).tools.find(tool => tool.name === 'echo_word')
    expect(grown?.inputSchema).toEqual({ type: 'object', properties: { word: { type: 'string' }, times: { type: ['integer', 'null'], default: null } }, required: ['word'] })
    const said = await proxied.client.callTool({ name: 'echo_word', arguments: { word: 'ab', times: '2' } }) as Result
    expect(said.content[0]?.text).toBe('abab')
  })
})

describe.skipIf('skipped' in stack).each(['mcp', 'fastmcp'] as const)('flatmcp proxy in front of the real Python %s over Streamable HTTP', (sdk) => {
  let server: ChildProcess
  let proxied: Connected
  let direct: Connected

  beforeAll(async () => {
    const port = await freePort()
    const [command, ...args] = [(stack as { python: string }).python, join(PYTHON_DIR, 'serve.py'), sdk, '--http', String(port), ...(sdk === 'fastmcp' ? ['extras'] : [])]
    server = spawn(command!, args, { cwd: PYTHON_DIR, stdio: 'ignore' })
    await listening(port)
    const url = `http://127.0.0.1:${port}/mcp`
    proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--header', 'Authorization: Bearer s3cret-token', `${url}?key=s3cret-key`], PYTHON_DIR)
    direct = await connectStdioV2(process.execPath, [CLI, 'proxy', '--', command!, join(PYTHON_DIR, 'serve.py'), sdk, ...(sdk === 'fastmcp' ? ['extras'] : [])], PYTHON_DIR)
  }, SLOW)

  afterAll(async () => {
    await Promise.all([proxied?.close(), direct?.close()])
    server?.kill()
  })

  it('serves the same flat list and calls as over stdio, and never logs the URL\'s query or the headers', async () => {
    const [overHttp, overStdio] = await Promise.all([proxied.client.listTools(), direct.client.listTools()])
    expect(overHttp.tools).toEqual(overStdio.tools)
    const args = { shape: '{"kind":"circle","radius":3}', label: null }
    expect((await proxied.client.callTool({ name: 'draw', arguments: args }) as Result).content).toEqual((await direct.client.callTool({ name: 'draw', arguments: args }) as Result).content)
    expect(proxied.stderr()).toMatch(/flatmcp proxy: serving \d+ tools of http:\/\/127\.0\.0\.1:\d+\/mcp\n/)
    expect(proxied.stderr()).not.toContain('s3cret')
    // The upstream gets the operator's headers on every request (FastMCP can say which it got).
    if (sdk === 'fastmcp')
      expect((await proxied.client.callTool({ name: 'whoami', arguments: {} }) as Result).content[0]?.text).toBe('Bearer s3cret-token')
  })
})

describe.skipIf('skipped' in stack)('flatmcp proxy when an HTTP upstream restarts (the real Python mcp server: its sessions die with it)', () => {
  it('connects anew, says so, and the call that met the lost session is served', async () => {
    const port = await freePort()
    const start = (): ChildProcess => spawn((stack as { python: string }).python, [join(PYTHON_DIR, 'serve.py'), 'mcp', '--http', String(port)], { cwd: PYTHON_DIR, stdio: 'ignore' })
    let server = start()
    await listening(port)
    const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', `http://127.0.0.1:${port}/mcp`], PYTHON_DIR)
    try {
      const args = { shape: { kind: 'circle', radius: 1 } }
      const before = await proxied.client.callTool({ name: 'draw', arguments: args }) as Result
      server.kill()
      await once(server, 'exit')
      server = start()
      await listening(port)
      expect(await proxied.client.callTool({ name: 'draw', arguments: args })).toEqual(before)
      expect(proxied.stderr()).toMatch(/flatmcp proxy: http:\/\/127\.0\.0\.1:\d+\/mcp lost the session \(it restarted\?\); connected anew/)
    }
    finally {
      await proxied.close()
      server.kill()
    }
  })
})

describe.skipIf('skipped' in stack)('flatmcp proxy when the upstream is slow or dies', () => {
  const extras = (): string[] => ['--', (stack as { python: string }).python, join(PYTHON_DIR, 'serve.py'), 'mcp', 'extras']

  it('a call past --timeout is a tool error, and the next call is served', async () => {
    const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--timeout', '500', ...extras()], PYTHON_DIR)
    try {
      const slow = await proxied.client.callTool({ name: 'wait', arguments: { seconds: 5 } }) as Result
      expect(slow.isError).toBe(true)
      expect(slow.content[0]?.text).toMatch(/Tool "wait" failed: .*timed out/i)
      expect((await proxied.client.callTool({ name: 'wait', arguments: { seconds: 0.01 } }) as Result).content[0]?.text).toBe('waited 0.01')
    }
    finally {
      await proxied.close()
    }
  })

  it('an upstream that dies ends the proxy with a clear line, and the client is not left waiting', async () => {
    const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', ...extras()], PYTHON_DIR)
    const outcome = await proxied.client.callTool({ name: 'crash', arguments: {} }).then(() => 'answered', (error: Error) => `refused: ${error.message}`)
    expect(outcome).toMatch(/refused|answered/)
    for (let i = 0; i < 50 && !proxied.stderr().includes('the upstream server ended'); i++)
      await new Promise(resolve => setTimeout(resolve, 100))
    expect(proxied.stderr()).toContain('flatmcp proxy: the upstream server ended; stopping')
    await proxied.close().catch(() => {})
  })
})

describe('flatmcp proxy usage', () => {
  it('usage and set-up errors are said in a line (exit 2): one upstream, a command after -- or an http(s) URL; flags that go together; a file that is no snapshot; an upstream that cannot start', async () => {
    const { execFile } = await import('node:child_process')
    const run = (args: string[]): Promise<{ code: number, stderr: string }> => new Promise(resolve => execFile(process.execPath, [CLI, 'proxy', ...args], (error, _stdout, stderr) => resolve({ code: (error as { code?: number } | null)?.code ?? 0, stderr })))
    for (const args of [[], ['--'], ['http://a/mcp', '--', 'node', 'x.js'], ['ftp://a/mcp'], ['--on-invalid', 'keep', '--', 'node'], ['--header', 'nocolon', 'http://a/mcp'], ['--frozen', '--', 'node'], ['--host', '0.0.0.0', '--', 'node'], ['--out', 'x.json', '--', 'node'], ['--header', 'A: b', '--', 'node'], ['--profile', 'gemini', '--profile', 'portable', '--', 'node'], ['--timeout', '4294967296', '--', 'node']]) {
      const result = await run(args)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr, args.join(' ')).toMatch(/flatmcp: (proxy needs one upstream|the upstream URL must start with http|--on-invalid must be serve or drop|--header takes "Name: value"|--frozen serves only what a snapshot holds|--host is where --http listens|proxy takes no --out|--header is sent to an upstream URL|proxy serves one --profile|--timeout takes at most 2147483647 ms)/)
    }
    // A snapshot file that is not one, and an upstream that cannot be started: one line each, exit 2.
    const notSnapshot = await run(['--artifact', CLI, '--', 'node'])
    expect(notSnapshot.code).toBe(2)
    expect(notSnapshot.stderr).toMatch(/^flatmcp: .*cli\.mjs: .*\n$/)
    const missing = await run(['--', 'no-such-command-here'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/^flatmcp: could not connect to the upstream no-such-command-here: /)
  })
})
