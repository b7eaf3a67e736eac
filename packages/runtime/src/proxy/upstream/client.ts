// An upstream the caller connected already (an MCP SDK 2.x `Client`, or anything with its methods):
// served as it is, and the caller's to close.
import type { Upstream, UpstreamClient } from './upstream'

export function clientUpstream(client: UpstreamClient): Upstream {
  return { client, where: client.getServerVersion()?.name ?? 'the upstream', onEnd: () => {}, close: async () => {} }
}
