/** A JSON-RPC message, as any MCP SDK major types it (kept structural: no SDK is imported here). */
export type JsonRpcMessage = object

/** Results whose JSON text was made once, ahead of time (the tools/list answer). */
const serialized = new WeakMap<object, string>()

/** Serializes a result once; a `StdioTransport` then writes that text instead of serializing again. */
export function preserialize<T extends object>(result: T): T {
  serialized.set(result, JSON.stringify(result))
  return result
}

/** The line a message goes out as when its result was serialized ahead of time; undefined otherwise. */
export function framePreserialized(message: JsonRpcMessage): string | undefined {
  const result = 'result' in message && typeof message.result === 'object' && message.result !== null ? serialized.get(message.result) : undefined
  return result === undefined || !('id' in message) ? undefined : `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}\n`
}
