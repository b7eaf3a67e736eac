// `npm run bench:startup`: start-up to the first tools/list of the suite's npm servers, each alone and
// behind `flatmcp proxy --artifact` (its snapshot: a later start, its answers kept, and a first start)
// and behind `flatmcp proxy` compiling (a later start, its list kept, and a first start), timed in turns in one run; the median ratio is what the proxy costs a client that starts it. The whole of `npm run bench` has it too (section 14),
// beside the rest; this runs only it, for a change to the proxy's start-up.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { installNpmServers, NPM_SERVERS } from '../test/support/npm-servers'
import { compilingStarts, firstList, fromSnapshot, SLOW_SERVER_MS, snapshotted } from './npm-servers.bench'
import { median, table } from './measure'

const RUNS = Number(process.env.FLATMCP_BENCH_RUNS ?? 5)
// `FLATMCP_BENCH_SERVERS=slack,github`: only those servers (a change's effect on the slowest, quickly).
const only = process.env.FLATMCP_BENCH_SERVERS?.split(',').map(name => name.trim()).filter(Boolean)
const unknown = only?.filter(name => !NPM_SERVERS.some(server => server.name === name)) ?? []
if (unknown.length > 0)
  throw new Error(`FLATMCP_BENCH_SERVERS names no such server: ${unknown.join(', ')} (the servers: ${NPM_SERVERS.map(server => server.name).join(', ')})`)

const bin = installNpmServers()
const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-startup-bench-'))
const rows: { name: string, direct: number, later: number, first: number, compiled: number, compiledFirst: number }[] = []
try {
  for (const server of NPM_SERVERS.filter(server => only === undefined || only.includes(server.name))) {
    process.stderr.write(`· ${server.name}\n`)
    const { command, env, file } = snapshotted(server, bin, scratch)
    const starts = fromSnapshot(file, command, env, path.join(scratch, `${server.name}-cache`))
    const compiling = compilingStarts(command, env, path.join(scratch, `${server.name}-lists`))
    if (!(await starts.warm()) || !(await compiling.warm()))
      throw new Error(`${server.name}: the proxy kept no answers or no list within 20 s, so its later starts cannot be timed`)
    const times = { direct: [] as number[], later: [] as number[], first: [] as number[], compiled: [] as number[], compiledFirst: [] as number[] }
    for (let run = 0; run < RUNS; run++) {
      times.direct.push((await firstList(command, env)).ms)
      times.later.push((await starts.later()).ms)
      times.first.push((await starts.first()).ms)
      times.compiled.push((await compiling.later()).ms)
      times.compiledFirst.push((await compiling.first()).ms)
    }
    rows.push({ name: server.name, direct: median(times.direct), later: median(times.later), first: median(times.first), compiled: median(times.compiled), compiledFirst: median(times.compiledFirst) })
  }
}
finally {
  rmSync(scratch, { recursive: true, force: true })
}
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`
console.log(`start-up to the first tools/list, median of ${RUNS} runs each, ms: the server alone; the proxy from a snapshot, a later start (its answers kept) and a first start (nothing kept); the proxy compiling, a later start (its list kept) and a first start`)
table(['server', 'alone', 'later starts', 'ratio', 'first start', 'ratio', 'compiling, later', 'ratio', 'compiling, first', 'ratio'], rows.map(row => [row.name, row.direct.toFixed(0), ...[row.later, row.first, row.compiled, row.compiledFirst].flatMap(ms => [ms.toFixed(0), ratio(ms, row.direct)])]))
type Row = typeof rows[number]
for (const [name, of] of [['later starts', (row: Row) => row.later], ['first start', (row: Row) => row.first], ['compiling, later starts', (row: Row) => row.compiled], ['compiling, first start', (row: Row) => row.compiledFirst]] as const) {
  const ratios = rows.map(row => of(row) / row.direct)
  console.log(`${name}: median over servers ${median(ratios).toFixed(2)}× (worst ${Math.max(...ratios).toFixed(2)}×)`)
}
// Section 14 judges compiling's ratio over the servers slower than the proxy's own floor.
const slow = rows.filter(row => row.direct >= SLOW_SERVER_MS)
if (slow.length > 0)
  console.log(`compiling, later starts, over the ${slow.length} servers of ${SLOW_SERVER_MS} ms or more alone: median ${median(slow.map(row => row.compiled / row.direct)).toFixed(2)}×; milliseconds added over all: median ${median(rows.map(row => row.compiled - row.direct)).toFixed(0)}`)
