// How a request came, as its SERVER span says it: its id, its transport, its session and the MCP
// version it was made in (a 2026-07-28 request's own envelope; a 2025 session's negotiated version;
// else the HTTP request's MCP-Protocol-Version header).
import type { IncomingRequest } from './call-telemetry'

const VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion'

/** What of an SDK 2.x handler's context a span reads. */
export interface RequestContext {
  mcpReq: { id?: string | number, envelope?: unknown }
  http?: unknown
  sessionId?: string
}

/** The request's way for `CallTelemetry.serve`: all but its method and tool. */
export function requestWay(ctx: RequestContext, negotiated?: () => string | undefined, headers?: Headers): Omit<IncomingRequest, 'method' | 'tool'> {
  const enveloped = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[VERSION_META_KEY]
  const version = typeof enveloped === 'string' ? enveloped : negotiated?.() ?? headers?.get('mcp-protocol-version') ?? undefined
  return {
    requestId: ctx.mcpReq.id ?? '',
    transport: ctx.http ? 'tcp' : 'pipe',
    ...(ctx.sessionId === undefined ? {} : { sessionId: ctx.sessionId }),
    ...(version === undefined ? {} : { protocolVersion: version }),
  }
}
