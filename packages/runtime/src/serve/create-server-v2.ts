import type { ToolDefinition } from '../define-tool'
import type { McpServerOptions } from './tool-service'
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server'
import { sessionProfile } from './profiles'
import { createToolService, repairStringArguments } from './tool-service'

export type { ClientInfo, ProfileChoice } from './profiles'
export { CLIENT_PROFILES, defaultProfileFor } from './profiles'
export type { ExtendOptions, McpServerOptions, RequestInfo } from './tool-service'

/**
 * An MCP SDK 2.x `Server` (`@modelcontextprotocol/server`) that serves `tools`, with the same
 * guarantees as the 1.x one: `tools/list` from the precomputed schemas, `tools/call` by coercing the
 * arguments (a whole arguments string too), validating them with each tool's original schemas and
 * calling its handler. Connect it to any 2.x transport (stdio, Streamable HTTP).
 */
export function createMcpServer(tools: readonly ToolDefinition[], info: { name: string, version: string }, options: McpServerOptions = {}): Server {
  const service = createToolService(tools, options, message => new ProtocolError(ProtocolErrorCode.InvalidParams, message))
  const server = new Server(info, { capabilities: { ...options.capabilities, tools: {} }, ...(options.instructions === undefined ? {} : { instructions: options.instructions }) })
  // A server is one session: its profile is chosen once the client has said who it is.
  const profile = sessionProfile(options.profile, () => server.getClientVersion())
  server.setRequestHandler('tools/list', () => service.list(profile()) as never)
  server.setRequestHandler('tools/call', (request, ctx) => {
    const http = (ctx as { http?: { authInfo?: unknown } }).http
    const about = { signal: ctx.mcpReq.signal, ...(ctx.sessionId === undefined ? {} : { sessionId: ctx.sessionId }), ...(http?.authInfo === undefined ? {} : { authInfo: http.authInfo }) }
    return service.call(request.params.name, request.params.arguments, about, profile()) as never
  })
  repairStringArguments(server)
  return server
}
