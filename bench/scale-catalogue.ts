// The catalogue of the benchmark at a large operator's scale: LiveMCPTool's snapshot (70 servers), the
// suite's npm servers (test/support/npm-servers.ts) and the pinned vendors' servers of
// bench/scale-servers.ts, each listed live once and cached under node_modules/.cache keyed by the
// lockfiles' and the start table's hash. A server that fails or hangs is reported and left out.
import type { McpTool } from '../packages/runtime/src/artifact/format'
import type { ScaleServer } from './scale-harness'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { installNpmServers, NPM_SERVERS } from '../test/support/npm-servers'
import { firstList } from './npm-servers.bench'
import { SCALE_MANIFEST, SCALE_SERVERS } from './scale-servers'

const ROOT = new URL('..', import.meta.url).pathname
const SUITES = process.env.FLATMCP_SUITES ?? path.join(ROOT, '../shared/suites')
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'flatmcp-scale-lists')
/** How long one server may take to its tools/list answer before it is left out. */
const LIST_TIMEOUT_MS = 90_000
/** Servers started at once: the machine has 2 cores, most of a start is waiting. */
const AT_ONCE = 3

/** Each LiveMCPTool server's field. */
const LIVEMCPTOOL_FIELDS: Record<string, string> = {
  '12306-mcp': 'travel', 'Ant Design Components': 'design', 'Asset_Price_MCP': 'finance', 'Bazi': 'leisure', 'Context7': 'knowledge',
  'MetaTagGenie': 'web', 'airbnb': 'travel', 'arxiv-mcp-server': 'knowledge', 'basic-memory': 'local', 'bing-cn-mcp': 'web',
  'biomcp': 'knowledge', 'calculator': 'utility', 'chess': 'leisure', 'coin-flip': 'utility', 'datagov': 'knowledge',
  'desktop-commander': 'local', 'docker-mcp': 'cloud', 'duckduckgo-search': 'web', 'excel': 'productivity', 'exchange-rate-mcp': 'finance',
  'fetch': 'web', 'filesystem': 'local', 'git': 'devops', 'hackernews': 'knowledge', 'howtocook-mcp': 'leisure',
  'hugeicons': 'design', 'image-extractor': 'media', 'investor': 'finance', 'kospi-kosdaq': 'finance', 'magicuidesign_mcp': 'design',
  'maven-deps-server': 'devops', 'mcp-crypto-price': 'finance', 'mcp-deepwiki': 'knowledge', 'mcp-github-trending': 'devops', 'mcp-server-chart': 'media',
  'mcp-simple-arxiv': 'knowledge', 'memory': 'local', 'mermaid-validator': 'media', 'met-museum': 'knowledge', 'mindmap': 'productivity',
  'music-analysis': 'media', 'npm-sentinel-mcp': 'devops', 'npx_fetch': 'web', 'okppt': 'productivity', 'opgg-mcp': 'leisure',
  'osm-mcp-server': 'maps', 'painter': 'media', 'pdf-reader-mcp': 'productivity', 'playwright': 'browser', 'ppt': 'productivity',
  'puppeteer': 'browser', 'random-number': 'utility', 'searxng': 'web', 'sequential-thinking': 'utility', 'shadcn-ui-server': 'design',
  'sitemap': 'web', 'taskmanager': 'productivity', 'text-editor': 'local', 'time': 'utility', 'trends-hub': 'knowledge',
  'weather': 'utility', 'web3-research-mcp': 'finance', 'whois': 'web', 'wikipedia': 'knowledge', 'word-document-server': 'productivity',
  'wuwa-mcp': 'leisure', 'yahoo-finance': 'finance', 'yfmcp': 'finance', 'ygocdb': 'leisure', 'youtube-transcript': 'media',
}

/** Each of the suite's npm servers' field. */
const SUITE_FIELDS: Record<string, string> = {
  'filesystem': 'local', 'memory': 'local', 'everything': 'utility', 'sequential-thinking': 'utility', 'github': 'devops',
  'brave-search': 'web', 'slack': 'messaging', 'google-maps': 'maps', 'context7': 'knowledge', 'tavily': 'web',
  'firecrawl': 'web', 'notion': 'productivity', 'gitlab': 'devops', 'playwright': 'browser', 'kubernetes': 'cloud',
}

/** A server's id from its LiveMCPTool name: lowercase words joined by dashes. */
const slug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

/** LiveMCPTool's servers as its snapshot lists them. */
function liveMcpToolServers(): ScaleServer[] {
  const file = path.join(SUITES, 'retrieval/livemcptool_snapshot-tools.json')
  if (!existsSync(file))
    throw new Error(`LiveMCPTool's snapshot is not at ${file} (set FLATMCP_SUITES)`)
  const { tools } = JSON.parse(readFileSync(file, 'utf8')) as { tools: { server: string, tool: string, description: string, inputSchema?: McpTool['inputSchema'] }[] }
  const servers = new Map<string, ScaleServer>()
  for (const tool of tools) {
    const field = LIVEMCPTOOL_FIELDS[tool.server]
    if (field === undefined)
      throw new Error(`LiveMCPTool server ${tool.server} has no field`)
    const server = servers.get(tool.server) ?? { id: slug(tool.server), source: 'LiveMCPTool snapshot', field, tools: [] }
    server.tools.push({ name: tool.tool, description: tool.description, inputSchema: tool.inputSchema ?? { type: 'object' } })
    servers.set(tool.server, server)
  }
  return [...servers.values()]
}

/** One server to list: its id, source and field, and how to start it. */
interface ToStart { id: string, source: string, field: string, bin: string, command: (bin: string, scratch: string) => string[], env: (scratch: string) => Record<string, string> }

/** What listing left out, and why. */
export interface LeftOut { id: string, source: string, reason: string }

interface Listed { servers: ScaleServer[], left: LeftOut[] }

const version = (manifest: string, name: string): string => {
  const lock = JSON.parse(readFileSync(path.join(manifest, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> }
  return `${name}@${lock.packages[`node_modules/${name}`]?.version ?? '?'}`
}

/** Lists each server, a few at a time, each bounded in time; a failure or a hang leaves that server out, said. */
async function listAll(starts: readonly ToStart[], log: (line: string) => void): Promise<Listed> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-scale-'))
  const servers: (ScaleServer | undefined)[] = []
  const left: LeftOut[] = []
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < starts.length) {
      const at = next++
      const start = starts[at]!
      const folder = path.join(scratch, start.id)
      mkdirSync(folder, { recursive: true })
      try {
        const { ms, tools } = await firstList(start.command(start.bin, folder), start.env(folder), LIST_TIMEOUT_MS)
        if (tools.length === 0)
          throw new Error('lists no tool')
        log(`scale: ${start.id} listed ${tools.length} tools in ${(ms / 1000).toFixed(1)} s`)
        servers[at] = { id: start.id, source: start.source, field: start.field, tools: tools as McpTool[] }
      }
      catch (error) {
        const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error)
        log(`scale: ${start.id} left out: ${reason}`)
        left.push({ id: start.id, source: start.source, reason })
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: AT_ONCE }, worker))
  }
  finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  return { servers: servers.filter(server => server !== undefined), left: left.sort((a, b) => a.id.localeCompare(b.id)) }
}

/** The catalogue: every server with a unique id, and those left out; `listMs` is the time to list the npm servers, `cached` whether it came from the cache. */
export interface ScaleCatalogue { servers: ScaleServer[], left: LeftOut[], listMs: number, cached: boolean }

/** The whole catalogue, the npm servers' lists from the cache where they were listed before. */
export async function scaleCatalogue(log: (line: string) => void): Promise<ScaleCatalogue> {
  const live = liveMcpToolServers()
  const taken = new Set(live.map(server => server.id))
  const suiteManifest = path.join(ROOT, 'test/servers')
  const key = createHash('sha256')
    .update(readFileSync(path.join(suiteManifest, 'package-lock.json')))
    .update(readFileSync(path.join(SCALE_MANIFEST, 'package-lock.json')))
    .update(readFileSync(new URL('./scale-servers.ts', import.meta.url)))
    .update(readFileSync(new URL('../test/support/npm-servers.ts', import.meta.url)))
    .digest('hex')
    .slice(0, 12)
  const file = path.join(CACHE, `${key}.json`)
  const started = performance.now()
  let listed: Listed
  const cached = existsSync(file)
  if (cached) {
    listed = JSON.parse(readFileSync(file, 'utf8')) as Listed
  }
  else {
    log('scale: installing the pinned servers (once)')
    const suiteBin = installNpmServers()
    const scaleBin = installNpmServers(SCALE_MANIFEST)
    const starts: ToStart[] = [
      ...NPM_SERVERS.map(server => ({ id: taken.has(server.name) ? `${server.name}-npm` : server.name, source: version(suiteManifest, server.package), field: SUITE_FIELDS[server.name]!, bin: suiteBin, command: server.command, env: server.env })),
      ...SCALE_SERVERS.map(server => ({ id: server.id, source: version(SCALE_MANIFEST, server.package), field: server.field, bin: scaleBin, command: server.command, env: server.env })),
    ]
    listed = await listAll(starts, log)
    mkdirSync(CACHE, { recursive: true })
    writeFileSync(file, JSON.stringify(listed))
  }
  const servers = [...live, ...listed.servers]
  const ids = new Set<string>()
  for (const { id } of servers) {
    if (ids.has(id))
      throw new Error(`two servers of the catalogue have the id ${id}`)
    ids.add(id)
  }
  return { servers, left: listed.left, listMs: performance.now() - started, cached }
}
