// A client's config written as that client writes it, from servers in flatmcp's shape: its key, its
// entry shape (Goose's `cmd`/`envs`, opencode's command list, Continue's list of named entries) and
// its format, each from the install table, so a test covers every client the table knows.
import type { InstallClient } from '../../packages/cli/src/install/clients'
import { stringify } from 'yaml'
import { fromFlatmcp } from '../../packages/cli/src/install/entries'

/** The servers under the client's key, each in its own shape. */
export function clientServers(client: InstallClient, servers: Record<string, Record<string, unknown>>): unknown {
  const native = Object.entries(servers).map(([name, entry]) => [name, { ...(client.named ? { name } : {}), ...fromFlatmcp(client.entry, entry) }] as const)
  return client.list ? native.map(([, entry]) => entry) : Object.fromEntries(native)
}

/** A whole config (JSON or YAML; not TOML) with `top`'s keys beside the servers. */
export function clientConfigText(client: InstallClient, servers: Record<string, Record<string, unknown>>, top: Record<string, unknown> = {}): string {
  const config = { ...top, [client.key]: clientServers(client, servers) }
  if (client.format === 'toml')
    throw new Error('a TOML config is written by hand in the tests')
  return client.format === 'yaml' ? stringify(config, { lineWidth: 0 }) : `${JSON.stringify(config, null, 2)}\n`
}
