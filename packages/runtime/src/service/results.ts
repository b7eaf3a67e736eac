// A tool call's answer: the handler's value as a tool result (its output wrapped as the schema says),
// a tool error, or a JSON-RPC error an upstream gave, passed on as it came.
import type { PrecomputedTool } from '../artifact/format'

/** A `tools/call` result, as every SDK major shapes it. */
export interface CallToolResult {
  content: unknown[]
  isError?: boolean
  structuredContent?: Record<string, unknown>
  [key: string]: unknown
}

export function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] }
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content)
}

/**
 * A handler's value as a tool result: with an output schema, its JSON as text and as
 * `structuredContent` (wrapped as `{ result: … }` where the schema says so). An error result goes
 * without `structuredContent`: clients check it against the output schema, errors included.
 */
export function toResult(value: unknown, hasOutput: boolean, wrap: PrecomputedTool['outputWrap']): CallToolResult {
  if (isCallToolResult(value)) {
    if (value.isError !== true || value.structuredContent === undefined)
      return value
    const { structuredContent: _, ...error } = value
    return error
  }
  if (hasOutput)
    return { structuredContent: (wrap ? { [wrap]: value } : value) as Record<string, unknown>, content: [{ type: 'text', text: JSON.stringify(value) }] }
  if (value === undefined)
    return { content: [] }
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] }
}

/**
 * Marks an error a handler throws to be answered as the JSON-RPC error it carries (`code`,
 * `message`, `data`) instead of a tool error: a proxied tool's upstream answered with one.
 */
export const PROTOCOL_ERROR: unique symbol = Symbol.for('flatmcp.protocolError')

export function isProtocolError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[PROTOCOL_ERROR] === true
}
