// `flatmcp snapshot`: an upstream's tools compiled ahead of time into an *.mcp.json snapshot.
import type { Command } from './command'
import path from 'node:path'
import { snapshotGenerator } from '../version'
import { parseOnly, profilesOf } from './command'
import { gatewayEntries } from './gateway-entries'
import { readUpstreamCommand } from './upstream-args'

export const snapshot: Command = {
  usage: `  flatmcp snapshot [--out file] [--profile name]… [--preset name] [--on-invalid serve|drop] [--compile-timeout ms] [--overrides file] [--env NAME=value]… [--] <command> [args…]
  flatmcp snapshot [options] [--header 'Name: value']… <url>
  flatmcp snapshot [options] --config FILE
      compile an upstream's tools (or every server a client's config lists, as one) into an *.mcp.json snapshot (every profile unless --profile) that
      flatmcp proxy --artifact and the fetch handler serve without compiling`,
  async run(args) {
    const { values, common: { overridesFile, upstream: named, ...common } } = readUpstreamCommand('snapshot', args)
    const profiles = profilesOf(values.profile)
    const overrides = overridesFile === undefined ? undefined : (await import('../proxy/files')).readOverridesFile(overridesFile)
    if (parseOnly())
      return 0
    const { runSnapshot } = await import('../proxy/run-snapshot')
    const upstream = 'config' in named ? { gateway: { config: named.config, entries: await gatewayEntries(named.config, {}, 'snapshot') } } : { upstream: named }
    const { file } = await runSnapshot({ ...common, ...upstream, ...(overrides ? { overrides } : {}), ...(values.out ? { out: values.out } : {}), ...(profiles ? { profiles } : {}), generator: snapshotGenerator() })
    console.log(path.relative(process.cwd(), file!))
    return 0
  },
}
