// Real MCP clients, installed from npm at pinned versions, each given the example server (built with
// Vite and unplugin-flatmcp) and a mock model on 127.0.0.1 that offers one scripted tool call: what
// the client sends the model is recorded, and the tool's result it sends back shows what reached the
// server. Run with `npm run test:clients`.
import type { RealClient, TurnServer } from './clients'
import type { Script } from './mock-model'
import { execFile, spawn } from 'node:child_process'
import { createHash, randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../support/client'
import { installNpmServers } from '../support/npm-servers'
import { PYTHON_DIR, pythonStack } from '../support/python'
import { INSPECTOR, install, REAL_CLIENTS } from './clients'
import { startMockModel } from './mock-model'

const EXAMPLE = path.join(ROOT, 'examples/chat-server')
const SERVER = { command: process.execPath, args: [path.join(EXAMPLE, 'dist/vite/server-v2.mjs')] }
const album = [{ url: 'https://a.example/1.png' }, { url: 'https://a.example/2.png' }]
const dirs = new Map<RealClient, string>()

beforeAll(async () => {
  await promisify(execFile)('npm', ['run', '-s', 'build:vite'], { cwd: EXAMPLE, env: { ...process.env, NODE_OPTIONS: '' } })
  await Promise.all(REAL_CLIENTS.map(async client => dirs.set(client, await install(client))))
})

/** What a turn adds to the client's config: servers beside the example one, and a step once the config is written. */
interface Setup {
  more?: Record<string, TurnServer>
  /** Variables the client runs with besides its own. */
  env?: Record<string, string>
  before?: (home: string) => Promise<void>
}

/** One turn of a client against the mock: what the mock recorded, and the client's output for failure messages. */
async function turn(client: RealClient, script: Script, server = SERVER, prompt = 'Send the album to chat c1.', setup: Setup = {}): Promise<{ recorded: Awaited<ReturnType<typeof startMockModel>>['recorded'], output: string }> {
  const mock = await startMockModel(script)
  const home = mkdtempSync(path.join(tmpdir(), 'flatmcp-client-'))
  try {
    const tool = script.steps ? script.steps.map(step => step.tool).join(',') : script.tool
    const { command, args, env } = client.prepare({ dir: dirs.get(client)!, home, mockUrl: mock.url, server, tool, prompt, ...(setup.more ? { more: setup.more } : {}) })
    await setup.before?.(home)
    const child = spawn(command, args, { cwd: home, env: { PATH: process.env.PATH ?? '', HOME: home, ...env, ...setup.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
    const timer = setTimeout(() => child.kill(), 240_000)
    const code = await new Promise<number | null>(resolve => child.on('exit', resolve))
    clearTimeout(timer)
    return { recorded: mock.recorded, output: `exit ${code}\n${output.slice(-4000)}` }
  }
  finally {
    await mock.close()
    rmSync(home, { recursive: true, force: true })
  }
}

describe.each(REAL_CLIENTS.map(client => [`${client.name} ${client.version}`, client] as const))('%s', (_name, client) => {
  it('offers the model the flat schema, and a call with real JSON reaches the handler', async () => {
    const { recorded, output } = await turn(client, { tool: 'send_message', args: { chatId: 'c1', kind: 'mediaGroup', media: album } })
    expect(recorded.offered, output).toBeDefined()
    const schema = recorded.offered!.schema as Record<string, any>
    expect(schema.type).toBe('object')
    expect(Object.keys(schema).filter(key => ['oneOf', 'anyOf', 'allOf'].includes(key))).toEqual([])
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['kind', 'media', 'text']))
    expect(recorded.calls).toBe(1)
    expect(recorded.results.join('\n'), output).toContain('sent 2 files')
  })

  it(client.validates
    ? 'refuses media sent as JSON text itself, before the server sees it (it checks arguments against the advertised schema)'
    : 'passes media sent as JSON text on, and the server repairs it', async () => {
    const { recorded, output } = await turn(client, { tool: 'send_message', args: { chatId: 'c1', kind: 'mediaGroup', media: JSON.stringify(album) } })
    expect(recorded.calls, output).toBe(1)
    const results = recorded.results.join('\n')
    if (client.validates) {
      expect(results, output).not.toContain('sent 2 files')
      expect(results, output).toMatch(/media must be/)
    }
    else
      expect(results, output).toContain('sent 2 files')
  })
})

// `flatmcp proxy` in front of a real FastMCP server (test/python): the clients an operator points at
// the proxy instead of the server. The Python stack is made as the main suite makes it.
const stack = pythonStack()
const PROXIED = 'skipped' in stack ? undefined : { command: process.execPath, args: [path.join(ROOT, 'packages/cli/dist/cli.mjs'), 'proxy', '--', stack.python, path.join(PYTHON_DIR, 'serve.py'), 'fastmcp'] }
const PROXY_CLIENTS = REAL_CLIENTS.filter(client => client.package !== '@openai/agents')

describe.skipIf(PROXIED === undefined).each(PROXY_CLIENTS.map(client => [`${client.name} ${client.version}`, client] as const))('%s through flatmcp proxy in front of FastMCP', (_name, client) => {
  const rect = { kind: 'rect', w: 1, h: 2 }
  // What FastMCP's handler echoes of what pydantic parsed (a client may pass it on as JSON inside
  // JSON: read without its escapes): the rectangle reached it as an object.
  const reached = /"shape": \{"h": 2\.0, "kind": "rect", "w": 1\.0\}/
  const resultsOf = (recorded: { results: string[] }): string => recorded.results.join('\n').replaceAll('\\', '')

  it('offers the model the proxy\'s flat schema (no oneOf, $ref or title), and a call with real JSON reaches the Python handler', async () => {
    const { recorded, output } = await turn(client, { tool: 'draw', args: { shape: rect, color: 'blue' } }, PROXIED!, 'Draw a blue rectangle.')
    expect(recorded.offered, output).toBeDefined()
    const schema = recorded.offered!.schema as Record<string, any>
    expect(JSON.stringify(schema)).not.toMatch(/"oneOf"|"\$ref"|"\$defs"|"title"/)
    expect(Object.keys(schema.properties.shape.properties)).toEqual(expect.arrayContaining(['kind', 'radius', 'w', 'h']))
    expect(recorded.calls).toBe(1)
    expect(resultsOf(recorded), output).toMatch(reached)
  })

  it(client.validates
    ? 'refuses a shape sent as JSON text itself, before the proxy sees it'
    : 'passes a shape sent as JSON text on, and the proxy repairs it before pydantic (which refuses it) sees it', async () => {
    const { recorded, output } = await turn(client, { tool: 'draw', args: { shape: JSON.stringify(rect) } }, PROXIED!, 'Draw a rectangle.')
    expect(recorded.calls, output).toBe(1)
    const results = resultsOf(recorded)
    if (client.validates)
      expect(results, output).not.toMatch(reached)
    else
      expect(results, output).toMatch(reached)
  })
})

// `flatmcp proxy` in front of a server from the npm registry (the filesystem server, which asks its
// client for roots) and a server whose output schemas clients refuse or whose results miss them
// (test/support/upstream-outputs.ts, on the SDK 1.x): what the operator's clients meet.
const SERVERS_BIN = installNpmServers()
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href
const proxied = (...upstream: string[]): { command: string, args: string[] } => ({ command: process.execPath, args: [path.join(ROOT, 'packages/cli/dist/cli.mjs'), 'proxy', '--', ...upstream] })
const FILESYSTEM = proxied(path.join(SERVERS_BIN, 'mcp-server-filesystem'), path.join(ROOT, 'test'))
const OUTPUTS = proxied(process.execPath, '--import', TSX_LOADER, path.join(ROOT, 'test/support/upstream-outputs.ts'))
const OPERATOR_CLIENTS = REAL_CLIENTS.filter(client => ['Claude Code', 'Gemini CLI'].includes(client.name))

describe.each(OPERATOR_CLIENTS.map(client => [`${client.name} ${client.version}`, client] as const))('%s through flatmcp proxy in front of servers as operators run them', (_name, client) => {
  it('roots reach the server: the filesystem server allows the client\'s working folder, not the folder on its command line, as it does directly', async () => {
    const { recorded, output } = await turn(client, { tool: 'list_allowed_directories', args: {} }, FILESYSTEM, 'Which directories may you read?')
    expect(recorded.calls, output).toBe(1)
    const results = recorded.results.join('\n')
    expect(results, output).toContain('Allowed directories')
    expect(results, output).toMatch(/flatmcp-client-/)
    expect(results, output).not.toContain(path.join(ROOT, 'test'))
  })

  it('an output schema clients refuse as listed (draft-07 $schema, definitions, a union): compiled, the call succeeds with its structured result', async () => {
    const { recorded, output } = await turn(client, { tool: 'forecast', args: { city: 'Oslo', days: 2 } }, OUTPUTS, 'Forecast for Oslo.')
    expect(recorded.calls, output).toBe(1)
    expect(recorded.results.join('\n').replaceAll('\\', ''), output).toMatch(/"kind":"rain"/)
  })

  it('a server whose result misses its own output schema: the proxy withdraws the schema, so the next call succeeds (the first fails the client\'s own check)', async () => {
    const { recorded, output } = await turn(client, { tool: 'echo', args: { word: 'hi' }, times: 2 }, OUTPUTS, 'Echo hi twice.')
    expect(recorded.calls, output).toBe(2)
    expect(recorded.results[0], output).toMatch(/does not match the tool's output schema/)
    expect(recorded.results[1], output).not.toMatch(/does not match|error/)
    expect(recorded.results[1], output).toMatch(/echo/)
  })
})


// Strict mode through the proxy: `@openai/agents` converting MCP schemas to strict (it sends a
// schema strict mode takes with `strict: true`, any other without) in front of the filesystem
// server, whose list_allowed_directories says nothing of other keys. Alone, the agent sends it
// non-strict; through `flatmcp proxy --profile openai-strict`, strict, its other keys in a rest key,
// and the strict call reaches the server.
const STRICT_AGENT = REAL_CLIENTS.find(client => client.name === '@openai/agents')!
const STRICT_FILESYSTEM = { command: process.execPath, args: [path.join(ROOT, 'packages/cli/dist/cli.mjs'), 'proxy', '--profile', 'openai-strict', '--', path.join(SERVERS_BIN, 'mcp-server-filesystem'), path.join(ROOT, 'test')] }

describe(`${STRICT_AGENT.name} ${STRICT_AGENT.version} in strict mode`, () => {
  it('through flatmcp proxy --profile openai-strict, a tool the server leaves open is offered strict, and the strict call reaches the server', async () => {
    const alone = await turn(STRICT_AGENT, { tool: 'list_allowed_directories', args: {} }, { command: path.join(SERVERS_BIN, 'mcp-server-filesystem'), args: [path.join(ROOT, 'test')] }, 'Which directories may you read?', { env: { STRICT: '1' } })
    expect(alone.recorded.offered?.strict, alone.output).toBe(false)
    const { recorded, output } = await turn(STRICT_AGENT, { tool: 'list_allowed_directories', args: { other_keys: '{}' } }, STRICT_FILESYSTEM, 'Which directories may you read?', { env: { STRICT: '1' } })
    expect(recorded.offered, output).toMatchObject({ strict: true, schema: { type: 'object', properties: { other_keys: { type: 'string' } }, required: ['other_keys'], additionalProperties: false } })
    expect(recorded.calls, output).toBe(1)
    expect(recorded.results.join('\n'), output).toContain('Allowed directories')
    expect(recorded.results.join('\n'), output).toContain(path.join(ROOT, 'test'))
  })
})

// The era bridge: Codex has no 2026-07-28 client, so a server that speaks only that era reaches it
// through the proxy, and the server's question (an `input_required` round) as `elicitation/create`.
// `codex exec`, which runs with approvals off, declines a form of its own accord: the decline is the
// answer the server gets, and the call completes with it.
const CODEX = REAL_CLIENTS.find(client => client.name === 'Codex')!
// The server runs from the turn's scratch home: tsx is given by its path, not by name.
const ROUNDS = { command: process.execPath, args: [path.join(ROOT, 'packages/cli/dist/cli.mjs'), 'proxy', '--', process.execPath, '--import', path.join(ROOT, 'node_modules/tsx/dist/loader.mjs'), path.join(ROOT, 'test/support/rounds-upstream.ts')] }

describe(`${CODEX.name} ${CODEX.version} in front of a server that speaks only MCP 2026-07-28`, () => {
  it('through flatmcp proxy, the server\'s question reaches Codex as elicitation/create and the call completes with its answer', async () => {
    const { recorded, output } = await turn(CODEX, { tool: 'confirm', args: { question: 'Who are you?' } }, ROUNDS, 'Ask who I am.')
    expect(recorded.calls, output).toBe(1)
    expect(recorded.results.join('\n'), output).toContain('{"action":"decline","content":null}')
  })
})

// The search surface (`flatmcp proxy --surface search`) in front of the example server: the clients
// that send every listed tool to the model each turn are offered three; the model finds the tool,
// describes it, and calls it through call_tool, and the call reaches the handler as a direct one does.
const SURFACE = { command: process.execPath, args: [path.join(ROOT, 'packages/cli/dist/cli.mjs'), 'proxy', '--surface', 'search', '--', SERVER.command, ...SERVER.args] }
const SURFACE_CLIENTS = REAL_CLIENTS.filter(client => ['Claude Code', 'Codex', 'Gemini CLI'].includes(client.name))

describe.each(SURFACE_CLIENTS.map(client => [`${client.name} ${client.version}`, client] as const))('%s through flatmcp proxy --surface search', (_name, client) => {
  it('is offered the three tools, not the server\'s own; finds, describes and calls, and the call reaches the handler', async () => {
    const steps = [
      { tool: 'find_tools', args: { query: 'send an album to a chat' } },
      { tool: 'describe_tools', args: { names: ['send_message'] } },
      { tool: 'call_tool', args: { name: 'send_message', arguments: { chatId: 'c1', kind: 'mediaGroup', media: album } } },
    ]
    const { recorded, output } = await turn(client, { tool: 'call_tool', args: {}, steps }, SURFACE, 'Send the album to chat c1.')
    const offered = recorded.offeredNames.filter(name => /find_tools|describe_tools|call_tool|send_message|get_chat/.test(name))
    expect(offered.map(name => name.replace(/^.*?(find_tools|describe_tools|call_tool|send_message|get_chat)$/, '$1')).sort(), output).toEqual(['call_tool', 'describe_tools', 'find_tools'])
    expect(recorded.calls, output).toBe(3)
    const [found, described, called] = recorded.results.map(result => result.replaceAll('\\', ''))
    expect(found, output).toMatch(/send_message: /)
    expect(described, output).toMatch(/"name":"send_message"/)
    expect(described, output).toMatch(/"schemaHash":"[0-9a-f]{64}"/)
    expect(called, output).toContain('sent 2 files')
  })
})

// `flatmcp install` on the client's own config, the example server and a calendar server in it: the
// client then runs one flatmcp entry behind --config's surface (auto: the search surface for a list
// this size; Claude Code, which defers MCP tools itself, is given the full list), and a call reaches
// the example server's handler through the proxy.
const CALENDAR = { command: process.execPath, args: [path.join(ROOT, 'test/golden/proxied/upstream.mjs')] }
const CALENDAR_TOOLS = (JSON.parse(readFileSync(path.join(ROOT, 'test/golden/proxied/tools.json'), 'utf8')) as { name: string }[]).map(tool => tool.name)

/** Runs `flatmcp install CLIENT --file FILE` from `cwd`: what it said. */
async function installFlatmcp(client: string, file: string, cwd: string): Promise<string> {
  return (await promisify(execFile)(process.execPath, [path.join(ROOT, 'packages/cli/dist/cli.mjs'), 'install', client, '--file', file], { cwd })).stderr
}
const INSTALLED: Record<string, { client: string, file: (home: string) => string, full: boolean }> = {
  'Claude Code': { client: 'claude-code', file: home => path.join(home, 'mcp.json'), full: true },
  'Gemini CLI': { client: 'gemini', file: home => path.join(home, '.gemini/settings.json'), full: false },
  'Codex': { client: 'codex', file: home => path.join(home, 'config.toml'), full: false },
}

describe.each(SURFACE_CLIENTS.map(client => [`${client.name} ${client.version}`, client] as const))('%s after flatmcp install', (_name, client) => {
  const { client: name, file, full } = INSTALLED[client.name]!
  it(full ? 'runs one flatmcp entry for both servers with --surface full: offered every tool of each by NAME__tool, and a call reaches its own server' : 'runs one flatmcp entry for both servers behind --config\'s auto surface: offered the three tools, and a call through call_tool reaches its own server', async () => {
    let config = ''
    const before = async (home: string): Promise<void> => {
      expect(await installFlatmcp(name, file(home), home)).toContain('chat, calendar now run behind flatmcp')
      config = readFileSync(file(home), 'utf8')
    }
    const send = { chatId: 'c1', kind: 'mediaGroup', media: album }
    const steps = [
      { tool: 'find_tools', args: { query: 'send an album to a chat' } },
      { tool: 'call_tool', args: { name: 'chat__send_message', arguments: send } },
    ]
    const asked = full ? { tool: 'chat__send_message', args: send } : { tool: 'call_tool', args: {}, steps }
    const { recorded, output } = await turn(client, asked, SERVER, 'Send the album to chat c1.', { more: { calendar: CALENDAR }, before })
    expect(config).not.toContain('"calendar"')
    expect(config.includes('"--surface"') || config.includes('\'--surface\''), config).toBe(full)
    const served = recorded.offeredNames.map(offered => /(chat|calendar)__\w+$|(find_tools|describe_tools|call_tool)$/.exec(offered)?.[0]).filter(Boolean)
    if (full)
      expect(served, output).toEqual(expect.arrayContaining([...CALENDAR_TOOLS.map(tool => `calendar__${tool}`), 'chat__send_message']))
    else
      expect(served.sort(), output).toEqual(['call_tool', 'describe_tools', 'find_tools'])
    expect(recorded.calls, output).toBe(full ? 1 : 2)
    expect(recorded.results.at(-1), output).toContain('sent 2 files')
    if (!full)
      expect(recorded.results[0]!.replaceAll('\\', ''), output).toMatch(/chat__send_message: /)
  })
})

// Codex gives a server only a few variables of its own and those its entry's `env_vars` names, in the
// entry's `cwd`. A server whose token is named there, installed behind flatmcp: flatmcp's entry names
// the variable in turn, so the server, started by the proxy Codex starts, still sees the token (its
// digest, not its value, comes back) in its own folder. With the env_vars line taken out of
// flatmcp's installed entry (as install wrote it before), the server answered "set": false.
describe(`${CODEX.name} ${CODEX.version} after flatmcp install of a server with env_vars and cwd`, () => {
  it('passes the variable its env_vars named through flatmcp to the server, which starts in its cwd', async () => {
    const secret = `tok-${randomUUID()}`
    const folder = realpathSync(mkdtempSync(path.join(tmpdir(), 'flatmcp-cwd-')))
    let config = ''
    const before = async (home: string): Promise<void> => {
      expect(await installFlatmcp('codex', path.join(home, 'config.toml'), home)).toContain('chat, calendar, token now run behind flatmcp')
      config = readFileSync(path.join(home, 'config.toml'), 'utf8')
    }
    const token = { command: process.execPath, args: [path.join(ROOT, 'test/support/env-upstream.mjs')], cwd: folder, env_vars: ['SOME_TOKEN'] }
    const call = { tool: 'call_tool', args: { name: 'token__variable', arguments: { name: 'SOME_TOKEN' } } }
    try {
      const { recorded, output } = await turn(CODEX, call, SERVER, 'Is SOME_TOKEN set?', { more: { calendar: CALENDAR, token }, env: { SOME_TOKEN: secret }, before })
      expect(config).toMatch(/env_vars = \[.*"SOME_TOKEN".*\]/)
      expect(recorded.calls, output).toBe(1)
      const answered = recorded.results.join('\n').replaceAll('\\', '')
      expect(answered, output).toContain(`"cwd":${JSON.stringify(folder)}`)
      expect(answered, output).toContain(`"set":true,"sha256":"${createHash('sha256').update(secret).digest('hex')}"`)
    }
    finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

describe(`${INSPECTOR.name} ${INSPECTOR.version}'s CLI`, () => {
  const CLI = path.join(ROOT, 'packages/cli/dist/cli.mjs')
  const memory = path.join(SERVERS_BIN, 'mcp-server-memory')
  const entities = JSON.stringify([{ name: 'flatmcp', entityType: 'tool', observations: ['flat'] }])

  /** The Inspector run once in CLI mode; its JSON answer, and its output for failure messages. */
  async function inspect(args: string[], home: string): Promise<{ answer: any, output: string }> {
    const dir = await install(INSPECTOR)
    const { stdout, stderr } = await promisify(execFile)(path.join(dir, 'node_modules/.bin/mcp-inspector'), ['--cli', ...args], { cwd: home, env: { PATH: process.env.PATH ?? '', HOME: home, MCP_INSPECTOR_SECRET_STORE: 'memory', MEMORY_FILE_PATH: path.join(home, 'memory.jsonl') }, timeout: 120_000 })
    return { answer: JSON.parse(stdout.slice(stdout.indexOf('{'))), output: `${stdout}\n${stderr}`.slice(-4000) }
  }

  it('runs flatmcp proxy from its --config file, the upstream command given without -- and with it, and from its own command line: the list is the proxy\'s, a call with JSON text reaches the server', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'flatmcp-inspector-'))
    try {
      const env = { MEMORY_FILE_PATH: path.join(home, 'memory.jsonl') }
      writeFileSync(path.join(home, 'mcp.json'), JSON.stringify({ mcpServers: {
        bare: { command: process.execPath, args: [CLI, 'proxy', '--surface', 'full', memory], env },
        dashed: { command: process.execPath, args: [CLI, 'proxy', '--', memory], env },
      } }))
      for (const server of ['bare', 'dashed']) {
        const { answer, output } = await inspect(['--config', 'mcp.json', '--server', server, '--method', 'tools/list'], home)
        const create = answer.tools.find((tool: { name: string }) => tool.name === 'create_entities')
        expect(create?.inputSchema.properties.entities.type, output).toBe('array')
        expect(JSON.stringify(answer), output).not.toContain('$schema')
      }
      // Its own command line: the server's command before its --, its options after.
      // The Inspector passes a server only the variables its -e names (the SDK's default environment besides).
      const { answer, output } = await inspect([process.execPath, CLI, 'proxy', memory, '--', '-e', `MEMORY_FILE_PATH=${env.MEMORY_FILE_PATH}`, '--method', 'tools/call', '--tool-name', 'create_entities', '--tool-arg', `entities=${JSON.stringify(entities)}`], home)
      expect(answer.isError ?? false, output).toBe(false)
      expect(answer.structuredContent?.entities?.[0]?.name, output).toBe('flatmcp')
      expect(readFileSync(env.MEMORY_FILE_PATH, 'utf8')).toContain('"name":"flatmcp"')
    }
    finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
