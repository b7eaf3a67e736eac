// A proxy in front of any MCP server (MCP SDK 2.x on both sides): its tools served flat, compiled
// from the upstream's list or served from a snapshot. The stateless fetch handler for an HTTP
// upstream is at `@flatmcp/runtime/proxy/fetch`.
export type { Validator } from './proxy/chooser'
export { createProxy } from './proxy/proxy'
export type { Proxy, ProxyOptions, ServedTool, UpstreamClient, UpstreamTool } from './proxy/proxy'
export { describeDrift, driftOf, isSnapshot, readSnapshot, snapshotText } from './proxy/snapshot'
export type { ProxiedTool, Snapshot, UpstreamRecord } from './artifact/format'
export type { Drift } from './proxy/snapshot'
export { digestOf, listAll, malformedTool } from './proxy/upstream'
