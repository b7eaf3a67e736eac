// Serving `defineTool` tools on the MCP SDK 1.x (`@modelcontextprotocol/sdk`).
export { createMcpServer } from './host/sdk-v1'
export type { ClientInfo, ExtendOptions, McpServerOptions, ProfileChoice, ProfileRequest, RequestInfo, ServedRequest } from './host/sdk-v1'
export { framePreserialized, preserialize } from './service/preserialized'
export { StdioTransport } from './host/stdio-transport'
export type { StdioTransportOptions } from './host/stdio-transport'
