// `flatmcp snapshot`: an upstream's tools compiled ahead of time into an *.mcp.json snapshot.
import type { Command } from './command'
import path from 'node:path'
import { snapshotGenerator } from '../version'
import { parseOnly, profilesOf } from './command'
import { gatewayEntries } from './gateway-entries'
import { readUpstreamCommand } from './upstream-args'
import { helpOf } from './upstream-flags'

export const snapshot: Command = {
  summary: 'compile a server\'s tools ahead of time into a snapshot the proxy serves without compiling',
  usage: `  flatmcp snapshot [options] [--env NAME=value]… [--] <command> [args…]
  flatmcp snapshot [options] [--header 'Name: value']… <url>
  flatmcp snapshot [options] --config FILE`,
  about: 'Connects to the upstream, reads its list and compiles every tool into an *.mcp.json snapshot (every target profile unless --profile names some), which flatmcp proxy --artifact and the fetch handler serve without compiling, and flatmcp probe checks. Says how many tools it holds and why its preset was chosen; prints the file written.',
  options: helpOf('snapshot'),
  examples: [
    ['flatmcp snapshot --out github.mcp.json -- npx -y @modelcontextprotocol/server-github', 'a server run by npx'],
    ['flatmcp snapshot --header \'Authorization: Bearer ${SENTRY_TOKEN}\' https://mcp.sentry.dev/mcp', 'a remote server, its token read from the environment'],
    ['flatmcp snapshot --config ~/.cursor/mcp.json --out cursor.mcp.json', 'every server a client\'s config lists, as one'],
  ],
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
