// `npm run bench:startup`: start-up to the first tools/list of the suite's npm servers, each alone and
// behind `flatmcp proxy --artifact` (its snapshot), timed in turns in one run; the median ratio is
// what the proxy costs a client that starts it. The whole of `npm run bench` has it too (section 14),
// beside the rest; this runs only it, for a change to the proxy's start-up.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { installNpmServers, NPM_SERVERS } from '../test/support/npm-servers'
import { firstList, snapshotted } from './npm-servers.bench'
import { median, table } from './measure'

const CLI = new URL('../packages/cli/dist/cli.mjs', import.meta.url).pathname
const RUNS = Number(process.env.FLATMCP_BENCH_RUNS ?? 5)

const bin = installNpmServers()
const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-startup-bench-'))
const rows: { name: string, direct: number, proxied: number }[] = []
try {
  for (const server of NPM_SERVERS) {
    process.stderr.write(`· ${server.name}\n`)
    const { command, env, file } = snapshotted(server, bin, scratch)
    const direct: number[] = []
    const proxied: number[] = []
    for (let run = 0; run < RUNS; run++) {
      direct.push((await firstList(command, env)).ms)
      proxied.push((await firstList([process.execPath, CLI, 'proxy', '--artifact', file, '--', ...command], env)).ms)
    }
    rows.push({ name: server.name, direct: median(direct), proxied: median(proxied) })
  }
}
finally {
  rmSync(scratch, { recursive: true, force: true })
}
console.log(`start-up to the first tools/list, median of ${RUNS} runs each, ms`)
table(['server', 'alone', 'proxy from a snapshot', 'ratio'], rows.map(row => [row.name, row.direct.toFixed(0), row.proxied.toFixed(0), `${(row.proxied / row.direct).toFixed(2)}×`]))
const ratios = rows.map(row => row.proxied / row.direct)
console.log(`median over servers: ${median(ratios).toFixed(2)}× (worst ${Math.max(...ratios).toFixed(2)}×)`)
