// Serving `defineTool` tools on the MCP SDK 1.x (`@modelcontextprotocol/sdk`).
export { createMcpServer } from './serve/create-server'
export type { ClientInfo, ExtendOptions, McpServerOptions, ProfileChoice, ProfileRequest, RequestInfo, ServedRequest } from './serve/create-server'
export { CLIENT_PROFILES, defaultProfileFor } from './serve/create-server'
export { framePreserialized, preserialize } from './serve/preserialized'
export { StdioTransport } from './serve/stdio-transport'
export type { StdioTransportOptions } from './serve/stdio-transport'
