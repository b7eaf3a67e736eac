// JSON-RPC over HTTP as the fetch handler reads and answers it: a body read within its bound, its
// messages read exactly as MCP spells them (what goes upstream is what was read, written anew), and
// an answer of its own.
import { isObject } from '../../util/object'

/** A JSON-RPC request as a client sent it, read field by field where it is used. */
export interface JsonRpcRequest { jsonrpc?: unknown, id?: unknown, method?: unknown, params?: Record<string, unknown> }

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

/** A JSON-RPC error as an HTTP answer. */
export function rpcError(id: unknown, code: number, message: string, status = 200): Response {
  return jsonResponse({ jsonrpc: '2.0', id: id ?? null, error: { code, message } }, status)
}

/** A request body as text, or undefined when it is longer than `max` bytes (read no further). */
export async function boundedText(request: Request, max: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > max)
    return undefined
  if (!request.body)
    return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done)
      break
    size += value.byteLength
    if (size > max) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}

/** A body over `max` bytes is answered 413. */
export const tooLarge = (max: number): Response => rpcError(null, -32600, `The request body is over ${max} bytes.`, 413)

/**
 * A POST's body read within `max` bytes (past it, the 413 answer) and parsed: `parsed` is missing
 * where it is not JSON, for the handler to say so as it always does.
 */
export async function parsedText(request: Request, max: number): Promise<Response | { text: string, parsed?: unknown }> {
  const text = await boundedText(request, max)
  if (text === undefined)
    return tooLarge(max)
  try {
    return { text, parsed: JSON.parse(text) as unknown }
  }
  catch {
    return { text }
  }
}

/** A JSON-RPC message's own keys, as MCP spells them. */
const ENVELOPE = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error'])

/** The keys of a request's params the proxy reads: a key spelled otherwise (`Name`) is refused, as a parser that folds case would read it. */
const READ_PARAMS = new Set(['name', 'arguments', '_meta', 'cursor', 'uri'])

/** A POST's messages as read and written anew (`text`, what goes upstream), or the JSON-RPC error that refuses the body. */
export type ReadBody = { batch: boolean, messages: JsonRpcRequest[], text: string } | { error: { code: -32700 | -32600, message: string } }

/** A key spelled otherwise than MCP spells one of `known` (a parser that matches keys without case would read it as that key). */
function misspelled(object: Record<string, unknown>, known: ReadonlySet<string>): string | undefined {
  const key = Object.keys(object).find(key => !known.has(key) && known.has(key.toLowerCase()))
  return key === undefined ? undefined : `${JSON.stringify(key)} is not a key MCP reads (it spells it "${key.toLowerCase()}")`
}

/** What makes one member of a body no JSON-RPC message this proxy reads; undefined where it is one. */
function messageProblem(member: unknown): string | undefined {
  if (!isObject(member))
    return 'not a JSON-RPC message (an object)'
  if (member.jsonrpc !== '2.0')
    return '"jsonrpc" must be "2.0"'
  const envelope = misspelled(member, ENVELOPE)
  if (envelope !== undefined)
    return envelope
  if ('method' in member) {
    if (typeof member.method !== 'string')
      return '"method" must be a string'
    if (member.params === undefined)
      return undefined
    return isObject(member.params) ? misspelled(member.params, READ_PARAMS) : '"params" must be an object'
  }
  return 'id' in member && ('result' in member) !== ('error' in member) ? undefined : 'neither a request, a notification nor a response'
}

/** One message with only the keys JSON-RPC has: what goes upstream is what was read. */
function canonical(message: Record<string, unknown>): JsonRpcRequest {
  const picked: Record<string, unknown> = {}
  for (const key of ENVELOPE) {
    if (message[key] !== undefined)
      picked[key] = message[key]
  }
  return picked as JsonRpcRequest
}

/**
 * A body's JSON-RPC messages, read: a body that is not JSON is a parse error (-32700, as a body
 * another parser reads otherwise, with a `NaN` in it); a message that is not an object, or spells a
 * key MCP reads otherwise (`"Method"`, `"Params": {"Name": …}`), or nests too deeply to be written
 * anew, an invalid request (-32600), for the whole batch.
 */
export function readMessages(text: string): ReadBody {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  }
  catch {
    return { error: { code: -32700, message: 'Parse error: the body is not JSON.' } }
  }
  const batch = Array.isArray(parsed)
  const members: unknown[] = batch ? parsed as unknown[] : [parsed]
  if (members.length === 0)
    return { error: { code: -32600, message: 'Invalid Request: an empty batch.' } }
  for (const [index, member] of members.entries()) {
    const problem = messageProblem(member)
    if (problem !== undefined)
      return { error: { code: -32600, message: `Invalid Request: ${batch ? `member ${index} of the batch is ` : ''}${problem}.` } }
  }
  const messages = members.map(member => canonical(member as Record<string, unknown>))
  try {
    return { batch, messages, text: JSON.stringify(batch ? messages : messages[0]) }
  }
  catch {
    // JSON.parse reads nesting JSON.stringify cannot write (a million arrays deep fits in 4 MiB).
    return { error: { code: -32600, message: 'Invalid Request: the body is nested too deeply to be sent on.' } }
  }
}
