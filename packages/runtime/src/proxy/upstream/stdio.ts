// The stdio transport over an upstream command (newline-delimited JSON-RPC), with nothing of the MCP
// SDK: loading the SDK takes a few hundred milliseconds, and the command can start in that time
// instead of after it (the command's process: `command-process.ts`).
import type { CommandTarget, StartedCommand } from './command-process'
import type { UpstreamTransport } from './upstream'
import { nestsDeeper } from '../../util/object'
import { endCommand, running, signalCommand, startCommand } from './command-process'
import { ProxySetupError } from './setup-error'
import { MAX_ANSWER_BYTES, MAX_ANSWER_NESTING } from './upstream'

/** A JSON-RPC message, as the transport reads and writes it. */
type Message = Record<string, unknown>

/** The longest line read from the command (a result that size is read whole, not cut). */
const MAX_LINE_BYTES = MAX_ANSWER_BYTES
const NEWLINE = 0x0A
/**
 * What is not JSON-RPC a command may write on stdout in a second (its own log lines, said and
 * skipped): past it, the command floods its output, and is ended (reading it would take the
 * proxy's whole time from everything else it serves).
 */
const NOISE_BYTES_PER_SECOND = 1024 * 1024

/**
 * Notifications read from a command in a second: past it, its output is read no further until the
 * second is out (it waits, nothing is lost), so one that floods them costs the proxy and the others
 * little.
 */
export const NOTIFICATIONS_PER_SECOND = 1000

/** The MCP SDK's transport shape, over a started command's stdin and stdout. */
export class CommandTransport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: Message) => void

  /** Why the command was ended by the proxy, where it was (it flooded its output). */
  why?: string

  private chunks: Buffer[] = []
  private length = 0
  private closed = false
  private noise = { since: 0, bytes: 0 }
  private notices = { since: 0, count: 0 }
  private resume?: ReturnType<typeof setTimeout>

  constructor(private readonly started: StartedCommand) {}

  async start(): Promise<void> {
    const { child } = this.started
    child.stdout!.on('data', (chunk: Buffer) => this.read(chunk))
    child.stdout!.on('error', error => this.onerror?.(error))
    child.stdin!.on('error', error => this.onerror?.(error))
    child.once('close', () => this.ended())
    if (child.exitCode !== null || child.signalCode !== null)
      this.ended()
    await this.started.spawned
  }

  send(message: Message): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.started.child.stdin!
      if (!stdin.writable)
        return reject(new Error(`the upstream ${this.started.where} no longer reads its input`))
      if (stdin.write(`${JSON.stringify(message)}\n`))
        resolve()
      else
        stdin.once('drain', () => resolve())
    })
  }

  /**
   * Ends the command and what it started: its input closed, then SIGTERM to its process group after
   * 1 s, then SIGKILL after 1 s more (within the 2 s a client gives the proxy before its own SIGTERM).
   */
  async close(): Promise<void> {
    const { child } = this.started
    if (running(child)) {
      const exited = new Promise<void>(resolve => child.once('exit', () => resolve()))
      const within = (ms: number): Promise<unknown> => Promise.race([exited, new Promise(resolve => setTimeout(resolve, ms).unref())])
      child.stdin?.end()
      await within(1000)
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        if (running(child)) {
          signalCommand(child, signal)
          await within(1000)
        }
      }
    }
    // A server that left children behind in its group when it exited: they end with it.
    endCommand(child)
    this.ended()
  }

  private ended(): void {
    if (this.closed)
      return
    this.closed = true
    clearTimeout(this.resume)
    this.chunks = []
    this.onclose?.()
  }

  /** Lines of JSON-RPC: each one parsed and handed on; one that is not a message is said, and skipped. */
  private read(chunk: Buffer): void {
    let start = 0
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      this.length += end - start
      if (this.length <= MAX_LINE_BYTES)
        this.chunks.push(chunk.subarray(start, end))
      const line = this.length <= MAX_LINE_BYTES ? Buffer.concat(this.chunks).toString('utf8') : undefined
      this.chunks = []
      this.length = 0
      start = end + 1
      if (line === undefined)
        this.onerror?.(new Error(`the upstream ${this.started.where} wrote a line over ${MAX_LINE_BYTES} bytes; it was skipped`))
      else if (line.trim() !== '' && !this.hand(line))
        this.noisy(line.length)
      if (this.why !== undefined)
        return
    }
    // The rest waits for its line's end; past the bound only its length is kept.
    if (start < chunk.length) {
      this.length += chunk.length - start
      if (this.length <= MAX_LINE_BYTES)
        this.chunks.push(chunk.subarray(start))
      else
        this.chunks = []
    }
  }

  /** A line handed on as a message; false where it is none (said, and skipped). */
  private hand(line: string): boolean {
    let message: unknown
    try {
      message = JSON.parse(line)
    }
    catch {
      // A server's own log line on stdout is not a message: said, and the session goes on.
      this.onerror?.(new Error(`the upstream ${this.started.where} wrote a line that is not JSON on stdout`))
      return false
    }
    const shaped = typeof message === 'object' && message !== null && !Array.isArray(message) && (message as Message).jsonrpc === '2.0'
    if (shaped && nestsDeeper(message, MAX_ANSWER_NESTING)) {
      // Checked before anything reads it: reading (and writing) it again recurses level by level.
      const why = `the upstream ${this.started.where} wrote JSON nested deeper than ${MAX_ANSWER_NESTING} levels; it was refused`
      const { id, method } = message as { id?: unknown, method?: unknown }
      if (id === undefined || id === null || method !== undefined)
        this.onerror?.(new Error(why))
      else
        this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32603, message: why } } as never)
    }
    else if (shaped) {
      this.onmessage?.(message as Message)
      if ((message as Message).id === undefined)
        this.paced()
    }
    else
      this.onerror?.(new Error(`the upstream ${this.started.where} wrote JSON that is not a JSON-RPC message`))
    return shaped
  }

  /** Notifications counted per second: past the bound, the command's output waits for the next second. */
  private paced(): void {
    const now = Date.now()
    if (now - this.notices.since >= 1000)
      this.notices = { since: now, count: 0 }
    if (++this.notices.count < NOTIFICATIONS_PER_SECOND || this.resume !== undefined || this.closed)
      return
    const stdout = this.started.child.stdout!
    stdout.pause()
    this.resume = setTimeout(() => {
      this.resume = undefined
      stdout.resume()
    }, 1000 - (now - this.notices.since))
    this.resume.unref()
  }

  /** Lines that were no message, counted per second: past the bound, the command is ended as one that floods. */
  private noisy(bytes: number): void {
    const now = Date.now()
    if (now - this.noise.since >= 1000)
      this.noise = { since: now, bytes: 0 }
    this.noise.bytes += bytes
    if (this.noise.bytes <= NOISE_BYTES_PER_SECOND || this.why !== undefined)
      return
    this.why = `flooded its output (over ${NOISE_BYTES_PER_SECOND / 1024 / 1024} MiB a second of lines that are no message)`
    this.started.child.stdout!.destroy()
    signalCommand(this.started.child, 'SIGKILL')
  }
}

/**
 * The transport of an upstream command: started at once (unless it was started already), its
 * handshake waiting for what the client offers; a command that ends first fails it.
 */
export function stdioTransport(target: CommandTarget, given?: StartedCommand): UpstreamTransport {
  let started = given ?? startCommand(target)
  return {
    where: started.where,
    ready: async (offer) => {
      await started.spawned
      return Promise.race([offer, started.exited.then((how) => {
        throw new ProxySetupError(`it ended (${how}) before its handshake`)
      })])
    },
    open: () => new CommandTransport(started),
    restart: async () => {
      signalCommand(started.child, 'SIGTERM')
      started = startCommand(target)
      await started.spawned
    },
    endsOnClose: true,
    lostSession: () => false,
    explain: () => '',
  }
}
