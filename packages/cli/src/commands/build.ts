// `flatmcp build`: the tool modules' artifacts, as the plugin writes them.
import type { Command } from './command'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { PRESET_NAMES, PROFILE_NAMES } from '@flatmcp/core/names'
import { duration, oneOf, parseOnly, presetOf, profilesOf, UsageError } from './command'

export const build: Command = {
  summary: 'write the *.mcp.json artifacts of tool modules, as the bundler plugin writes them',
  usage: '  flatmcp build <files or globs…> [options]',
  about: 'Evaluates each tool module (*.tools.ts), compiles its tools and writes their artifacts byte for byte as the bundler plugin does; if any module fails, or runs past --module-timeout, nothing is written. Warnings and a summary go to stderr, the files written to stdout.',
  options: [
    ['--out dir', 'where the artifacts go (default: dist), each at its module\'s path'],
    ['--profile name', `a profile to build, repeated or comma-separated: ${PROFILE_NAMES.join(', ')}; the first of portable or minimal is the base (default: portable)`],
    ['--preset name', `the parser a JSON Schema input was written for: auto (default), ${PRESET_NAMES.join(', ')}`],
    ['--module-timeout ms', 'how long one module may take to evaluate (default: 60000)'],
    ['--fail-on level', 'error (default): a tool that cannot be served fails the build; warning: a warning does too; never'],
    ['--quiet', 'no warnings and no summary on stderr'],
    ['--root dir', 'the project root module paths are relative to (default: the working folder)'],
  ],
  examples: [
    ['flatmcp build \'src/**/*.tools.ts\'', 'every tool module of a project, into dist/'],
    ['flatmcp build src/chat.tools.ts --profile portable,openai-strict,gemini', 'one module, with the forms OpenAI\'s strict mode and Gemini take'],
    ['flatmcp build \'src/*.tools.ts\' --fail-on warning --quiet', 'in CI: any warning fails, nothing else is said'],
  ],
  async run(args) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'root': { type: 'string' }, 'out': { type: 'string' }, 'profile': { type: 'string', multiple: true }, 'preset': { type: 'string' }, 'module-timeout': { type: 'string' }, 'fail-on': { type: 'string' }, 'quiet': { type: 'boolean' } } })
    if (positionals.length === 0)
      throw new UsageError('build needs tool module files or globs')
    const moduleTimeout = duration(values['module-timeout'], '--module-timeout')
    if (moduleTimeout === 0)
      throw new UsageError('--module-timeout takes a whole number of milliseconds above 0')
    const failOn = oneOf(values['fail-on'], '--fail-on', ['error', 'warning', 'never'] as const)
    const profiles = profilesOf(values.profile)
    const preset = presetOf(values.preset)
    if (parseOnly())
      return 0
    const said = values.quiet ? undefined : (line: string): void => console.error(line)
    const { buildArtifacts } = await import('../tool-modules/build-artifacts')
    const written = await buildArtifacts({
      patterns: positionals,
      out: values.out,
      profiles,
      preset,
      root: values.root,
      ...(moduleTimeout === undefined ? {} : { moduleTimeout }),
      ...(failOn === undefined ? {} : { failOn }),
      ...(said ? { onWarning: message => said(`flatmcp: warning: ${message}`), onSummary: said } : {}),
    })
    for (const file of written)
      console.log(path.relative(process.cwd(), file))
    return 0
  },
}
