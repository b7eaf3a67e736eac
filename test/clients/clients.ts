// The real MCP clients the opt-in suite runs (`npm run test:clients`), pinned, each installed from the
// npm registry into a cache folder and pointed at the mock model on 127.0.0.1: nothing else leaves
// the machine. Each entry says how to run one turn of it with the example server as its only MCP server.
import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { ROOT } from '../support/client'

const run = promisify(execFile)

/** Where the clients are installed: FLATMCP_CLIENTS_DIR, or a cache folder in the workspace's node_modules. */
export const CLIENTS_DIR = process.env.FLATMCP_CLIENTS_DIR ?? path.join(ROOT, 'node_modules/.cache/flatmcp-clients')

/** A server as the turn's config lists it. */
export interface TurnServer {
  command: string
  args: string[]
  /** Codex's keys: the folder it starts in, and the variables of the client's environment passed to it. */
  cwd?: string
  env_vars?: string[]
}

/** What one turn of a client needs: its install folder, a fresh home, the mock's URL, the server command. */
export interface Turn {
  dir: string
  home: string
  mockUrl: string
  server: TurnServer
  /** Servers listed beside it, by name (the clients whose config takes several). */
  more?: Record<string, TurnServer>
  /** The MCP tool the turn calls, or several, comma-separated (some clients must be told which tools they may call). */
  tool: string
  prompt: string
}

export interface RealClient {
  name: string
  package: string
  version: string
  /** The client checks the model's arguments against the advertised schema before the server sees them. */
  validates: boolean
  /** Writes the client's configuration under `turn.home` and says what to run. */
  prepare: (turn: Turn) => { command: string, args: string[], env: Record<string, string> }
}

const claudeCode: RealClient = {
  name: 'Claude Code',
  package: '@anthropic-ai/claude-code',
  version: '2.1.332',
  validates: false,
  prepare(turn) {
    const config = path.join(turn.home, 'mcp.json')
    writeFileSync(config, JSON.stringify({ mcpServers: { chat: turn.server, ...turn.more } }))
    return {
      command: path.join(turn.dir, 'node_modules/.bin/claude'),
      // Root may not skip permissions: the one tool the turn calls is allowed by name instead.
      // (Under the chat server, or under flatmcp's where flatmcp install put the servers behind it.)
      args: ['-p', turn.prompt, '--mcp-config', config, '--strict-mcp-config', '--allowedTools', turn.tool.split(',').flatMap(tool => [`mcp__chat__${tool}`, `mcp__flatmcp__${tool}`]).join(',')],
      env: {
        ANTHROPIC_BASE_URL: turn.mockUrl,
        ANTHROPIC_API_KEY: 'sk-ant-mock',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        // MCP tools are deferred behind tool search by default; the turn wants them offered directly.
        ENABLE_TOOL_SEARCH: 'false',
      },
    }
  },
}

const geminiCli: RealClient = {
  name: 'Gemini CLI',
  package: '@google/gemini-cli',
  version: '0.61.0',
  validates: true,
  prepare(turn) {
    mkdirSync(path.join(turn.home, '.gemini'), { recursive: true })
    writeFileSync(path.join(turn.home, '.gemini/settings.json'), JSON.stringify({
      mcpServers: Object.fromEntries(Object.entries({ chat: turn.server, ...turn.more }).map(([name, server]) => [name, { ...server, trust: true }])),
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
    }))
    return {
      command: process.execPath,
      args: [path.join(turn.dir, 'node_modules/@google/gemini-cli/bundle/gemini.js'), '-p', turn.prompt, '--yolo'],
      env: { GEMINI_API_KEY: 'mock', GOOGLE_GEMINI_BASE_URL: turn.mockUrl, GEMINI_CLI_NO_RELAUNCH: 'true' },
    }
  },
}

const codex: RealClient = {
  name: 'Codex',
  package: '@openai/codex',
  version: '0.171.0',
  validates: false,
  prepare(turn) {
    const toml = (value: string): string => JSON.stringify(value)
    writeFileSync(path.join(turn.home, 'config.toml'), [
      'model = "gpt-5"',
      'model_provider = "mock"',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = ${toml(`${turn.mockUrl}/v1`)}`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      // The turn waits for each server: otherwise one slower to start than Codex's first request
      // (a Python server, a proxy in front of one) has its tools left out of that turn.
      ...Object.entries({ chat: turn.server, ...turn.more }).flatMap(([name, server]) => [
        `[mcp_servers.${name}]`,
        `command = ${toml(server.command)}`,
        `args = [${server.args.map(toml).join(', ')}]`,
        ...server.cwd === undefined ? [] : [`cwd = ${toml(server.cwd)}`],
        ...server.env_vars === undefined ? [] : [`env_vars = [${server.env_vars.map(toml).join(', ')}]`],
        'required = true',
      ]),
      '',
    ].join('\n'))
    return {
      command: path.join(turn.dir, 'node_modules/.bin/codex'),
      // An MCP call needs approval unless approvals are bypassed; the turn runs in a scratch home.
      args: ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', turn.prompt],
      env: { CODEX_HOME: turn.home, MOCK_API_KEY: 'mock' },
    }
  },
}

const openaiAgents: RealClient = {
  name: '@openai/agents',
  package: '@openai/agents',
  version: '0.20.0',
  validates: false,
  prepare(turn) {
    // The driver runs from the install folder, so its imports are the pinned packages.
    copyFileSync(path.join(ROOT, 'test/clients/agents-driver.mjs'), path.join(turn.dir, 'agents-driver.mjs'))
    return {
      command: process.execPath,
      args: [path.join(turn.dir, 'agents-driver.mjs'), turn.prompt, turn.server.command, ...turn.server.args],
      env: { MOCK_URL: turn.mockUrl },
    }
  },
}

export const REAL_CLIENTS: readonly RealClient[] = [claudeCode, geminiCli, codex, openaiAgents]

/** The MCP Inspector's CLI: no model behind it, it lists and calls as its command line says. */
export const INSPECTOR = { name: 'MCP Inspector', package: '@modelcontextprotocol/inspector', version: '2.12.0' }

/** Installs a client into its own folder under `CLIENTS_DIR` once; a folder with the marker is reused. */
export async function install(client: Pick<RealClient, 'package' | 'version'>): Promise<string> {
  const dir = path.join(CLIENTS_DIR, `${client.package.replace('/', '+')}@${client.version}`)
  const marker = path.join(dir, '.installed')
  if (existsSync(marker))
    return dir
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n')
  // Claude Code declares Node 22 but ships a native binary: the engine check would refuse it on Node 20.
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false', `${client.package}@${client.version}`], { cwd: dir, maxBuffer: 64 * 1024 * 1024 })
  writeFileSync(marker, `${client.package}@${client.version}\n`)
  return dir
}
