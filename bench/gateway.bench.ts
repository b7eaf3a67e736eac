// Many servers behind one `flatmcp proxy --config` (section 15 of `npm run bench`; `npm run
// bench:gateway` runs only it): the suite's npm servers as one endpoint beside the same servers
// started in parallel without it (the first whole list; the tokens a session starts with, full and
// behind --surface search), and isolation: one server's calls alone behind the gateway, and again
// beside one that hangs on 400 calls, one that floods notifications and one that keeps crashing; and
// the proxy's memory while one floods notifications at a client that does not read.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { definitionTokens, loadTokenizer } from '../packages/unplugin/src/core/compile/tokens'
import { installNpmServers, NPM_SERVERS } from '../test/support/npm-servers'
import { median } from './measure'

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
  tools: { direct: number, gateway: number }
  /** Median ms to the first whole list: every server started in parallel and listed, and the gateway's one list. */
  firstList: { parallel: number, gateway: number }
  /** o200k_base tokens of the list a session starts with: the full list, and behind --surface search. */
  tokens: { full: number, surface: number }
  /** Median ms per call to the well server: behind the gateway alone, and beside three that misbehave. */
  isolation: { alone: number, beside: number }
  /** The proxy's resident MB once serving, and the most while a server floods notifications at a client that does not read. */
  memory: { before: number, peak: number }
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

/** The npm servers as one endpoint, beside themselves started in parallel. */
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
  let direct = 0
  let served: Listed[] = []
  for (let run = 0; run < RUNS; run++) {
    log(`gateway: ${commands.length} servers in parallel, then behind one --config (run ${run + 1} of ${RUNS})`)
    const each = await allListed(commands)
    parallel.push(each.ms)
    direct = each.lists.reduce((sum, list) => sum + list.length, 0)
    const one = await allListed([{ command: [process.execPath, CLI, 'proxy', '--config', config], env: {} }])
    gateway.push(one.ms)
    served = one.lists[0]!
  }
  const surface = await allListed([{ command: [process.execPath, CLI, 'proxy', '--config', config, '--surface', 'search'], env: {} }])
  return {
    servers: commands.length,
    tools: { direct, gateway: served.length },
    firstList: { parallel: median(parallel), gateway: median(gateway) },
    tokens: { full: listTokens(served), surface: listTokens(surface.lists[0]!) },
  }
}

/** Median ms per call to `well__echo` through a gateway of `config`, after its list is whole; the misbehaving set off first where it has them. */
async function callsThrough(config: string): Promise<number> {
  const client = await connected({ command: [process.execPath, CLI, 'proxy', '--config', config, '--surface', 'full'], env: {} })
  try {
    const listed = new Set((await client.listTools()).tools.map(tool => tool.name))
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
    return median(times)
  }
  finally {
    await client.close()
  }
}

/** One server's calls behind the gateway alone, and beside one that hangs on its calls, one that floods notifications and one that crashes. */
async function isolation(scratch: string, log: (line: string) => void): Promise<GatewayResult['isolation']> {
  const well = { command: [process.execPath, MISBEHAVING, 'well'] }
  const alone = configOf(scratch, 'alone.json', { well })
  const beside = configOf(scratch, 'beside.json', {
    well,
    hangs: { command: [process.execPath, MISBEHAVING, 'stall'] },
    floods: { command: [process.execPath, MISBEHAVING, 'chatter'] },
    crashes: { command: [process.execPath, MISBEHAVING, 'crash'] },
  })
  const times = { alone: [] as number[], beside: [] as number[] }
  for (let run = 0; run < RUNS; run++) {
    log(`gateway: isolation (run ${run + 1} of ${RUNS})`)
    times.alone.push(await callsThrough(alone))
    times.beside.push(await callsThrough(beside))
  }
  return { alone: median(times.alone), beside: median(times.beside) }
}

/** The proxy's resident MB (Linux), read from /proc. */
const resident = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** The proxy's resident MB once serving, and the most while one server floods notifications at a client that stops reading. */
async function floodMemory(scratch: string, log: (line: string) => void): Promise<GatewayResult['memory']> {
  log(`gateway: memory while a server floods notifications at a client that does not read (${FLOOD_SECONDS} s)`)
  const config = configOf(scratch, 'flood.json', { well: { command: [process.execPath, MISBEHAVING, 'well'] }, floods: { command: [process.execPath, MISBEHAVING, 'chatter'] } })
  const child = spawn(process.execPath, [CLI, 'proxy', '--config', config, '--surface', 'full'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] })
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
export async function runIsolation(scratch: string, log: (line: string) => void): Promise<Pick<GatewayResult, 'isolation' | 'memory'>> {
  return { isolation: await isolation(scratch, log), memory: await floodMemory(scratch, log) }
}

export async function runGateway(log: (line: string) => void): Promise<GatewayResult> {
  await loadTokenizer()
  const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-gateway-bench-'))
  try {
    return { ...await asOne(scratch, log), ...await runIsolation(scratch, log) }
  }
  finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** Section 15 of `npm run bench`: the figures, then the targets the issue set (said met or missed). */
export function printGateway(result: GatewayResult, table: (header: string[], rows: (string | number)[][]) => void, target: (what: string, met: boolean, figure: string) => void): void {
  const r = (a: number, b: number): string => `${(a / b).toFixed(2)}×`
  console.log(`\n15. many servers behind one flatmcp proxy --config: the suite's ${result.servers} npm servers as one endpoint beside themselves started in parallel (median of ${RUNS}); one member's calls behind the gateway alone and beside a hung member (${STUCK} calls stuck on it), a flooding one (notifications) and a crashing one (median ms of ${CALLS} calls); the proxy's memory while a member floods notifications at a client that does not read (${FLOOD_SECONDS} s)`)
  table(['servers', 'tools (their own)', 'tools (gateway)', 'first whole list, parallel ms', 'gateway ms', 'gateway ÷ parallel', 'tokens, full list', 'behind --surface search', 'surface ÷ full'], [[result.servers, result.tools.direct, result.tools.gateway, result.firstList.parallel.toFixed(0), result.firstList.gateway.toFixed(0), r(result.firstList.gateway, result.firstList.parallel), result.tokens.full, result.tokens.surface, (result.tokens.surface / result.tokens.full).toFixed(4)]])
  table(['one member\'s calls beside a hung, a flooding and a crashing member ÷ alone', 'alone ms', 'beside ms', 'beside ÷ alone'], [['well__echo', result.isolation.alone.toFixed(2), result.isolation.beside.toFixed(2), r(result.isolation.beside, result.isolation.alone)]])
  table(['the proxy\'s memory under a flooding member (client not reading)', 'serving MB', `most in ${FLOOD_SECONDS} s MB`, 'grown MB'], [['RSS', result.memory.before.toFixed(0), result.memory.peak.toFixed(0), (result.memory.peak - result.memory.before).toFixed(0)]])
  target('every tool of every server behind one --config', result.tools.gateway === result.tools.direct, `${result.tools.gateway} of ${result.tools.direct}`)
  target('the first whole list ≤ 1.3× the servers started in parallel', result.firstList.gateway / result.firstList.parallel <= 1.3, r(result.firstList.gateway, result.firstList.parallel))
  target('a session behind --surface search starts with ≤ 0.01× the whole set\'s full list', result.tokens.surface / result.tokens.full <= 0.01, (result.tokens.surface / result.tokens.full).toFixed(4))
  target('one member\'s calls beside a hung, a flooding and a crashing member ≤ 1.2× alone', result.isolation.beside / result.isolation.alone <= 1.2, r(result.isolation.beside, result.isolation.alone))
  target('the proxy\'s memory under a flooding member grows ≤ 128 MB (its notifications read at 1,000 a second, their backlog bounded; the rest is the collector\'s slack)', result.memory.peak - result.memory.before <= 128, `${(result.memory.peak - result.memory.before).toFixed(0)} MB`)
}
