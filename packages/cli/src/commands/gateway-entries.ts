// The servers of a client's config (`--config`), as proxy and snapshot take them: each entry with
// the proxy's own credentials withheld, and those the config switches off said.
import type { GatewayEntry } from '@flatmcp/runtime/proxy'

/** The entries of `file`, the proxy's callers' tokens (`withheld`) kept from every one (an entry that names one in its command line is refused). */
export async function gatewayEntries(file: string, withheld: { withheld?: string[] }, command: 'proxy' | 'snapshot'): Promise<GatewayEntry[]> {
  const { readServersConfigFile } = await import('../proxy/config-file')
  const config = readServersConfigFile(file, process.env, withheld.withheld)
  for (const { name, why } of config.skipped)
    process.stderr.write(`flatmcp ${command}: server "${name}" is ${why}; not served\n`)
  return config.entries.map(entry => ({ ...entry, target: { ...entry.target, ...withheld } }))
}
