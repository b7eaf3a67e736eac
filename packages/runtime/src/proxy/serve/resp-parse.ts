// Replies in RESP2, the protocol Redis and Valkey speak, read from bytes as they arrive: a reply is
// read whole or not yet. The store may be hostile or broken, so a reply that is no RESP, or bigger
// than the proxy ever asks for (a bulk string past `MAX_BULK`, an array past `MAX_ITEMS`, nesting past
// `MAX_DEPTH`, a line with no end), is an error that ends the connection rather than a wait or a crash.

/** A reply: a status or bulk string, an integer, null, an array, or the server's error. */
export type RespValue = string | number | null | RespValue[] | RespError

/** An error reply (`-ERR …`, `-NOSCRIPT …`): the command failed, the connection is fine. */
export class RespError extends Error {}

/** The largest bulk string the proxy's commands are answered with (a script's digest, a status): far below it. */
export const MAX_BULK = 64 * 1024
const MAX_ITEMS = 1024
const MAX_DEPTH = 4
/** A line (status, error, a length) longer than this is no reply of ours. */
const MAX_LINE = 4096

/** Where reading a reply stopped: the value and the byte after it, or not enough bytes yet. */
type Read = { value: RespValue, end: number } | undefined

/** The line at `at` (without its CRLF) and the byte after it; undefined while it has not all come. */
function lineAt(buffer: Buffer, at: number): { text: string, end: number } | undefined {
  const crlf = buffer.indexOf('\r\n', at, 'latin1')
  if (crlf === -1) {
    if (buffer.length - at > MAX_LINE)
      throw new Error('a reply line longer than any the proxy expects')
    return undefined
  }
  if (crlf - at > MAX_LINE)
    throw new Error('a reply line longer than any the proxy expects')
  return { text: buffer.toString('utf8', at, crlf), end: crlf + 2 }
}

/** A length or integer line: a whole number, else the reply is no RESP. */
function wholeNumber(text: string): number {
  if (!/^-?\d{1,15}$/.test(text))
    throw new Error(`a reply with ${JSON.stringify(text.slice(0, 40))} where a number belongs`)
  return Number(text)
}

/** The reply starting at `at`, or undefined while it is incomplete; throws where it is no RESP or too large. */
function readAt(buffer: Buffer, at: number, depth: number): Read {
  if (at >= buffer.length)
    return undefined
  const line = lineAt(buffer, at + 1)
  if (!line)
    return undefined
  switch (String.fromCharCode(buffer[at]!)) {
    case '+': return { value: line.text, end: line.end }
    case '-': return { value: new RespError(line.text), end: line.end }
    case ':': return { value: wholeNumber(line.text), end: line.end }
    case '$': {
      const length = wholeNumber(line.text)
      if (length === -1)
        return { value: null, end: line.end }
      if (length < 0 || length > MAX_BULK)
        throw new Error(`a bulk reply of ${length} bytes, more than the proxy ever asks for`)
      if (buffer.length < line.end + length + 2)
        return undefined
      if (buffer.toString('latin1', line.end + length, line.end + length + 2) !== '\r\n')
        throw new Error('a bulk reply longer than its length says')
      return { value: buffer.toString('utf8', line.end, line.end + length), end: line.end + length + 2 }
    }
    case '*': return arrayAt(buffer, line.end, wholeNumber(line.text), depth)
    default: throw new Error(`a reply that starts with byte ${buffer[at]}, which no RESP reply does`)
  }
}

/** An array's `count` items from `at`. */
function arrayAt(buffer: Buffer, at: number, count: number, depth: number): Read {
  if (count === -1)
    return { value: null, end: at }
  if (count < 0 || count > MAX_ITEMS || depth >= MAX_DEPTH)
    throw new Error(`an array reply of ${count} items${depth >= MAX_DEPTH ? ' nested too deep' : ''}, more than the proxy ever asks for`)
  const items: RespValue[] = []
  let end = at
  for (let item = 0; item < count; item++) {
    const read = readAt(buffer, end, depth + 1)
    if (!read)
      return undefined
    items.push(read.value)
    end = read.end
  }
  return { value: items, end }
}

/** The whole replies at the start of `buffer`, and the bytes left over (a reply still arriving). */
export function readReplies(buffer: Buffer): { replies: RespValue[], rest: Buffer } {
  const replies: RespValue[] = []
  let at = 0
  for (;;) {
    const read = readAt(buffer, at, 0)
    if (!read)
      return { replies, rest: buffer.subarray(at) }
    replies.push(read.value)
    at = read.end
  }
}

/** A command as RESP: an array of bulk strings. */
export function encodeCommand(args: readonly (string | number)[]): Buffer {
  const parts = args.map(arg => Buffer.from(String(arg), 'utf8'))
  return Buffer.concat([Buffer.from(`*${parts.length}\r\n`), ...parts.flatMap(part => [Buffer.from(`$${part.length}\r\n`), part, Buffer.from('\r\n')])])
}
