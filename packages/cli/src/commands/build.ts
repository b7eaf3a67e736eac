// `flatmcp build`: the tool modules' artifacts, as the plugin writes them.
import type { Command } from './command'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { PRESET_NAMES, PROFILE_NAMES } from '@flatmcp/core/names'
import { duration, oneOf, parseOnly, presetOf, profilesOf, UsageError } from './command'

export const build: Command = {
  usage: `  flatmcp build <files or globs…> [--out dir] [--profile name]… [--preset name] [--module-timeout ms]
                [--fail-on error|warning|never] [--quiet] [--root dir]
      write the *.mcp.json artifacts the bundler plugin writes, byte for byte (nothing, if any module
      fails or runs past --module-timeout, 60000 ms); warnings and a summary go to stderr (--quiet:
      none), --fail-on warning makes a warning fail the build; each --profile
      (${PROFILE_NAMES.join(', ')}) is built, the first of portable/minimal as the base;
      --preset (auto, ${PRESET_NAMES.join(', ')}) names the parser JSON Schema inputs were written for`,
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
    const { buildArtifacts } = await import('../build/build-artifacts')
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
