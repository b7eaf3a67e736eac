// `npm run bench:startup`: start-up to the first tools/list of the suite's npm servers, each alone and
// behind `flatmcp proxy --artifact` (its snapshot: a later start, its answers kept, and a first start),
// timed in turns in one run; the median ratio is what the proxy costs a client that starts it. The whole of `npm run bench` has it too (section 14),
// beside the rest; this runs only it, for a change to the proxy's start-up.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { installNpmServers, NPM_SERVERS } from '../test/support/npm-servers'
import { firstList, fromSnapshot, snapshotted } from './npm-servers.bench'
import { median, table } from './measure'

const RUNS = Number(process.env.FLATMCP_BENCH_RUNS ?? 5)
// `FLATMCP_BENCH_SERVERS=slack,github`: only those servers (a change's effect on the slowest, quickly).
const only = process.env.FLATMCP_BENCH_SERVERS?.split(',').map(name => name.trim()).filter(Boolean)
const unknown = only?.filter(name => !NPM_SERVERS.some(server => server.name === name)) ?? []
if (unknown.length > 0)
  throw new Error(`FLATMCP_BENCH_SERVERS names no such server: ${unknown.join(', ')} (the servers: ${NPM_SERVERS.map(server => server.name).join(', ')})`)

const bin = installNpmServers()
const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-startup-bench-'))
const rows: { name: string, direct: number, later: number, first: number }[] = []
try {
  for (const server of NPM_SERVERS.filter(server => only === undefined || only.includes(server.name))) {
    process.stderr.write(`· ${server.name}\n`)
    const { command, env, file } = snapshotted(server, bin, scratch)
    const starts = fromSnapshot(file, command, env, path.join(scratch, `${server.name}-cache`))
    if (!(await starts.warm()))
      throw new Error(`${server.name}: the proxy kept no answers within 20 s, so its later starts cannot be timed`)
    const direct: number[] = []
    const later: number[] = []
    const first: number[] = []
    for (let run = 0; run < RUNS; run++) {
      direct.push((await firstList(command, env)).ms)
      later.push((await starts.later()).ms)
      first.push((await starts.first()).ms)
    }
    rows.push({ name: server.name, direct: median(direct), later: median(later), first: median(first) })
  }
}
finally {
  rmSync(scratch, { recursive: true, force: true })
}
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`
console.log(`start-up to the first tools/list, median of ${RUNS} runs each, ms: the server alone; the proxy from a snapshot, a later start (its answers kept) and a first start (nothing kept)`)
table(['server', 'alone', 'later starts', 'ratio', 'first start', 'ratio'], rows.map(row => [row.name, row.direct.toFixed(0), row.later.toFixed(0), ratio(row.later, row.direct), row.first.toFixed(0), ratio(row.first, row.direct)]))
for (const [name, of] of [['later starts', (row: typeof rows[number]) => row.later], ['first start', (row: typeof rows[number]) => row.first]] as const) {
  const ratios = rows.map(row => of(row) / row.direct)
  console.log(`${name}: median over servers ${median(ratios).toFixed(2)}× (worst ${Math.max(...ratios).toFixed(2)}×)`)
}
