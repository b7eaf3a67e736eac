// Serving `defineTool` tools on the MCP SDK 2.x (`@modelcontextprotocol/server`).
export { createMcpServer } from './host/sdk-v2'
export type { ClientInfo, ExtendOptions, McpServerOptions, ProfileChoice, ProfileRequest, RequestInfo, ServedRequest } from './host/sdk-v2'
export { framePreserialized, preserialize } from './service/preserialized'
export { StdioTransport } from './host/stdio-transport'
export type { StdioTransportOptions } from './host/stdio-transport'
export type { ObservedCall } from './service/options'
export type { OtelApi } from './telemetry/call-telemetry'
