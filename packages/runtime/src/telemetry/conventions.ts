// The names telemetry is exported under, as the OpenTelemetry semantic conventions for MCP give them
// (open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md), and flatmcp's own beside them: one
// table the code, docs/proxy.md and the tests all read. A caller's failure is named one way in spans
// and metrics alike (`errorType`).

/** Each attribute: its key, and where it is set (`server` and `client` spans, `metrics`). */
export const ATTRIBUTES = {
  method: { key: 'mcp.method.name', on: 'server, client, metrics', says: 'the request\'s method (a method no MCP version has is `_OTHER` in metrics)' },
  tool: { key: 'gen_ai.tool.name', on: 'server, client, metrics', says: 'the tool called (`_OTHER` in metrics for a name no tool has)' },
  operation: { key: 'gen_ai.operation.name', on: 'server, client, metrics', says: '`execute_tool` on a tools/call, absent otherwise' },
  requestId: { key: 'jsonrpc.request.id', on: 'server', says: 'the request\'s JSON-RPC id, as a string' },
  transport: { key: 'network.transport', on: 'server, client, metrics', says: '`pipe` over stdio, `tcp` over HTTP' },
  session: { key: 'mcp.session.id', on: 'server', says: 'the MCP session, where there is one' },
  protocolVersion: { key: 'mcp.protocol.version', on: 'server, metrics', says: 'the MCP version the request was made in, where known (a version no MCP revision has is `_OTHER` in metrics)' },
  statusCode: { key: 'rpc.response.status_code', on: 'server, client, metrics', says: 'the JSON-RPC error code answered, as a string (one in the reserved range, -32768 to -32000)' },
  errorType: { key: 'error.type', on: 'server, client, metrics', says: 'the JSON-RPC error code as a string (outside the reserved range `_OTHER`), `tool_error` for a result with `isError`, else the exception\'s type or `_OTHER`' },
  upstream: { key: 'flatmcp.upstream', on: 'server, client, metrics', says: 'the server the request went to (a gateway\'s entry)' },
  profile: { key: 'flatmcp.profile', on: 'server', says: 'the profile the call was read in (a view\'s own, where it came through one)' },
  view: { key: 'flatmcp.view', on: 'server', says: 'the view the call came through, where one applies (one the request named, or the one its caller is pinned to)' },
  repair: { key: 'flatmcp.repair', on: 'server', says: 'the JSON Pointers, in the tool\'s own arguments, the repair and the inverse map changed (never a value)' },
  outcome: { key: 'flatmcp.outcome', on: 'metrics', says: '`ok`, `tool-error` or `error` (flatmcp.tool.calls only)' },
} as const

/**
 * The duration histograms' bucket boundaries in seconds, as the conventions advise them
 * (`ExplicitBucketBoundaries`): a call of 30 ms and one of 3 s land in different buckets.
 */
export const DURATION_BOUNDARIES = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] as const

/** Each metric: its name, instrument, unit and what it measures. */
export const METRICS = {
  serverDuration: { name: 'mcp.server.operation.duration', instrument: 'histogram', unit: 's', description: 'How long a request took, from its arrival to its answer.' },
  clientDuration: { name: 'mcp.client.operation.duration', instrument: 'histogram', unit: 's', description: 'How long a tools/call sent upstream took, until its answer came back.' },
  calls: { name: 'flatmcp.tool.calls', instrument: 'counter', unit: '{call}', description: 'Tool calls by tool, upstream and outcome.' },
  repairs: { name: 'flatmcp.tool.repairs', instrument: 'counter', unit: '{call}', description: 'Tool calls whose arguments the repair or the inverse map changed.' },
} as const

/** `gen_ai.operation.name` on a tools/call. */
export const EXECUTE_TOOL = 'execute_tool'
/** `error.type` of a tool result with `isError`. */
export const TOOL_ERROR = 'tool_error'
/** The conventions' fallback value, for an error with no better name and a method or tool no one has. */
export const OTHER = '_OTHER'

/** The methods a metric names as they are: MCP's own (the conventions' list) and the progressive disclosure's. */
export const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'completion/complete', 'elicitation/create', 'initialize', 'logging/setLevel', 'ping', 'prompts/get', 'prompts/list',
  'resources/list', 'resources/read', 'resources/subscribe', 'resources/templates/list', 'resources/unsubscribe',
  'roots/list', 'sampling/createMessage', 'tools/call', 'tools/list', 'server/discover',
  'tools/catalog', 'tools/manifest', 'tools/describe',
])

/**
 * The MCP revisions a metric names as they are: any other version a caller sends (a header, an
 * envelope: its own text) is `_OTHER`, so made-up versions open no series of their own.
 */
export const KNOWN_VERSIONS: ReadonlySet<string> = new Set(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'])

/** How a request failed, as `error.type` and `rpc.response.status_code` say it. */
export interface Failure {
  type: string
  code?: string
}

/** JSON-RPC's reserved codes (its own errors and the server errors MCP uses): the codes named as they are. */
const RESERVED_CODES = { lowest: -32768, highest: -32000 }

/**
 * An error thrown for a request, named as the conventions say: its JSON-RPC code as a string where it
 * has one in the reserved range (also `rpc.response.status_code`), else the exception's type where it
 * has its own, else `_OTHER`.
 */
export function errorType(error: unknown): Failure {
  // Never the message: an upstream's may quote what the caller sent.
  const { code, name } = (error ?? {}) as { code?: unknown, name?: unknown }
  // Another code is the upstream's to make up: named, each would be a metric series kept for good.
  if (Number.isSafeInteger(code))
    return (code as number) >= RESERVED_CODES.lowest && (code as number) <= RESERVED_CODES.highest ? { type: String(code), code: String(code) } : { type: OTHER }
  return { type: typeof name === 'string' && /^\w{1,64}$/.test(name) && name !== 'Error' ? name : OTHER }
}
