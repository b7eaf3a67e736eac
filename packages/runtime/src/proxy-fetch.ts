// The proxy as a stateless fetch handler for an HTTP upstream, from its snapshot (Cloudflare Workers
// and other serverless platforms): no MCP SDK, no compiler, no Node built-in is loaded.
export type { Validator } from './proxy/chooser'
export { createProxyHandler } from './proxy/fetch-handler'
export type { ProxyHandler, ProxyHandlerOptions } from './proxy/fetch-handler'
export { profileOfPath } from './proxy/routes'
export { readSnapshot } from './proxy/snapshot'
export type { Snapshot } from './artifact/format'
