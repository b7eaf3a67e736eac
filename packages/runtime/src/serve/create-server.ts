import type { Server as ServerType } from '@modelcontextprotocol/sdk/server/index.js'
import type { ToolDefinition } from '../define-tool'
import type { McpServerOptions } from './tool-service'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { sessionProfile } from './profiles'
import { createToolService, repairStringArguments } from './tool-service'

export type { ClientInfo, ProfileChoice } from './profiles'
export { CLIENT_PROFILES, defaultProfileFor } from './profiles'
export type { ExtendOptions, McpServerOptions, RequestInfo } from './tool-service'

/**
 * An MCP SDK 1.x `Server` that serves `tools`: `tools/list` from the precomputed schemas, `tools/call`
 * by coercing the arguments, validating them with each tool's original schemas and calling its
 * handler. Connect it to any transport (stdio, Streamable HTTP).
 */
export function createMcpServer(tools: readonly ToolDefinition[], info: { name: string, version: string }, options: McpServerOptions = {}): ServerType {
  const service = createToolService(tools, options, message => new McpError(ErrorCode.InvalidParams, message))
  const server = new Server(info, { capabilities: { ...options.capabilities, tools: {} }, instructions: options.instructions })
  // The same object every time, serialized once: a StdioTransport writes its text as is.
  // A server is one session: its profile is chosen once the client has said who it is.
  const profile = sessionProfile(options.profile, () => server.getClientVersion())
  server.setRequestHandler(ListToolsRequestSchema, () => service.list(profile()))
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    service.call(request.params.name, request.params.arguments, { signal: extra.signal, sessionId: extra.sessionId, authInfo: extra.authInfo }, profile()))
  repairStringArguments(server)
  return server
}
