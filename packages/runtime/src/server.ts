// Serving `defineTool` tools on the MCP SDK 2.x (`@modelcontextprotocol/server`).
export { createMcpServer } from './serve/create-server-v2'
export type { ClientInfo, ExtendOptions, McpServerOptions, ProfileChoice, ProfileRequest, RequestInfo, ServedRequest } from './serve/create-server-v2'
export { CLIENT_PROFILES, defaultProfileFor } from './serve/create-server-v2'
export { framePreserialized, preserialize } from './serve/preserialized'
export { StdioTransport } from './serve/stdio-transport'
export type { StdioTransportOptions } from './serve/stdio-transport'
