// Many servers behind one proxy (`flatmcp proxy --config`): their connections made as one upstream
// (`upstream/gateway/`), served as `createProxy` serves any.
import type { Proxy, ProxyOptions } from './create-proxy'
import type { GatewayEntry } from './upstream/gateway/connect-gateway'
import type { NamingOptions } from './upstream/gateway/served-names'
import { logLine } from '../util/log'
import { definedOf } from '../util/object'
import { offerOf, servedOver } from './create-proxy'
import { connectGateway } from './upstream/gateway/connect-gateway'

/** A gateway's options: the proxy's, and how its servers' tools are named and waited for. */
export interface GatewayOptions extends ProxyOptions {
  /** The separator between a server's prefix and its tools' names, and each server's prefix. */
  naming?: NamingOptions
  /** How long the first list waits for servers still starting, and any list for one server. Default: 10,000 ms. */
  listMs?: number
  /** Entries served as one server, each tool taking a `target` that names the entry: by that server's name. */
  replicas?: Readonly<Record<string, readonly string[]>>
  /** Where the servers' own stderr lines go, each led by its server's name. Default: the proxy's stderr. */
  stderr?: (line: string) => void
}

/**
 * Many servers behind one proxy: each entry connected on its own (its process or connection, its
 * environment, retried with backoff when it fails or ends), their tools served as one list by
 * `NAME__tool`, their prompts so too, their resources by URI; everything else as `createProxy` serves
 * one upstream. A server that is down has its tools left out, said, until it is back.
 */
export async function createGateway(entries: readonly GatewayEntry[], options: GatewayOptions = {}): Promise<Proxy> {
  const log = options.log ?? logLine
  const connection = connectGateway(entries, { ...offerOf(options), ...definedOf(options, ['naming', 'info', 'listMs', 'replicas', 'stderr']), log })
  return servedOver(connection, options, log)
}
