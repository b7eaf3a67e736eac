// Many servers behind one `flatmcp proxy --config` (section 15 of `npm run bench`; `npm run
// bench:gateway` runs only it): the suite's npm servers as one endpoint beside the same servers
// started in parallel without it (the first whole list; the tokens a session starts with, full and
// behind --surface search), and isolation: one server's calls alone behind the gateway, and again
// beside one that keeps dying, one that hangs and one that floods its output.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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

export interface GatewayResult {
  servers: number
  tools: { direct: number, gateway: number }
  /** Median ms to the first whole list: every server started in parallel and listed, and the gateway's one list. */
  firstList: { parallel: number, gateway: number }
  /** o200k_base tokens of the list a session starts with: the full list, and behind --surface search. */
  tokens: { full: number, surface: number }
  /** Median ms per call to the well server: behind the gateway alone, and beside three that misbehave. */
  isolation: { alone: number, beside: number }
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
async function asOne(scratch: string, log: (line: string) => void): Promise<Omit<GatewayResult, 'isolation'>> {
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

/** Median ms per call to `well__echo` through a gateway of `config`, after its list is whole. */
async function callsThrough(config: string): Promise<number> {
  const client = await connected({ command: [process.execPath, CLI, 'proxy', '--config', config], env: {} })
  try {
    await client.listTools()
    const times: number[] = []
    for (let call = 0; call < CALLS; call++) {
      const started = performance.now()
      await client.callTool({ name: 'well__echo', arguments: { text: `call ${call}` } })
      times.push(performance.now() - started)
    }
    return median(times)
  }
  finally {
    await client.close()
  }
}

/** One server's calls behind the gateway alone, and beside one that dies, one that hangs and one that floods. */
async function isolation(scratch: string, log: (line: string) => void): Promise<GatewayResult['isolation']> {
  const well = { command: [process.execPath, MISBEHAVING, 'well'] }
  const alone = configOf(scratch, 'alone.json', { well })
  const beside = configOf(scratch, 'beside.json', {
    well,
    dies: { command: [process.execPath, '-e', 'setTimeout(() => process.exit(1), 200)'] },
    hangs: { command: [process.execPath, MISBEHAVING, 'hang'] },
    floods: { command: [process.execPath, MISBEHAVING, 'flood'] },
  })
  const times = { alone: [] as number[], beside: [] as number[] }
  for (let run = 0; run < RUNS; run++) {
    log(`gateway: isolation (run ${run + 1} of ${RUNS})`)
    times.alone.push(await callsThrough(alone))
    times.beside.push(await callsThrough(beside))
  }
  return { alone: median(times.alone), beside: median(times.beside) }
}

export async function runGateway(log: (line: string) => void): Promise<GatewayResult> {
  await loadTokenizer()
  const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-gateway-bench-'))
  try {
    return { ...await asOne(scratch, log), isolation: await isolation(scratch, log) }
  }
  finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** Section 15 of `npm run bench`: the figures, then the targets the issue set (said met or missed). */
export function printGateway(result: GatewayResult, table: (header: string[], rows: (string | number)[][]) => void, target: (what: string, met: boolean, figure: string) => void): void {
  const r = (a: number, b: number): string => `${(a / b).toFixed(2)}×`
  console.log(`\n15. many servers behind one flatmcp proxy --config: the suite's ${result.servers} npm servers as one endpoint beside themselves started in parallel (median of ${RUNS}); one server's calls behind the gateway alone and beside one that keeps dying, one that hangs and one that floods its output (median ms of ${CALLS} calls)`)
  table(['servers', 'tools (their own)', 'tools (gateway)', 'first whole list, parallel ms', 'gateway ms', 'gateway ÷ parallel', 'tokens, full list', 'behind --surface search', 'surface ÷ full'], [[result.servers, result.tools.direct, result.tools.gateway, result.firstList.parallel.toFixed(0), result.firstList.gateway.toFixed(0), r(result.firstList.gateway, result.firstList.parallel), result.tokens.full, result.tokens.surface, (result.tokens.surface / result.tokens.full).toFixed(4)]])
  table(['a call to the well server', 'alone ms', 'beside three misbehaving ms', 'beside ÷ alone'], [['well__echo', result.isolation.alone.toFixed(2), result.isolation.beside.toFixed(2), r(result.isolation.beside, result.isolation.alone)]])
  target('every tool of every server behind one --config', result.tools.gateway === result.tools.direct, `${result.tools.gateway} of ${result.tools.direct}`)
  target('the first whole list ≤ 1.3× the servers started in parallel', result.firstList.gateway / result.firstList.parallel <= 1.3, r(result.firstList.gateway, result.firstList.parallel))
  target('a session behind --surface search starts with ≤ 0.01× the whole set\'s full list', result.tokens.surface / result.tokens.full <= 0.01, (result.tokens.surface / result.tokens.full).toFixed(4))
  target('one server\'s calls beside one dying, one hung and one flooding ≤ 1.2× alone', result.isolation.beside / result.isolation.alone <= 1.2, r(result.isolation.beside, result.isolation.alone))
}
