// `npm run bench`'s arguments: `--only a,b` runs those sections (names from bench/sections.ts),
// `--help` says how. Pure, so the refusal of an unknown name and the help are tested as they print.
export type BenchArgs = { help: true } | { only: string[] } | { error: string }

interface Named { name: string, numbers: string, about: string }

/** The arguments after `bench/run.ts`, against the sections' names; no `--only` runs them all. */
export function benchArgs(argv: readonly string[], sections: readonly Named[]): BenchArgs {
  const names = sections.map(section => section.name)
  let only = names
  for (let at = 0; at < argv.length; at++) {
    const arg = argv[at]!
    if (arg === '--help' || arg === '-h')
      return { help: true }
    const given = arg === '--only' ? (argv[++at] ?? '') : arg.startsWith('--only=') ? arg.slice('--only='.length) : undefined
    if (given === undefined)
      return { error: `unknown argument ${arg}; ${usage}` }
    const asked = given.split(',').map(name => name.trim()).filter(Boolean)
    const unknown = asked.filter(name => !names.includes(name))
    if (unknown.length > 0 || asked.length === 0)
      return { error: `no section named ${unknown.join(', ') || '(none given)'}; the sections: ${names.join(', ')}` }
    // In the table's order, whatever order they were asked in: a section's figures read the same.
    only = names.filter(name => asked.includes(name))
  }
  return { only }
}

const usage = 'npm run bench [-- --only section,section] [-- --help]'

/** `--help`: how to run it, and every section with the tables it prints. */
export function benchHelp(sections: readonly Named[]): string {
  const width = Math.max(...sections.map(section => section.name.length))
  const numbers = Math.max(...sections.map(section => section.numbers.length))
  return [
    `usage: ${usage}`,
    '',
    'Runs the benchmarks, prints their tables, then one targets table (figure, goal, met or MISSED) under the',
    'machine\'s load average; raw figures go to bench/results/bench.json. A section whose setup is off (a list',
    'that should be whole is not, an input is not at hand) prints a line saying so and fails the run.',
    '',
    '  --only a,b   run only these sections (in the order below)',
    '  --help       this',
    '',
    'sections:',
    ...sections.map(section => `  ${section.name.padEnd(width)}  ${section.numbers.padEnd(numbers)}  ${section.about}`),
  ].join('\n')
}
