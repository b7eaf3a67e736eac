// The proxy as a stateless fetch handler for an HTTP upstream, from its snapshot (Cloudflare Workers
// and other serverless platforms), or for many servers from a snapshot of the set: no MCP SDK, no
// compiler, no Node built-in is loaded.
export type { Validator } from './proxy/compile/chooser'
export { createProxyHandler } from './proxy/http/fetch-handler'
export type { ProxyHandler, ProxyHandlerOptions, UpstreamEndpoint } from './proxy/http/fetch-options'
export { profileOfPath } from './proxy/http/routes'
export { readSnapshot } from './proxy/compile/snapshot-drift'
export type { Snapshot } from './artifact/format'
export type { OtelApi } from './telemetry/otel-api'
