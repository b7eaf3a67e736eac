// `flatmcp probe`: what ships, checked in every profile it holds; exit 1 on findings.
import type { Command } from './command'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { count, parseOnly } from './command'
import { upstreamOf } from './upstream-args'

export const probe: Command = {
  usage: `  flatmcp probe [artifacts or folders…] [--source file]… [--samples N] [--seed N] [--max-tokens N]
                [--max-module-tokens N] [--json] [--root dir] [--upstream url [--header 'Name: value']… | [--env NAME=value]… -- <command>]
      check what ships, in every profile it holds: well-formed, valid JSON Schema, profile rules,
      current with its source (a snapshot: with the upstream schemas it holds, and with the live
      upstream given), superset of the original on generated values, within the token budgets
      (o200k_base, per tool and per module); exit 1 on findings`,
  async run(args) {
    const split = args.indexOf('--')
    const { values, positionals } = parseArgs({
      args: split < 0 ? args : args.slice(0, split),
      allowPositionals: true,
      options: { 'root': { type: 'string' }, 'source': { type: 'string', multiple: true }, 'samples': { type: 'string' }, 'seed': { type: 'string' }, 'json': { type: 'boolean' }, 'max-tokens': { type: 'string' }, 'max-module-tokens': { type: 'string' }, 'upstream': { type: 'string' }, 'header': { type: 'string', multiple: true }, 'env': { type: 'string', multiple: true } },
    })
    const live = split < 0 && values.upstream === undefined && values.header === undefined && values.env === undefined ? undefined : upstreamOf('probe', split < 0 ? undefined : args.slice(split + 1), values.upstream === undefined ? [] : [values.upstream], values.header, values.env)
    const root = path.resolve(values.root ?? process.cwd())
    const counts = { samples: count(values.samples, '--samples'), seed: count(values.seed, '--seed'), maxTokens: count(values['max-tokens'], '--max-tokens'), maxModuleTokens: count(values['max-module-tokens'], '--max-module-tokens') }
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
