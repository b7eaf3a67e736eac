// `flatmcp inspect`: a module's or a snapshot's tools, the original schema beside the advertised one.
import type { Command } from './command'
import { parseArgs } from 'node:util'
import { parseOnly, presetOf, profileOf, UsageError } from './command'

export const inspect: Command = {
  usage: `  flatmcp inspect <file> [--tool name] [--profile name] [--preset name] [--run] [--root dir]
      original and advertised schema side by side in one profile, tokens per profile, what was cut,
      diagnostics, inverse map, of a tool module's tools or a snapshot's (*.mcp.json: its fallbacks
      too); --run evaluates a module not named *.tools.ts too`,
  async run(args) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { root: { type: 'string' }, tool: { type: 'string' }, profile: { type: 'string' }, preset: { type: 'string' }, run: { type: 'boolean' } } })
    if (positionals.length !== 1)
      throw new UsageError('inspect takes one tool module')
    const profile = values.profile === undefined ? undefined : profileOf(values.profile)
    const preset = presetOf(values.preset)
    if (parseOnly())
      return 0
    const { inspectModule } = await import('../inspect/inspect-module')
    console.log(await inspectModule({ file: positionals[0]!, tool: values.tool, profile, preset, root: values.root, run: values.run, stream: process.stdout }))
    return 0
  },
}
