// The clients `flatmcp install` knows: where each keeps its MCP servers (by scope and platform), in
// which format and under which key, and how an entry that runs flatmcp is written in it.
import type { EntryShape } from './entries'
import type { ShapeKey } from './shapes'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'

export type ConfigFormat = 'json' | 'toml' | 'yaml'
export type Scope = 'user' | 'project'

export interface InstallClient {
  /** As `flatmcp install <name>` takes it. */
  name: string
  /** As the client calls itself. */
  title: string
  format: ConfigFormat
  /** The key its servers are under: a row of the shapes' table (shapes.ts). */
  key: ShapeKey
  /** Its servers are a list of entries, each with its `name` (Continue), not an object by name. */
  list?: boolean
  /** Its entry names itself too (`name`: Goose, Continue): flatmcp's is written with `name: "flatmcp"`. */
  named?: boolean
  /** How its entry differs from the one flatmcp's `--config` reads (entries.ts), where it does. */
  entry?: EntryShape
  /** Its config file in each scope it has, from the home folder, the folder it runs in and the environment. */
  files: Partial<Record<Scope, (where: Where) => string>>
  /** What its entry for a stdio server holds besides the command and arguments. */
  stdio?: Record<string, unknown>
  /** The `--surface` its proxy is given where the operator names none: a client that defers MCP tools itself gets every schema. */
  surface?: 'full'
  /** It reads a bare `$NAME` in an entry's `env` as a variable too (Gemini CLI): moved as `${NAME}`, which flatmcp reads. */
  bareVariables?: boolean
  /**
   * Its keys of how it starts and trusts a server, carried from the entries moved onto flatmcp's
   * own: set where `any` moved entry sets it, where `all` do, or the largest (`max`).
   */
  carried?: Readonly<Record<string, 'any' | 'all' | 'max'>>
  /**
   * Its own variables in an entry besides the environment's (VS Code's `${workspaceFolder}`) and what
   * each stands for: resolved as the install's scope knows them, else the server stays with the client.
   */
  variables?: Readonly<Record<string, ClientVariable>>
  /**
   * It starts a server with a few variables of its own and those this key of the entry names (Codex's
   * `env_vars`): flatmcp's entry names there every variable the moved servers read from its environment.
   */
  passes?: 'env_vars'
}

/** What a client's variable stands for: the project's folder or its name, the home folder, the path separator. */
export type ClientVariable = 'project' | 'project-name' | 'home' | 'separator'

/** VS Code's predefined variables an MCP entry may use, as VS Code and Cursor document them. */
const EDITOR_VARIABLES: Readonly<Record<string, ClientVariable>> = { 'workspaceFolder': 'project', 'workspaceFolderBasename': 'project-name', 'userHome': 'home', 'pathSeparator': 'separator', '/': 'separator' }

/** What a config's place depends on. */
export interface Where {
  home: string
  cwd: string
  platform: NodeJS.Platform
  env: Readonly<Record<string, string | undefined>>
}

/** The folder of settings by the XDG convention (Linux, and the CLIs that keep to it on macOS too). */
function xdgConfig(where: Where): string {
  return where.env.XDG_CONFIG_HOME ?? path.join(where.home, '.config')
}

/** A VS Code extension's settings file (Cline's, Roo Code's), in VS Code's own folder. */
function vscodeExtension(where: Where, extension: string, file: string): string {
  return path.join(appData(where, 'Code'), 'User', 'globalStorage', extension, 'settings', file)
}

/** The folder an application keeps its settings in on this platform (Claude Desktop's, VS Code's). */
function appData(where: Where, app: string): string {
  if (where.platform === 'darwin')
    return path.join(where.home, 'Library', 'Application Support', app)
  if (where.platform === 'win32')
    return path.join(where.env.APPDATA ?? path.join(where.home, 'AppData', 'Roaming'), app)
  return path.join(where.env.XDG_CONFIG_HOME ?? path.join(where.home, '.config'), app)
}

export const INSTALL_CLIENTS: readonly InstallClient[] = [
  {
    name: 'claude-code',
    title: 'Claude Code',
    surface: 'full',
    format: 'json',
    key: 'mcpServers',
    files: { project: w => path.join(w.cwd, '.mcp.json'), user: w => path.join(w.home, '.claude.json') },
  },
  {
    name: 'claude-desktop',
    title: 'Claude Desktop',
    format: 'json',
    key: 'mcpServers',
    files: { user: w => path.join(appData(w, 'Claude'), 'claude_desktop_config.json') },
  },
  {
    name: 'cursor',
    title: 'Cursor',
    format: 'json',
    key: 'mcpServers',
    files: { project: w => path.join(w.cwd, '.cursor', 'mcp.json'), user: w => path.join(w.home, '.cursor', 'mcp.json') },
    variables: EDITOR_VARIABLES,
  },
  {
    name: 'vscode',
    title: 'VS Code',
    format: 'json',
    key: 'servers',
    files: { project: w => path.join(w.cwd, '.vscode', 'mcp.json'), user: w => path.join(appData(w, 'Code'), 'User', 'mcp.json') },
    stdio: { type: 'stdio' },
    variables: EDITOR_VARIABLES,
  },
  {
    name: 'gemini',
    title: 'Gemini CLI',
    format: 'json',
    key: 'mcpServers',
    files: { project: w => path.join(w.cwd, '.gemini', 'settings.json'), user: w => path.join(w.home, '.gemini', 'settings.json') },
    bareVariables: true,
    carried: { trust: 'all', timeout: 'max' },
  },
  {
    name: 'codex',
    title: 'Codex',
    format: 'toml',
    key: 'mcp_servers',
    files: { user: w => path.join(w.env.CODEX_HOME || path.join(w.home, '.codex'), 'config.toml') },
    carried: { required: 'any', startup_timeout_sec: 'max', startup_timeout_ms: 'max', tool_timeout_sec: 'max' },
    passes: 'env_vars',
  },
  {
    name: 'cline',
    title: 'Cline',
    format: 'json',
    key: 'mcpServers',
    files: { user: w => vscodeExtension(w, 'saoudrizwan.claude-dev', 'cline_mcp_settings.json') },
    carried: { timeout: 'max' },
  },
  {
    name: 'roo-code',
    title: 'Roo Code',
    format: 'json',
    key: 'mcpServers',
    files: { project: w => path.join(w.cwd, '.roo', 'mcp.json'), user: w => vscodeExtension(w, 'rooveterinaryinc.roo-cline', 'mcp_settings.json') },
    entry: { keys: { disabledTools: 'excludeTools' } },
    carried: { timeout: 'max' },
  },
  {
    name: 'windsurf',
    title: 'Windsurf',
    format: 'json',
    key: 'mcpServers',
    files: { user: w => path.join(w.home, '.codeium', 'windsurf', 'mcp_config.json') },
    entry: { keys: { disabledTools: 'excludeTools' } },
  },
  {
    name: 'kiro',
    title: 'Kiro',
    format: 'json',
    key: 'mcpServers',
    files: { project: w => path.join(w.cwd, '.kiro', 'settings', 'mcp.json'), user: w => path.join(w.home, '.kiro', 'settings', 'mcp.json') },
    entry: { keys: { disabledTools: 'excludeTools' } },
    carried: { timeout: 'max' },
  },
  {
    name: 'lm-studio',
    title: 'LM Studio',
    format: 'json',
    key: 'mcpServers',
    files: { user: w => path.join(w.home, '.lmstudio', 'mcp.json') },
  },
  {
    name: 'zed',
    title: 'Zed',
    format: 'json',
    key: 'context_servers',
    files: {
      project: w => path.join(w.cwd, '.zed', 'settings.json'),
      user: w => w.platform === 'win32' ? path.join(appData(w, 'Zed'), 'settings.json') : path.join(xdgConfig(w), 'zed', 'settings.json'),
    },
    stdio: { source: 'custom' },
    entry: { idle: { source: 'custom' }, own: { key: 'source', value: 'extension', what: 'an extension Zed runs itself' } },
  },
  {
    name: 'opencode',
    title: 'opencode',
    format: 'json',
    key: 'mcp',
    files: { project: w => path.join(w.cwd, 'opencode.json'), user: w => path.join(xdgConfig(w), 'opencode', 'opencode.json') },
    stdio: { type: 'local', enabled: true },
    entry: { keys: { environment: 'env' }, types: { local: 'stdio', remote: 'http' }, commandList: true },
    carried: { timeout: 'max' },
  },
  {
    name: 'crush',
    title: 'Crush',
    format: 'json',
    key: 'mcp',
    files: {
      project: w => path.join(w.cwd, '.crush.json'),
      user: w => w.platform === 'win32' ? path.join(w.env.LOCALAPPDATA ?? path.join(w.home, 'AppData', 'Local'), 'crush', 'crush.json') : path.join(xdgConfig(w), 'crush', 'crush.json'),
    },
    stdio: { type: 'stdio' },
    carried: { timeout: 'max' },
  },
  {
    name: 'goose',
    title: 'Goose',
    format: 'yaml',
    key: 'extensions',
    named: true,
    files: { user: w => w.platform === 'win32' ? path.join(appData(w, path.join('Block', 'goose')), 'config', 'config.yaml') : path.join(xdgConfig(w), 'goose', 'config.yaml') },
    stdio: { type: 'stdio', enabled: true, envs: {}, env_keys: [], timeout: 300, bundled: null, description: 'MCP servers behind flatmcp' },
    entry: {
      keys: { cmd: 'command', envs: 'env', uri: 'url', available_tools: 'includeTools' },
      types: { stdio: 'stdio', streamable_http: 'http' },
      idle: { bundled: null, env_keys: [], available_tools: [], envs: {} },
    },
    carried: { timeout: 'max' },
  },
  {
    name: 'continue',
    title: 'Continue',
    format: 'yaml',
    key: 'mcpServers',
    list: true,
    named: true,
    files: { user: w => path.join(w.home, '.continue', 'config.yaml') },
    entry: { keys: { connectionTimeout: 'timeout' } },
  },
]

/** This machine's places: the home folder, the folder the command runs in, the platform and environment. */
export function here(): Where {
  return { home: homedir(), cwd: process.cwd(), platform: process.platform, env: process.env }
}

/**
 * The config file a client is installed into: the one named, else the scope's, else its project
 * file where one exists here, else its user file.
 */
export function configFileOf(client: InstallClient, where: Where, scope?: Scope): { file: string, scope: Scope } | { missing: Scope } {
  if (scope !== undefined) {
    const place = client.files[scope]
    return place ? { file: place(where), scope } : { missing: scope }
  }
  const project = client.files.project?.(where)
  if (project !== undefined && existsSync(project))
    return { file: project, scope: 'project' }
  return { file: client.files.user!(where), scope: 'user' }
}

/** The client's start-up and trust keys of the entries moved, as flatmcp's entry carries them. */
export function carriedKeys(client: InstallClient, moved: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, how] of Object.entries(client.carried ?? {})) {
    const values = moved.map(entry => (entry as Record<string, unknown>)[key])
    if (how === 'any' && values.includes(true))
      out[key] = true
    if (how === 'all' && values.every(value => value === true))
      out[key] = true
    const numbers = values.filter((value): value is number => typeof value === 'number')
    if (how === 'max' && numbers.length > 0)
      out[key] = Math.max(...numbers)
  }
  return out
}
