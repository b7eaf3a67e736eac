// `npm run bench`: the sections of bench/sections.ts in one run (or those `--only` names), each
// checked to have measured what it meant before its tables print; then one targets table (figure,
// goal, met or MISSED) under the machine's load; raw figures in bench/results/bench.json. A section
// whose setup is off, or that fails, prints a line naming it and fails the run, after the others.
import type { SetupCheck } from './setup-checks'
import type { TargetRow } from './targets-table'
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { benchArgs, benchHelp } from './bench-args'
import { table } from './measure'
import { SECTIONS } from './sections'
import { setupOff } from './setup-checks'
import { leftAligned, targetRows, targetsHeader, targetsSummary } from './targets-table'

const args = benchArgs(process.argv.slice(2), SECTIONS)
if ('help' in args) {
  console.log(benchHelp(SECTIONS))
  process.exit(0)
}
if ('error' in args) {
  console.error(args.error)
  process.exit(2)
}

const log = (line: string): void => {
  process.stderr.write(`· ${line}\n`)
}
const machine = { cores: os.cpus().length, cpu: os.cpus()[0]?.model.trim() ?? 'cpu', node: process.version, load: { start: os.loadavg(), end: [] as number[] } }
console.log(`flatmcp benchmarks — node ${machine.node}, ${machine.cores} × ${machine.cpu}, load average ${machine.load.start.map(value => value.toFixed(2)).join(' ')}, medians in ms${args.only.length < SECTIONS.length ? `; only ${args.only.join(', ')}` : ''}\n`)

const targets: TargetRow[] = []
const results: Record<string, unknown> = {}
const setup: Record<string, SetupCheck[]> = {}
const off: string[] = []
for (const section of SECTIONS.filter(entry => args.only.includes(entry.name))) {
  log(`${section.name} (section ${section.numbers})`)
  try {
    const result = await section.run(log)
    results[section.name] = result
    setup[section.name] = section.setup?.(result) ?? []
    const lines = setupOff(section.name, setup[section.name]!)
    if (lines.length > 0) {
      // Its figures would be of something else: none printed, none counted.
      console.log(`\n${lines.join('\n')}`)
      off.push(...lines)
      continue
    }
    section.print(result, table, (what, met, figure) => targets.push({ section: section.name, what, met, figure }))
  }
  catch (error) {
    const line = `${section.name} failed: ${error instanceof Error ? error.message : String(error)}`
    console.log(`\n${line}`)
    off.push(line)
  }
}
machine.load.end = os.loadavg()

console.log(`\n${targetsHeader(machine)}`)
for (const line of leftAligned([['target', 'figure', 'goal', ''], ...targetRows(targets, off)]))
  console.log(line)
console.log(targetsSummary(targets, off))

mkdirSync(new URL('results/', import.meta.url), { recursive: true })
const out = new URL('results/bench.json', import.meta.url)
writeFileSync(out, `${JSON.stringify({ ...machine, sections: args.only, setup, ...results, targets, off }, null, 2)}\n`)
console.log(`\nraw figures: ${out.pathname}`)
if (off.length > 0)
  process.exitCode = 1
