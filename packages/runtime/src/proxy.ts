// A proxy in front of any MCP server (MCP SDK 2.x on both sides): its tools served flat.
export { createProxy } from './proxy/proxy'
export type { Proxy, ProxyOptions, UpstreamClient, UpstreamTool } from './proxy/proxy'
