// `flatmcp inspect`: a module's or a snapshot's tools, the original schema beside the advertised one.
import type { Command } from './command'
import { parseArgs } from 'node:util'
import { PRESET_NAMES, PROFILE_NAMES } from '@flatmcp/core/names'
import { parseOnly, presetOf, profileOf, UsageError } from './command'

export const inspect: Command = {
  summary: 'what flatmcp makes of a module\'s or a snapshot\'s tools: the original schema beside the advertised one',
  usage: '  flatmcp inspect <file> [options]',
  about: 'Shows each tool of a tool module or a snapshot (*.mcp.json: its fallbacks too): the original and the advertised schema side by side in one profile, the tokens in every profile, what was cut and why, the diagnostics and the inverse map.',
  options: [
    ['--tool name', 'only that tool'],
    ['--profile name', `the profile shown side by side: ${PROFILE_NAMES.join(', ')} (default: portable)`],
    ['--preset name', `the parser a JSON Schema input was written for: auto (default), ${PRESET_NAMES.join(', ')}`],
    ['--summary', 'one line per tool instead of the schemas: unions joined, places widened, keywords moved into descriptions, tokens before and after; then the whole list\'s tokens'],
    ['--run', 'evaluate a module not named *.tools.ts too'],
    ['--root dir', 'the project root (default: the working folder)'],
  ],
  examples: [
    ['flatmcp inspect src/chat.tools.ts', 'every tool of a module, in portable'],
    ['flatmcp inspect github.mcp.json --summary', 'what the proxy changed in each tool of a snapshot, a line each'],
    ['flatmcp inspect github.mcp.json --tool create_issue --profile openai-strict', 'one tool of a snapshot, as OpenAI\'s strict mode gets it'],
  ],
  async run(args) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { root: { type: 'string' }, tool: { type: 'string' }, profile: { type: 'string' }, preset: { type: 'string' }, run: { type: 'boolean' }, summary: { type: 'boolean' } } })
    if (positionals.length !== 1)
      throw new UsageError('inspect takes one tool module')
    const profile = values.profile === undefined ? undefined : profileOf(values.profile)
    const preset = presetOf(values.preset)
    if (parseOnly())
      return 0
    const { inspectModule } = await import('../tool-modules/inspect-module')
    console.log(await inspectModule({ file: positionals[0]!, tool: values.tool, profile, preset, root: values.root, run: values.run, summary: values.summary, stream: process.stdout }))
    return 0
  },
}
