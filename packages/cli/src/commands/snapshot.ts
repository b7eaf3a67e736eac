// `flatmcp snapshot`: an upstream's tools compiled ahead of time into an *.mcp.json snapshot.
import type { Command } from './command'
import path from 'node:path'
import { snapshotGenerator } from '../version'
import { parseOnly, profilesOf, UsageError } from './command'
import { readUpstreamCommand } from './upstream-args'

export const snapshot: Command = {
  usage: `  flatmcp snapshot [--out file] [--profile name]… [--preset name] [--on-invalid serve|drop] [--compile-timeout ms] [--overrides file] [--env NAME=value]… [--] <command> [args…]
  flatmcp snapshot [options] [--header 'Name: value']… <url>
      compile an upstream's tools into an *.mcp.json snapshot (every profile unless --profile) that
      flatmcp proxy --artifact and the fetch handler serve without compiling`,
  async run(args) {
    const { values, common: { overridesFile, upstream, ...common } } = readUpstreamCommand('snapshot', args)
    // snapshot takes no --config (one server's snapshot): its upstream is a command or a URL.
    if ('config' in upstream)
      throw new UsageError('snapshot takes no --config')
    const profiles = profilesOf(values.profile)
    const overrides = overridesFile === undefined ? undefined : (await import('../proxy/files')).readOverridesFile(overridesFile)
    if (parseOnly())
      return 0
    const { runSnapshot } = await import('../proxy/run-snapshot')
    const file = await runSnapshot({ ...common, upstream, ...(overrides ? { overrides } : {}), ...(values.out ? { out: values.out } : {}), ...(profiles ? { profiles } : {}), generator: snapshotGenerator() })
    console.log(path.relative(process.cwd(), file))
    return 0
  },
}
