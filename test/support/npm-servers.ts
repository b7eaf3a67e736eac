// MCP servers published on npm, as operators run them: pinned in test/servers/package.json (with its
// lockfile), installed by the suite itself into a cache folder with `npm install --ignore-scripts` (no
// server needs its install script to list its tools; some would fetch a browser), and started the way
// their READMEs say, with dummy credentials in the environment a client's config would give them.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './client'

const MANIFEST = join(ROOT, 'test', 'servers')

/** Where the servers are installed: FLATMCP_SERVERS_DIR, or a cache folder in the workspace's node_modules. */
const CACHE = process.env.FLATMCP_SERVERS_DIR ?? join(ROOT, 'node_modules', '.cache', 'flatmcp-servers')

export interface NpmServer {
  /** What the tests call it. */
  name: string
  package: string
  /** What it is: a reference server, a vendor's, a browser server, one not written in TypeScript. */
  kind: 'reference' | 'vendor' | 'browser' | 'go'
  /** Its command, from the folder of installed binaries and a scratch folder of its own. */
  command: (bin: string, scratch: string) => string[]
  /** The environment its README's client config gives it (dummy credentials). */
  env: (scratch: string) => Record<string, string>
  /** It does not start at all without that environment. */
  needsEnv?: boolean
}

const bin = (name: string) => (dir: string): string[] => [join(dir, name)]

export const NPM_SERVERS: NpmServer[] = [
  { name: 'filesystem', package: '@modelcontextprotocol/server-filesystem', kind: 'reference', command: (dir, scratch) => [join(dir, 'mcp-server-filesystem'), scratch], env: () => ({}) },
  { name: 'memory', package: '@modelcontextprotocol/server-memory', kind: 'reference', command: bin('mcp-server-memory'), env: scratch => ({ MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') }) },
  { name: 'everything', package: '@modelcontextprotocol/server-everything', kind: 'reference', command: bin('mcp-server-everything'), env: () => ({}) },
  { name: 'sequential-thinking', package: '@modelcontextprotocol/server-sequential-thinking', kind: 'reference', command: bin('mcp-server-sequential-thinking'), env: () => ({ DISABLE_THOUGHT_LOGGING: 'true' }) },
  { name: 'github', package: '@modelcontextprotocol/server-github', kind: 'reference', command: bin('mcp-server-github'), env: () => ({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_offline' }) },
  { name: 'brave-search', package: '@modelcontextprotocol/server-brave-search', kind: 'reference', command: bin('mcp-server-brave-search'), env: () => ({ BRAVE_API_KEY: 'offline' }), needsEnv: true },
  { name: 'slack', package: '@modelcontextprotocol/server-slack', kind: 'reference', command: bin('mcp-server-slack'), env: () => ({ SLACK_BOT_TOKEN: 'xoxb-offline', SLACK_TEAM_ID: 'T0OFFLINE' }), needsEnv: true },
  { name: 'google-maps', package: '@modelcontextprotocol/server-google-maps', kind: 'reference', command: bin('mcp-server-google-maps'), env: () => ({ GOOGLE_MAPS_API_KEY: 'offline' }), needsEnv: true },
  { name: 'context7', package: '@upstash/context7-mcp', kind: 'vendor', command: bin('context7-mcp'), env: () => ({}) },
  { name: 'tavily', package: 'tavily-mcp', kind: 'vendor', command: bin('tavily-mcp'), env: () => ({ TAVILY_API_KEY: 'tvly-offline' }) },
  { name: 'firecrawl', package: 'firecrawl-mcp', kind: 'vendor', command: bin('firecrawl-mcp'), env: () => ({ FIRECRAWL_API_KEY: 'fc-offline' }) },
  { name: 'notion', package: '@notionhq/notion-mcp-server', kind: 'vendor', command: bin('notion-mcp-server'), env: () => ({ NOTION_TOKEN: 'ntn_offline' }) },
  { name: 'gitlab', package: '@zereight/mcp-gitlab', kind: 'vendor', command: bin('zereight-mcp-gitlab'), env: () => ({ GITLAB_PERSONAL_ACCESS_TOKEN: 'glpat-offline', GITLAB_API_URL: 'https://gitlab.invalid/api/v4' }), needsEnv: true },
  { name: 'playwright', package: '@playwright/mcp', kind: 'browser', command: dir => [join(dir, 'playwright-mcp'), '--headless', '--browser', 'chromium'], env: () => ({}) },
  {
    name: 'kubernetes',
    package: 'kubernetes-mcp-server',
    kind: 'go',
    command: (dir, scratch) => [join(dir, 'kubernetes-mcp-server'), '--kubeconfig', kubeconfig(scratch)],
    env: () => ({}),
  },
]

/** A kubeconfig naming a cluster nothing listens for: the Go server needs a context to start, not a cluster to list its tools. */
function kubeconfig(scratch: string): string {
  const file = join(scratch, 'kubeconfig')
  if (!existsSync(file)) {
    mkdirSync(scratch, { recursive: true })
    writeFileSync(file, ['apiVersion: v1', 'kind: Config', 'clusters:', '- cluster: { server: "https://127.0.0.1:9" }', '  name: offline', 'contexts:', '- context: { cluster: offline, user: offline }', '  name: offline', 'current-context: offline', 'users:', '- name: offline', '  user: { token: offline }', ''].join('\n'))
  }
  return file
}

/**
 * The folder of the installed servers' binaries, installed on first use (about 20 s, from the
 * committed lockfile) and kept, keyed by the lockfile's hash. `manifest` is the folder of the
 * package.json and lockfile: the suite's by default, or a benchmark's own.
 */
export function installNpmServers(manifest = MANIFEST): string {
  const lock = readFileSync(join(manifest, 'package-lock.json'))
  const dir = join(CACHE, createHash('sha256').update(lock).digest('hex').slice(0, 12))
  const ready = join(dir, '.ready')
  if (!existsSync(ready)) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    for (const file of ['package.json', 'package-lock.json'])
      copyFileSync(join(manifest, file), join(dir, file))
    // `npm install` with the lockfile in place installs what it pins; `npm ci` would refuse it, for
    // the Go server names platform packages the registry does not have, which the lockfile leaves out.
    execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: 600_000 })
    writeFileSync(ready, 'installed\n')
  }
  return join(dir, 'node_modules', '.bin')
}
