// Many servers behind one `flatmcp proxy --config` (section 15 of `npm run bench`; `npm run
// bench:gateway` runs only it): the suite's npm servers as one endpoint beside the same servers
// started in parallel without it (the first whole list behind --surface full and behind auto, what
// --config serves unless told; the tokens a session starts with: full, auto and search), each list
// checked to be the surface it is said to be before a figure of it counts, and isolation: one server's calls alone behind the gateway, and again
// beside one that hangs on 400 calls, one that floods notifications and one that keeps crashing; and
// the proxy's memory while one floods notifications at a client that does not read.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { ENCODING } from '../packages/cli/src/proxy/token-counter'
import { definitionTokens, loadTokenizer } from '../packages/unplugin/src/core/compile/tokens'
import { installNpmServers, NPM_SERVERS } from '../test/support/npm-servers'
import type { Served, SetupCheck } from './setup-checks'
import { median } from './measure'
import { everyTool, listed, servesSurface, surfaceOf } from './setup-checks'

const ROOT = new URL('..', import.meta.url).pathname
const CLI = path.join(ROOT, 'packages/cli/dist/cli.mjs')
const MISBEHAVING = path.join(ROOT, 'test/support/misbehaving-upstream.mjs')
const RUNS = Number(process.env.FLATMCP_BENCH_RUNS ?? 3)
/** Calls timed per isolation run. */
const CALLS = 200
/** Calls left hanging on the server that never answers: past what one shared pool of slots held (64 running, 256 waiting). */
const STUCK = 400
/** Seconds the proxy's memory is watched while a server floods notifications at a client that does not read. */
const FLOOD_SECONDS = 8

export interface GatewayResult {
  servers: number
  /** Tools the servers list themselves, and the gateway behind --surface full. */
  tools: { direct: number, gateway: number }
  /** Median ms to the first whole list: every server started in parallel and listed, and the gateway's one list behind --surface full and behind --surface auto. */
  firstList: { parallel: number, gateway: number, auto: number }
  /** Median ms to load o200k_base's tables alone, in a node process of its own: what --surface auto loads by design. */
  tokenizerMs: number
  /** o200k_base tokens of the list a session starts with: behind --surface full, --surface search and --surface auto. */
  tokens: { full: number, surface: number, auto: number }
  /** The surface --surface auto served the whole set (what --config serves unless told). */
  auto: Served
  /** Median ms per call to the well server: behind the gateway alone, and beside three that misbehave. */
  isolation: { alone: number, beside: number }
  /** The proxy's resident MB once serving, and the most while a server floods notifications at a client that does not read. */
  memory: { before: number, peak: number }
  /** Each list checked to be what it was meant to be (every tool, the surface named, the members called listed). */
  setup: SetupCheck[]
}

type Command = { command: string[], env: Record<string, string> }
type Listed = { name: string, description?: string, inputSchema: unknown }

async function connected(command: Command): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(new StdioClientTransport({ command: command.command[0]!, args: command.command.slice(1), cwd: ROOT, env: { ...process.env, ...command.env } as Record<string, string>, stderr: 'ignore' }))
  return client
}

/** Spawns each command, lists its tools; ms until every one has listed, and the lists. */
async function allListed(commands: readonly Command[]): Promise<{ ms: number, lists: Listed[][] }> {
  const started = performance.now()
  const clients = await Promise.all(commands.map(async (command) => {
    const client = await connected(command)
    return { client, tools: (await client.listTools()).tools as Listed[] }
  }))
  const ms = performance.now() - started
  await Promise.all(clients.map(({ client }) => client.close()))
  return { ms, lists: clients.map(({ tools }) => tools) }
}

function configOf(scratch: string, name: string, servers: Record<string, { command: string[], env?: Record<string, string> }>): string {
  const file = path.join(scratch, name)
  writeFileSync(file, JSON.stringify({ mcpServers: Object.fromEntries(Object.entries(servers).map(([key, { command, env }]) => [key, { command: command[0], args: command.slice(1), ...(env ? { env } : {}) }])) }, null, 2))
  return file
}

const listTokens = (tools: readonly Listed[]): number => tools.reduce((sum, tool) => sum + definitionTokens(tool as never), 0)

const gatewayOf = (config: string, surface: string): Command => ({ command: [process.execPath, CLI, 'proxy', '--config', config, '--surface', surface], env: {} })
const namesOf = (tools: readonly Listed[]): string[] => tools.map(tool => tool.name)

/** The npm servers as one endpoint behind --surface full and auto, beside themselves started in parallel. */
async function asOne(scratch: string, log: (line: string) => void): Promise<Omit<GatewayResult, 'isolation' | 'memory'>> {
  const bin = installNpmServers()
  const commands = NPM_SERVERS.map((server) => {
    const folder = path.join(scratch, server.name)
    mkdirSync(folder, { recursive: true })
    return { name: server.name, command: server.command(bin, folder), env: server.env(folder) }
  })
  const config = configOf(scratch, 'servers.json', Object.fromEntries(commands.map(({ name, command, env }) => [name, { command, env }])))
  const parallel: number[] = []
  const gateway: number[] = []
  const auto: number[] = []
  let direct = 0
  let served: Listed[] = []
  let autoServed: Listed[] = []
  for (let run = 0; run < RUNS; run++) {
    log(`gateway: ${commands.length} servers in parallel, then behind one --config, --surface full and auto (run ${run + 1} of ${RUNS})`)
    const each = await allListed(commands)
    parallel.push(each.ms)
    direct = each.lists.reduce((sum, list) => sum + list.length, 0)
    const full = await allListed([gatewayOf(config, 'full')])
    gateway.push(full.ms)
    served = full.lists[0]!
    const chosen = await allListed([gatewayOf(config, 'auto')])
    auto.push(chosen.ms)
    autoServed = chosen.lists[0]!
  }
  const search = (await allListed([gatewayOf(config, 'search')])).lists[0]!
  const autoIs = surfaceOf(namesOf(autoServed), direct)
  return {
    servers: commands.length,
    tools: { direct, gateway: served.length },
    firstList: { parallel: median(parallel), gateway: median(gateway), auto: median(auto) },
    tokenizerMs: tokenizerLoadMs(),
    tokens: { full: listTokens(served), surface: listTokens(search), auto: listTokens(autoServed) },
    auto: autoIs,
    setup: [
      everyTool('the gateway\'s full list (--surface full)', namesOf(served), direct),
      servesSurface('the list behind --surface search', namesOf(search), direct, 'search'),
      { what: 'the list behind --surface auto', ok: autoIs !== 'neither', found: autoIs === 'neither' ? `neither surface: ${autoServed.length} tools` : `the ${autoIs} surface` },
    ],
  }
}

/** Median ms to load o200k_base's tables (the file the CLI's tokenizer loads) in a node process of its own. */
function tokenizerLoadMs(): number {
  const script = `const file = require('node:module').createRequire(${JSON.stringify(CLI)}).resolve(${JSON.stringify(ENCODING)}); const t = performance.now(); require(file); console.log(performance.now() - t)`
  return median(Array.from({ length: RUNS }, () => Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))))
}

/** Median ms per call to `well__echo` through a gateway of `config`, after its list is whole; the misbehaving set off first where it has them; and the names it listed. */
async function callsThrough(config: string): Promise<{ ms: number, names: string[] }> {
  const client = await connected(gatewayOf(config, 'full'))
  try {
    const names = (await client.listTools()).tools.map(tool => tool.name)
    const listed = new Set(names)
    // Calls that never end, a flood begun, a crash: none awaited.
    const setOff = (name: string, count: number): void => {
      for (let call = 0; call < count && listed.has(name); call++)
        void client.callTool({ name, arguments: { text: 'x' } }, { timeout: 600_000 }).catch(() => {})
    }
    setOff('hangs__echo', STUCK)
    setOff('floods__echo', 1)
    setOff('crashes__echo', 1)
    const times: number[] = []
    for (let call = 0; call < CALLS; call++) {
      const started = performance.now()
      const result = await client.callTool({ name: 'well__echo', arguments: { text: `call ${call}` } }) as { content: { text?: string }[] }
      times.push(performance.now() - started)
      // A refusal is quick: only the answer itself counts.
      if (result.content[0]?.text !== JSON.stringify({ text: `call ${call}` }))
        throw new Error(`well__echo answered ${JSON.stringify(result).slice(0, 200)}`)
    }
    return { ms: median(times), names }
  }
  finally {
    await client.close()
  }
}

/** One server's calls behind the gateway alone, and beside one that hangs on its calls, one that floods notifications and one that crashes. */
async function isolation(scratch: string, log: (line: string) => void): Promise<{ isolation: GatewayResult['isolation'], setup: SetupCheck[] }> {
  const well = { command: [process.execPath, MISBEHAVING, 'well'] }
  const alone = configOf(scratch, 'alone.json', { well })
  const beside = configOf(scratch, 'beside.json', {
    well,
    hangs: { command: [process.execPath, MISBEHAVING, 'stall'] },
    floods: { command: [process.execPath, MISBEHAVING, 'chatter'] },
    crashes: { command: [process.execPath, MISBEHAVING, 'crash'] },
  })
  const times = { alone: [] as number[], beside: [] as number[] }
  let names: string[] = []
  for (let run = 0; run < RUNS; run++) {
    log(`gateway: isolation (run ${run + 1} of ${RUNS})`)
    times.alone.push((await callsThrough(alone)).ms)
    const besides = await callsThrough(beside)
    times.beside.push(besides.ms)
    names = besides.names
  }
  // A member not listed is never set off: its calls would be measured beside nothing.
  const setup = [listed('the members the isolation rows call (behind --surface full)', names, ['well__echo', 'hangs__echo', 'floods__echo', 'crashes__echo'])]
  return { isolation: { alone: median(times.alone), beside: median(times.beside) }, setup }
}

/** The proxy's resident MB (Linux), read from /proc. */
const resident = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** The proxy's resident MB once serving, and the most while one server floods notifications at a client that stops reading. */
async function floodMemory(scratch: string, log: (line: string) => void): Promise<GatewayResult['memory']> {
  log(`gateway: memory while a server floods notifications at a client that does not read (${FLOOD_SECONDS} s)`)
  const config = configOf(scratch, 'flood.json', { well: { command: [process.execPath, MISBEHAVING, 'well'] }, floods: { command: [process.execPath, MISBEHAVING, 'chatter'] } })
  const child = spawn(process.execPath, gatewayOf(config, 'full').command.slice(1), { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] })
  const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`)
  try {
    const answered = new Promise<void>(resolve => child.stdout.once('data', () => resolve()))
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })
    await answered
    child.stdout.pause()
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    await new Promise(resolve => setTimeout(resolve, 1000))
    const before = resident(child.pid!)
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'floods__echo', arguments: { text: 'go' } } })
    let peak = before
    for (let tick = 0; tick < FLOOD_SECONDS * 4; tick++) {
      await new Promise(resolve => setTimeout(resolve, 250))
      peak = Math.max(peak, resident(child.pid!))
    }
    return { before, peak }
  }
  finally {
    child.kill()
  }
}

/** The isolation rows alone: one member's calls beside three that misbehave, and the proxy's memory under a flood. */
export async function runIsolation(scratch: string, log: (line: string) => void): Promise<Pick<GatewayResult, 'isolation' | 'memory' | 'setup'>> {
  const { isolation: calls, setup } = await isolation(scratch, log)
  return { isolation: calls, memory: await floodMemory(scratch, log), setup }
}

export async function runGateway(log: (line: string) => void): Promise<GatewayResult> {
  await loadTokenizer()
  const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-gateway-bench-'))
  try {
    const one = await asOne(scratch, log)
    const calls = await runIsolation(scratch, log)
    return { ...one, ...calls, setup: [...one.setup, ...calls.setup] }
  }
  finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** Section 15 of `npm run bench`: the figures, each with the surface it was measured behind, then the targets the issue set (said met or missed). */
export function printGateway(result: GatewayResult, table: (header: string[], rows: (string | number)[][]) => void, target: (what: string, met: boolean, figure: string) => void): void {
  const r = (a: number, b: number): string => `${(a / b).toFixed(2)}×`
  const share = (tokens: number): string => (tokens / result.tokens.full).toFixed(4)
  console.log(`\n15. many servers behind one flatmcp proxy --config: the suite's ${result.servers} npm servers as one endpoint beside themselves started in parallel (median of ${RUNS}), behind --surface full and behind --surface auto (what --config serves unless told); the tokens a session starts with behind each surface; one member's calls behind the gateway alone and beside a hung member (${STUCK} calls stuck on it), a flooding one (notifications) and a crashing one (median ms of ${CALLS} calls, --surface full); the proxy's memory while a member floods notifications at a client that does not read (${FLOOD_SECONDS} s)`)
  table(['surface', 'servers', 'tools (their own)', 'tools listed', 'first whole list, parallel ms', 'gateway ms', 'gateway ÷ parallel', 'tokens', '÷ full list'], [
    ['full', result.servers, result.tools.direct, result.tools.gateway, result.firstList.parallel.toFixed(0), result.firstList.gateway.toFixed(0), r(result.firstList.gateway, result.firstList.parallel), result.tokens.full, share(result.tokens.full)],
    [`auto (served ${result.auto})`, result.servers, result.tools.direct, '', result.firstList.parallel.toFixed(0), result.firstList.auto.toFixed(0), r(result.firstList.auto, result.firstList.parallel), result.tokens.auto, share(result.tokens.auto)],
    ['search', result.servers, result.tools.direct, '', '', '', '', result.tokens.surface, share(result.tokens.surface)],
  ])
  table(['one member\'s calls beside a hung, a flooding and a crashing member ÷ alone', 'alone ms', 'beside ms', 'beside ÷ alone'], [['well__echo', result.isolation.alone.toFixed(2), result.isolation.beside.toFixed(2), r(result.isolation.beside, result.isolation.alone)]])
  table(['the proxy\'s memory under a flooding member (client not reading)', 'serving MB', `most in ${FLOOD_SECONDS} s MB`, 'grown MB'], [['RSS', result.memory.before.toFixed(0), result.memory.peak.toFixed(0), (result.memory.peak - result.memory.before).toFixed(0)]])
  target('every tool of every server behind one --config (--surface full)', result.tools.gateway === result.tools.direct, `${result.tools.gateway} of ${result.tools.direct}`)
  target('the first whole list behind --surface full ≤ 1.3× the servers started in parallel', result.firstList.gateway / result.firstList.parallel <= 1.3, r(result.firstList.gateway, result.firstList.parallel))
  // Auto loads the operator's tokenizer and counts the list with it: on 2 cores that the servers' own
  // start fills, its load adds to the wall about what it costs alone, so the goal allows that much.
  const { auto, parallel } = result.firstList
  target(`the first whole list behind --surface auto (served ${result.auto}) ≤ 1.3× the servers started in parallel, plus o200k_base's load alone (${result.tokenizerMs.toFixed(0)} ms)`, auto <= 1.3 * parallel + result.tokenizerMs, `${r(auto, parallel)}; ${r(auto - result.tokenizerMs, parallel)} less that load`)
  target('a session behind --surface search starts with ≤ 0.01× the whole set\'s full list', result.tokens.surface / result.tokens.full <= 0.01, share(result.tokens.surface))
  target('one member\'s calls beside a hung, a flooding and a crashing member ≤ 1.2× alone', result.isolation.beside / result.isolation.alone <= 1.2, r(result.isolation.beside, result.isolation.alone))
  target('the proxy\'s memory under a flooding member grows ≤ 128 MB (its notifications read at 1,000 a second, their backlog bounded; the rest is the collector\'s slack)', result.memory.peak - result.memory.before <= 128, `${(result.memory.peak - result.memory.before).toFixed(0)} MB`)
}
