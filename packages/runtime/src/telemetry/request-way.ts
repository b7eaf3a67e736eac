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

/**
 * The trace context a request carries, for its SERVER span's parent: its `_meta` where that holds a
 * `traceparent`, else its HTTP `traceparent` and `tracestate` headers (W3C Trace Context), else none.
 */
export function traceCarrier(meta: unknown, headers: Headers | undefined): Record<string, unknown> | undefined {
  if (typeof meta === 'object' && meta !== null && typeof (meta as { traceparent?: unknown }).traceparent === 'string')
    return meta as Record<string, unknown>
  const traceparent = headers?.get('traceparent')
  if (traceparent === null || traceparent === undefined)
    return undefined
  const tracestate = headers!.get('tracestate')
  return { traceparent, ...(tracestate === null ? {} : { tracestate }) }
}
