// A proxy in front of any MCP server (MCP SDK 2.x on both sides): its tools served flat, compiled
// from the upstream's list or served from a snapshot; the upstream connected to as a command, a URL
// or a client; served over stdio or stateless HTTP. The stateless fetch handler for an HTTP
// upstream is at `@flatmcp/runtime/proxy/fetch`.
export type { ProxiedTool, Snapshot, UpstreamRecord } from './artifact/format'
export type { Validator } from './proxy/chooser'
export { compileUpstreamList } from './proxy/compile-list'
export { fallbacksOf } from './proxy/fallbacks'
export type { CompiledUpstreamList, CompileListOptions } from './proxy/compile-list'
export { connectUpstream } from './proxy/connection'
export { expandVariables, upstreamEnvironment } from './proxy/environment'
export type { ConnectOptions, Message, OfferedCapabilities, Upstream, UpstreamClient, UpstreamOAuth, UpstreamTarget } from './proxy/connection'
export { createProxy } from './proxy/proxy'
export type { Proxy, ProxyOptions, ServedTool } from './proxy/proxy'
export { profileOfPath } from './proxy/routes'
export { routedProfile, serveProxy } from './proxy/serve'
export type { Downstream, HttpServing, ProxyStarter, ServedProxy, ServeProxyOptions } from './proxy/serve'
export { httpGuard } from './proxy/guard'
export type { HttpGuard, HttpGuardOptions } from './proxy/guard'
export { describeDrift, driftOf, isSnapshot, readSnapshot, snapshotText, toSnapshot } from './proxy/snapshot'
export type { Drift } from './proxy/snapshot'
export { listSetupError, ProxySetupError } from './proxy/setup-error'
export { digestOf, listAll, malformedTool, readUpstream, readUpstreamList, shown } from './proxy/upstream-list'
export type { ReadUpstreamOptions, UpstreamEntry, UpstreamTool } from './proxy/upstream-list'
