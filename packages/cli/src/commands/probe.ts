// `flatmcp probe`: what ships, checked in every profile it holds; exit 1 on findings.
import type { Command } from './command'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { count, parseOnly } from './command'
import { upstreamOf } from './upstream-args'

export const probe: Command = {
  summary: 'check what ships: well-formed, current, sound and within budget, in every profile it holds',
  usage: `  flatmcp probe [artifacts or folders…] [options]
  flatmcp probe <snapshot> [options] (--upstream url [--header 'Name: value']… | [--env NAME=value]… -- <command> [args…])`,
  about: 'Checks each *.mcp.json found (node_modules skipped), in every profile it holds: well-formed; valid JSON Schema under draft-07 and 2020-12; its profile\'s rules; current with its source (a snapshot: with the upstream schemas it records, and with the live upstream where one is given); a superset of the original on generated values under ajv 2020 (with and without ajv-formats), ajv draft-07 and @cfworker/json-schema; each target profile\'s round trip; the token budgets (o200k_base). Exit 1 on findings.',
  options: [
    ['--source file', 'a tool module that must have an artifact among those probed (repeatable)'],
    ['--samples N', 'values generated per tool (default: 200)'],
    ['--seed N', 'the generator\'s seed, to reproduce a run (default: 1)'],
    ['--max-tokens N', 'fail a tool whose definition takes more tokens in any profile'],
    ['--max-module-tokens N', 'fail a module whose tools together take more, per profile'],
    ['--strict-budget points', 'the anthropic-strict budget each strict tool\'s share is reported against, and a list over it said (default: a snapshot\'s own, else 48)'],
    ['--upstream url', 'a snapshot\'s live upstream over HTTP: it must list what the snapshot holds (--header \'Name: value\' sent with it)'],
    ['-- <command>', 'a snapshot\'s live upstream as a command (--env NAME=value added to its environment)'],
    ['--json', 'the report as JSON, for machines'],
    ['--root dir', 'the project root: sources are evaluated under it only (default: the working folder)'],
  ],
  examples: [
    ['flatmcp probe dist', 'every artifact a build wrote'],
    ['flatmcp probe dist --source src/chat.tools.ts --max-tokens 2000', 'in CI: the module has an artifact, and no tool passes 2,000 tokens'],
    ['flatmcp probe github.mcp.json -- npx -y @modelcontextprotocol/server-github', 'a snapshot, against what its server lists now'],
  ],
  async run(args) {
    const split = args.indexOf('--')
    const { values, positionals } = parseArgs({
      args: split < 0 ? args : args.slice(0, split),
      allowPositionals: true,
      options: { 'root': { type: 'string' }, 'source': { type: 'string', multiple: true }, 'samples': { type: 'string' }, 'seed': { type: 'string' }, 'json': { type: 'boolean' }, 'max-tokens': { type: 'string' }, 'max-module-tokens': { type: 'string' }, 'strict-budget': { type: 'string' }, 'upstream': { type: 'string' }, 'header': { type: 'string', multiple: true }, 'env': { type: 'string', multiple: true } },
    })
    const live = split < 0 && values.upstream === undefined && values.header === undefined && values.env === undefined ? undefined : upstreamOf('probe', split < 0 ? undefined : args.slice(split + 1), values.upstream === undefined ? [] : [values.upstream], values.header, values.env)
    const root = path.resolve(values.root ?? process.cwd())
    const counts = { samples: count(values.samples, '--samples'), seed: count(values.seed, '--seed'), maxTokens: count(values['max-tokens'], '--max-tokens'), maxModuleTokens: count(values['max-module-tokens'], '--max-module-tokens'), strictBudget: count(values['strict-budget'], '--strict-budget') }
    if (parseOnly())
      return 0
    const progress = process.stderr.isTTY && !values.json
    // On a terminal, one line rewritten: the artifact, then the tool being sampled.
    let at = ''
    const { probe: run } = await import('../probe/probe')
    const { renderReport } = await import('../probe/report')
    const report = await run({
      paths: positionals,
      root,
      sources: values.source,
      ...counts,
      ...(live ? { upstream: live } : {}),
      onProgress: progress ? (done, total, file) => process.stderr.write(`\r${(at = `probing ${done + 1}/${total} ${path.relative(root, file)}`)}\x1B[K`) : undefined,
      onTool: progress ? tool => process.stderr.write(`\r${at}: ${tool}\x1B[K`) : undefined,
    })
    if (progress)
      process.stderr.write('\r\x1B[K')
    console.log(values.json ? JSON.stringify(report, null, 2) : renderReport(report, root, process.stdout))
    return report.ok ? 0 : 1
  },
}
