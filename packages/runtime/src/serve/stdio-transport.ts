import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { Readable, Writable } from 'node:stream'
import process from 'node:process'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'

/** Results whose JSON text was made once, ahead of time (the tools/list answer). */
const serialized = new WeakMap<object, string>()

/** Serializes a result once; a `StdioTransport` then writes that text instead of serializing again. */
export function preserialize<T extends object>(result: T): T {
  serialized.set(result, JSON.stringify(result))
  return result
}

/** The line a message goes out as when its result was serialized ahead of time; undefined otherwise. */
export function framePreserialized(message: JSONRPCMessage): string | undefined {
  const result = 'result' in message && typeof message.result === 'object' && message.result !== null ? serialized.get(message.result) : undefined
  return result === undefined || !('id' in message) ? undefined : `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}\n`
}

/**
 * The SDK's stdio server transport, with one difference: a result serialized ahead of time (the
 * tools/list answer of `createMcpServer`) is written as is, not serialized on every request.
 */
export class StdioTransport extends StdioServerTransport {
  constructor(input: Readable = process.stdin, private readonly output: Writable = process.stdout) {
    super(input, output)
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const line = framePreserialized(message)
    if (line === undefined)
      return super.send(message)
    return new Promise((resolve) => {
      if (this.output.write(line))
        resolve()
      else
        this.output.once('drain', resolve)
    })
  }
}
