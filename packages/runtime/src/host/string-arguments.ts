// Some clients send a tool's whole arguments object as a JSON string. An SDK would reject such a
// request before any handler runs, so the server's transport parses it as the message arrives (when
// it holds an object; anything else is left for the SDK to reject). For either SDK major.
import { coerceArgs } from '../coerce/coerce-args'
import { isObject } from '../util/object'

interface Connectable<T extends { onmessage?: ((message: never, extra?: never) => void) | undefined }> {
  connect: (transport: T) => Promise<void>
}

/** Wraps `server.connect` so each transport it connects hands tools/call messages on repaired. */
export function repairStringArguments<T extends { onmessage?: ((message: never, extra?: never) => void) | undefined }>(server: Connectable<T>): void {
  const connect = server.connect.bind(server)
  server.connect = async (transport) => {
    await connect(transport)
    const handle = transport.onmessage
    transport.onmessage = ((message: never, extra?: never) => handle?.(repairToolCall(message), extra)) as T['onmessage']
  }
}

/** A tools/call message whose arguments are a JSON string holding an object, with them parsed; else as it was. */
function repairToolCall<M>(message: M): M {
  const params = (message as { method?: unknown, params?: { arguments?: unknown } }).method === 'tools/call' ? (message as { params?: { arguments?: unknown } }).params : undefined
  if (!params || typeof params.arguments !== 'string')
    return message
  const parsed = coerceArgs(params.arguments, {})
  return isObject(parsed) ? { ...message, params: { ...params, arguments: parsed } } : message
}
