// The proxy in front of the MCP servers people run (the suite's pinned npm servers,
// test/support/npm-servers.ts), each beside itself alone: tools listed, tokens of the whole list and
// of the worst tool per profile, start-up to the first tools/list (the server alone, the proxy from a
// snapshot, the proxy compiling), and the compile of its list in every profile.
import type { UpstreamTool } from '@flatmcp/runtime/proxy'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { PROFILE_NAMES, TARGET_NAMES } from '@flatmcp/core/names'
import { compileUpstreamList, readUpstreamList } from '@flatmcp/runtime/proxy'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { definitionTokens, loadTokenizer, tokensOf } from '../packages/unplugin/src/core/compile/tokens'
import { schemaHash } from '../packages/runtime/src/service/schema-hash'
import { summary, surfaceTools } from '../packages/runtime/src/search/surface'
import { toolSearch } from '../packages/runtime/src/search/tool-search'
import type { NpmServer } from '../test/support/npm-servers'
import { installNpmServers, NPM_SERVERS } from '../test/support/npm-servers'
import { median } from './measure'

const ROOT = new URL('..', import.meta.url).pathname
const CLI = path.join(ROOT, 'packages/cli/dist/cli.mjs')
/** The profiles the proxy serves (`minimal`, a base profile, has no route). */
export const SERVER_PROFILES = PROFILE_NAMES.filter(name => name !== 'minimal')
const STRICT_PROFILES = ['openai-strict', 'anthropic-strict'] as const
/** Start-ups timed per server and way. */
const RUNS = 3

export interface ServerResult {
  name: string
  kind: string
  tools: { direct: number, proxied: number }
  /** o200k_base tokens of the whole list (name, description, input schema per tool): the server's own, and each profile's. */
  tokens: { direct: number, profiles: Record<string, number>, worst: Record<string, { tool: string, ratio: number }> }
  /** Median ms from spawning to the first tools/list answer: alone; from a snapshot, its answers kept (later starts) and not (a first start); compiling, its list kept (later starts) and not (a first start). */
  startup: { direct: number, snapshot: number, first: number, compile: number, compileFirst: number }
  /** Whether the proxy's answers and its compiled list were kept for its later starts (the setup of `startup.snapshot` and `startup.compile`). */
  kept: boolean
  /** Median ms to compile the whole list in every profile (in process, on the compiler thread where there is one). */
  compileMs: number
  /**
   * o200k_base tokens behind `--surface search`, per profile: the list a session starts with, and
   * what one tool used adds to it (a search for it, its description, as the surface answers them).
   */
  surface: Record<string, { list: number, oneTool: number }>
  /** Tools served strict in each strict profile (the others served as portable, said). */
  strict: Record<string, number>
}

/**
 * Spawns a command as a client would and times it to its first tools/list answer (every page of it).
 * With `timeoutMs`, a server that has not answered by then is stopped and the promise rejects.
 */
export async function firstList(command: string[], env: Record<string, string>, timeoutMs?: number): Promise<{ ms: number, tools: UpstreamTool[] }> {
  const started = performance.now()
  const client = new Client({ name: 'bench', version: '1' })
  let timer: NodeJS.Timeout | undefined
  const listed = (async () => {
    await client.connect(new StdioClientTransport({ command: command[0]!, args: command.slice(1), cwd: ROOT, env: { ...process.env, ...env } as Record<string, string>, stderr: 'ignore' }))
    const tools: UpstreamTool[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor })
      tools.push(...page.tools as UpstreamTool[])
      cursor = page.nextCursor
    } while (cursor !== undefined)
    return { ms: performance.now() - started, tools }
  })()
  const bound = new Promise<never>((_, reject) => {
    if (timeoutMs !== undefined)
      timer = setTimeout(() => reject(new Error(`no tools/list answer within ${timeoutMs / 1000} s`)), timeoutMs)
  })
  try {
    return await Promise.race([listed, bound])
  }
  finally {
    clearTimeout(timer)
    listed.catch(() => {})
    await client.close().catch(() => {})
  }
}

/** The entries a cache keeps under a cache folder (`XDG_CACHE_HOME`): its `answers` or its `lists`, as the proxy writes them. */
const keptIn = (cache: string, kind: 'answers' | 'lists' = 'answers'): string[] => {
  const folder = path.join(cache, 'flatmcp', kind)
  return existsSync(folder) ? readdirSync(folder).filter(name => name.endsWith('.json')) : []
}

/**
 * The proxy from a snapshot as a client starts it, its answer cache in `cache`: `later` (its answers
 * kept from a start before) and `first` (none kept: FLATMCP_DISABLE_ANSWER_CACHE). `warm` starts it
 * once and holds the session until its answers are kept (the proxy keeps them once the server
 * listed); false where they were not within 20 s.
 */
export function fromSnapshot(file: string, command: string[], env: Record<string, string>, cache: string) {
  const args = [process.execPath, CLI, 'proxy', '--artifact', file, '--', ...command]
  const later = { ...env, XDG_CACHE_HOME: cache }
  return {
    later: () => firstList(args, later),
    first: () => firstList(args, { ...later, FLATMCP_DISABLE_ANSWER_CACHE: '1' }),
    async warm(): Promise<boolean> {
      const before = keptIn(cache).length
      const client = new Client({ name: 'bench', version: '1' })
      await client.connect(new StdioClientTransport({ command: args[0]!, args: args.slice(1), cwd: ROOT, env: { ...process.env, ...later } as Record<string, string>, stderr: 'ignore' }))
      try {
        await client.listTools()
        for (const bound = Date.now() + 20_000; Date.now() < bound && keptIn(cache).length === before;)
          await new Promise(resolve => setTimeout(resolve, 100))
        return keptIn(cache).length > before
      }
      finally {
        await client.close().catch(() => {})
      }
    },
  }
}

/**
 * The proxy compiling (no snapshot) as a client starts it, its list cache in `cache`: `later` (the
 * list kept from a start before) and `first` (none kept: FLATMCP_DISABLE_LIST_CACHE). `warm` starts
 * it once and holds the session until its list is kept; false where it was not within 20 s.
 */
export function compilingStarts(command: string[], env: Record<string, string>, cache: string) {
  const args = [process.execPath, CLI, 'proxy', '--', ...command]
  const later = { ...env, XDG_CACHE_HOME: cache }
  return {
    later: () => firstList(args, later),
    first: () => firstList(args, { ...later, FLATMCP_DISABLE_LIST_CACHE: '1' }),
    async warm(): Promise<boolean> {
      await firstList(args, later)
      for (const bound = Date.now() + 20_000; Date.now() < bound && keptIn(cache, 'lists').length === 0;)
        await new Promise(resolve => setTimeout(resolve, 100))
      return keptIn(cache, 'lists').length > 0
    },
  }
}

/** A server's command and environment in a scratch folder of its own, and its snapshot made there by the built command. */
export function snapshotted(server: NpmServer, bin: string, scratch: string): { command: string[], env: Record<string, string>, file: string } {
  const folder = path.join(scratch, server.name)
  mkdirSync(folder, { recursive: true })
  const command = server.command(bin, folder)
  const env = server.env(folder)
  const file = path.join(scratch, `${server.name}.mcp.json`)
  execFileSync(process.execPath, [CLI, 'snapshot', '--out', file, '--', ...command], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' })
  return { command, env, file }
}

export async function runNpmServers(log: (line: string) => void): Promise<ServerResult[]> {
  log('npm servers: installing the pinned servers (once)')
  const bin = installNpmServers()
  await loadTokenizer()
  const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-npm-servers-bench-'))
  const results: ServerResult[] = []
  try {
    for (const server of NPM_SERVERS) {
      log(`npm servers: ${server.name}`)
      const { command, env, file } = snapshotted(server, bin, scratch)
      const times = { direct: [] as number[], snapshot: [] as number[], first: [] as number[], compile: [] as number[], compileFirst: [] as number[] }
      const starts = fromSnapshot(file, command, env, path.join(scratch, `${server.name}-cache`))
      const compiling = compilingStarts(command, env, path.join(scratch, `${server.name}-lists`))
      const kept = await starts.warm() && await compiling.warm()
      let listed: UpstreamTool[] = []
      let proxiedCount = 0
      for (let run = 0; run < RUNS; run++) {
        const direct = await firstList(command, env)
        listed = direct.tools
        times.direct.push(direct.ms)
        times.snapshot.push((await starts.later()).ms)
        times.first.push((await starts.first()).ms)
        const compiled = await compiling.later()
        times.compile.push(compiled.ms)
        times.compileFirst.push((await compiling.first()).ms)
        proxiedCount = compiled.tools.length
      }
      const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { tools: UpstreamTool[], runtime: Record<string, { profiles?: Record<string, { inputSchema: unknown, strict?: boolean }> }> }
      const strict = Object.fromEntries(STRICT_PROFILES.map(profile => [profile, snapshot.tools.filter(tool => snapshot.runtime[tool.name]!.profiles?.[profile]?.strict === true).length]))
      const cost = (tool: { name: string, description?: string }, inputSchema: unknown): number => definitionTokens({ name: tool.name, description: tool.description, inputSchema })
      const own = new Map(listed.map(tool => [tool.name, cost(tool, tool.inputSchema)]))
      const profiles: Record<string, number> = {}
      const worst: Record<string, { tool: string, ratio: number }> = {}
      for (const profile of SERVER_PROFILES) {
        const each = snapshot.tools.map(tool => ({ tool: tool.name, tokens: cost(tool, profile === 'portable' ? tool.inputSchema : snapshot.runtime[tool.name]!.profiles?.[profile]?.inputSchema ?? tool.inputSchema) }))
        profiles[profile] = each.reduce((sum, { tokens }) => sum + tokens, 0)
        const ratios = each.map(({ tool, tokens }) => ({ tool, ratio: tokens / (own.get(tool) ?? tokens) }))
        worst[profile] = ratios.reduce((a, b) => b.ratio > a.ratio ? b : a, { tool: '', ratio: 0 })
      }
      const surface: ServerResult['surface'] = {}
      for (const profile of SERVER_PROFILES) {
        const tools = snapshot.tools.map(tool => ({ ...tool, inputSchema: profile === 'portable' ? tool.inputSchema : snapshot.runtime[tool.name]!.profiles?.[profile]?.inputSchema ?? tool.inputSchema }))
        const list = surfaceTools(profile).reduce((sum, tool) => sum + definitionTokens(tool), 0)
        // One tool of median size, used: found by its name, then described.
        const used = [...tools].sort((a, b) => cost(a, a.inputSchema) - cost(b, b.inputSchema))[Math.floor(tools.length / 2)]!
        const found = toolSearch(tools as never).search(used.name, 8).map(tool => summary(tool)).join('\n')
        const described = JSON.stringify({ tools: [{ ...used, schemaHash: await schemaHash(used) }] })
        surface[profile] = { list, oneTool: list + tokensOf(found) + tokensOf(described) }
      }
      const entries = await readUpstreamList(listed, () => {})
      const compiles: number[] = []
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now()
        await compileUpstreamList(entries, { profiles: [...TARGET_NAMES] })
        compiles.push(performance.now() - started)
      }
      const compileMs = median(compiles)
      results.push({
        name: server.name,
        kind: server.kind,
        tools: { direct: listed.length, proxied: proxiedCount },
        tokens: { direct: [...own.values()].reduce((a, b) => a + b, 0), profiles, worst },
        startup: { direct: median(times.direct), snapshot: median(times.snapshot), first: median(times.first), compile: median(times.compile), compileFirst: median(times.compileFirst) },
        kept,
        compileMs,
        surface,
        strict,
      })
    }
  }
  finally {
    rmSync(scratch, { recursive: true, force: true })
  }
  return results
}

/** A server this slow to list alone starts more than the proxy's own floor: where compiling's ratio is judged. */
export const SLOW_SERVER_MS = 500

/** Section 14 of `npm run bench`: each server's row, then the targets the issue set (said met or missed). */
export function printNpmServers(results: readonly ServerResult[], table: (header: string[], rows: (string | number)[][]) => void, target: (what: string, met: boolean, figure: string) => void): void {
  const r = (a: number, b: number): string => `${(a / b).toFixed(2)}×`
  console.log('\n14. flatmcp proxy in front of MCP servers from the npm registry (the suite\'s pinned ones): tools listed directly and through the proxy; tokens of the whole list per profile ÷ the server\'s own (worst tool in portable); median start-up to the first tools/list, the server alone and through the proxy; the list compiled in every profile')
  table(['server', 'kind', 'tools', 'proxied', ...SERVER_PROFILES.map(p => `${p} ÷ own`), 'worst tool (portable)', 'alone ms', 'snapshot ÷ alone', 'first start ÷ alone', 'compiling ÷ alone', 'compiling, first ÷ alone', 'compile ms'], results.map(s => [
    s.name,
    s.kind,
    s.tools.direct,
    s.tools.proxied,
    ...SERVER_PROFILES.map(p => r(s.tokens.profiles[p]!, s.tokens.direct)),
    `${s.tokens.worst.portable!.tool} ${s.tokens.worst.portable!.ratio.toFixed(2)}×`,
    s.startup.direct.toFixed(0),
    r(s.startup.snapshot, s.startup.direct),
    r(s.startup.first, s.startup.direct),
    r(s.startup.compile, s.startup.direct),
    r(s.startup.compileFirst, s.startup.direct),
    s.compileMs.toFixed(0),
  ]))
  const sum = (f: (s: ServerResult) => number): number => results.reduce((n, s) => n + f(s), 0)
  const mid = (values: number[]): number => median(values)
  table(['all servers', 'tools', 'proxied', ...SERVER_PROFILES.map(p => `${p} ÷ own`), ...STRICT_PROFILES.map(p => `served ${p}`)], [['', sum(s => s.tools.direct), sum(s => s.tools.proxied), ...SERVER_PROFILES.map(p => r(sum(s => s.tokens.profiles[p]!), sum(s => s.tokens.direct))), ...STRICT_PROFILES.map(p => `${sum(s => s.strict[p]!)} of ${sum(s => s.tools.proxied)}`)]])
  console.log('\n14b. the same servers behind --surface search: tokens of the list a session starts with ÷ the full list, and with one tool used (found by its name, described) ÷ the full list, per profile')
  table(['server', 'tools', ...SERVER_PROFILES.flatMap(p => [`${p} start`, 'one tool'])], results.map(s => [s.name, s.tools.direct, ...SERVER_PROFILES.flatMap(p => [r(s.surface[p]!.list, s.tokens.profiles[p]!), r(s.surface[p]!.oneTool, s.tokens.profiles[p]!)])]))
  const large = results.filter(s => s.tools.direct >= 20)
  const worstStart = Math.max(...large.flatMap(s => SERVER_PROFILES.map(p => s.surface[p]!.list / s.tokens.profiles[p]!)))
  target('a session behind --surface search starts with ≤ 0.1× the full list on servers of 20 tools or more (worst over servers and profiles)', worstStart <= 0.1, `${worstStart.toFixed(2)}× (${large.map(s => s.name).join(', ')})`)
  const snapshot = results.map(s => s.startup.snapshot / s.startup.direct)
  const first = results.map(s => s.startup.first / s.startup.direct)
  const compiling = results.map(s => s.startup.compile / s.startup.direct)
  const compilingFirst = results.map(s => s.startup.compileFirst / s.startup.direct)
  const heaviest = results.flatMap(s => SERVER_PROFILES.map(p => ({ server: s.name, profile: p, ...s.tokens.worst[p]! }))).reduce((a, b) => b.ratio > a.ratio ? b : a)
  target('every tool in every profile ≤ 2× its upstream\'s tokens (worst over servers and profiles)', heaviest.ratio <= 2, `${heaviest.ratio.toFixed(2)}× (${heaviest.server} ${heaviest.tool}, ${heaviest.profile})`)
  target('no tool lost through the proxy', results.every(s => s.tools.proxied === s.tools.direct), `${sum(s => s.tools.proxied)} of ${sum(s => s.tools.direct)}`)
  target('start-up from a snapshot ≤ 1.2× the server alone (median over servers) and ≤ 1.5× (worst); a start after the first, its answers kept', mid(snapshot) <= 1.2 && Math.max(...snapshot) <= 1.5, `${mid(snapshot).toFixed(2)}×; worst ${Math.max(...snapshot).toFixed(2)}× (a first start, nothing kept: ${mid(first).toFixed(2)}×; worst ${Math.max(...first).toFixed(2)}×)`)
  // Compiling promises the live list, so the proxy answers only after the server lists: on a server
  // that starts in a few hundred ms, the proxy's own floor (Node's start, its load beside the
  // server's on the same cores) is the whole ratio. The ratio is judged where the server's own
  // start is the larger part; the milliseconds added are printed over all servers.
  const slow = results.filter(s => s.startup.direct >= SLOW_SERVER_MS)
  const slowCompiling = slow.map(s => s.startup.compile / s.startup.direct)
  const added = results.map(s => s.startup.compile - s.startup.direct)
  target(`start-up compiling ≤ 1.4× the server alone (median over the ${slow.length} servers of ${SLOW_SERVER_MS} ms or more alone); a start after the first, its list kept`, slow.length > 0 && mid(slowCompiling) <= 1.4, `${slow.length ? mid(slowCompiling).toFixed(2) : '–'}× (${slow.map(s => s.name).join(', ')}); over all ${results.length}: ${mid(compiling).toFixed(2)}×, worst ${Math.max(...compiling).toFixed(2)}×, ${mid(added).toFixed(0)} ms added (median); a first start, nothing kept: ${mid(compilingFirst).toFixed(2)}×, worst ${Math.max(...compilingFirst).toFixed(2)}×`)
}
