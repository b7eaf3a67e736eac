import type { Readable } from 'node:stream'
import type { JsonRpcMessage } from '../service/preserialized'
import { framePreserialized } from '../service/preserialized'
import { isObject } from '../util/object'
import { clip } from '../validate/messages'

export interface StdioTransportOptions {
  /**
   * The longest message read, in bytes (default 10 MiB, the SDK's own limit). A longer line is
   * skipped and answered with a JSON-RPC error; the session goes on.
   */
  maxMessageBytes?: number
}

/** The longest message read from a client by default: a longer line is refused. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024
/** How much of an oversized line is kept to find its id. */
const ID_PREFIX_BYTES = 4096
const NEWLINE = 0x0A

type RequestId = string | number

/** Where the transport writes its lines: a stream, or anything that takes a line and says when it is ready for more. */
export interface LineOutput {
  write: (line: string) => boolean
  once: (event: 'drain', listener: () => void) => unknown
}

/**
 * MCP over stdio: one JSON-RPC message per line, for either SDK major. A drop-in for the SDKs'
 * `StdioServerTransport`, with two differences: a result serialized ahead of time (the tools/list
 * answer of `createMcpServer`) is written as is, and a line that is too long, is not JSON or is not
 * a JSON-RPC message gets a JSON-RPC error answer (with its id where one can be read) instead of
 * closing or silencing the session.
 */
export class StdioTransport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JsonRpcMessage) => void

  private readonly maxMessageBytes: number
  /** The current line's chunks, and their length; past the limit only a prefix is kept. */
  private chunks: Buffer[] = []
  private length = 0
  private started = false

  // The global `process`, not `node:process`: the server entry loads this file in Workers too.
  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: LineOutput = process.stdout,
    options: StdioTransportOptions = {},
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  }

  async start(): Promise<void> {
    if (this.started)
      throw new Error('StdioTransport already started: Server.connect() starts it.')
    this.started = true
    this.input.on('data', this.onData)
    this.input.on('error', this.onInputError)
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData)
    this.input.off('error', this.onInputError)
    // Pause stdin only when no one else reads it, so the process can exit.
    if (this.input.listenerCount('data') === 0)
      this.input.pause()
    this.chunks = []
    this.length = 0
    this.onclose?.()
  }

  send(message: JsonRpcMessage): Promise<void> {
    return this.write(framePreserialized(message) ?? `${JSON.stringify(message)}\n`)
  }

  /** What every write the output holds back waits on: one drain listener for all (one each warns past 10). */
  private drained?: Promise<void>

  private write(line: string): Promise<void> {
    if (this.output.write(line))
      return Promise.resolve()
    this.drained ??= new Promise<void>(resolve => this.output.once('drain', () => {
      this.drained = undefined
      resolve()
    }))
    return this.drained
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error)
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    for (let end = rest.indexOf(NEWLINE); end !== -1; end = rest.indexOf(NEWLINE)) {
      this.append(rest.subarray(0, end))
      rest = rest.subarray(end + 1)
      this.endLine()
    }
    this.append(rest)
  }

  private append(part: Buffer): void {
    if (part.length === 0)
      return
    this.chunks.push(part)
    this.length += part.length
    if (this.length > this.maxMessageBytes) {
      // Past the limit the message is skipped: keep a copied prefix to find its id in, free the rest.
      const kept = Buffer.concat(this.chunks)
      this.chunks = [kept.length > ID_PREFIX_BYTES ? Buffer.from(kept.subarray(0, ID_PREFIX_BYTES)) : kept]
    }
  }

  private endLine(): void {
    const bytes = Buffer.concat(this.chunks)
    const length = this.length
    this.chunks = []
    this.length = 0
    const text = bytes.toString('utf8').replace(/\r$/, '')
    if (length > this.maxMessageBytes) {
      this.reject(readId(text), -32600, `Message too large: ${length} bytes; this server reads at most ${this.maxMessageBytes} bytes per message.`)
      return
    }
    if (text.trim() === '')
      return
    let message: unknown
    try {
      message = JSON.parse(text)
    }
    catch {
      this.reject(readId(text), -32700, `Parse error: the line is not JSON: ${clip(text, 80)}`)
      return
    }
    const problem = messageProblem(message)
    if (problem !== undefined) {
      if (isResponse(message))
        this.onerror?.(new Error(`Invalid response: ${problem}`))
      else
        this.reject(isObject(message) && isId(message.id) ? message.id : null, -32600, `Invalid Request: ${problem}`)
      return
    }
    this.onmessage?.(message as JsonRpcMessage)
  }

  private reject(id: RequestId | null, code: number, message: string): void {
    this.onerror?.(new Error(message))
    void this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`)
  }
}


const isId = (value: unknown): value is RequestId => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))

/** Why a parsed line is not a JSON-RPC 2.0 request, notification or response; undefined when it is one. */
function messageProblem(message: unknown): string | undefined {
  if (!isObject(message))
    return 'a message is a JSON object.'
  if (message.jsonrpc !== '2.0')
    return '"jsonrpc" must be "2.0".'
  if ('method' in message) {
    if (typeof message.method !== 'string')
      return '"method" must be a string.'
    if ('id' in message && !isId(message.id))
      return '"id" must be a string or an integer.'
    if ('params' in message && !isObject(message.params))
      return '"params" must be an object.'
    // Read as a response too, it would never be answered.
    if ('result' in message || 'error' in message)
      return 'a request or notification carries no "result" or "error".'
    return undefined
  }
  if (isObject(message.error) || (isObject(message.result) && isId(message.id)))
    return undefined
  return 'expected "method" (a request or notification) or "result"/"error" with an "id" (a response).'
}

/** A message that is (or means to be) a response: never answered, so two peers cannot trade errors. */
const isResponse = (message: unknown): boolean => isObject(message) && !('method' in message) && ('result' in message || 'error' in message)

/**
 * The id of a message that could not be read whole: the top-level `"id"` in the text's start, found by
 * a scan that skips strings and nested values; null when there is none to be sure of.
 */
export function readId(text: string): RequestId | null {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '"') {
      const end = stringEnd(text, i)
      if (end === -1)
        return null
      if (depth === 1 && text.slice(i, end + 1) === '"id"') {
        // A number is only known whole when something follows it; a closed string always is.
        const value = /^\s*:\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+)(?=\s*[,}]))/.exec(text.slice(end + 1, end + 200))
        if (value !== null)
          return JSON.parse(value[1] ?? value[2]!) as RequestId
      }
      i = end
    }
    else if (char === '{' || char === '[') {
      depth++
    }
    else if (char === '}' || char === ']') {
      depth--
    }
  }
  return null
}

/** The index of the quote that closes the string opened at `start`; -1 when the text ends first. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\')
      i++
    else if (text[i] === '"')
      return i
  }
  return -1
}
