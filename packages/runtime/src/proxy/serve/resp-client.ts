// A connection to Redis or Valkey for the few commands the callers' limits send (EVALSHA, EVAL,
// ZREM), over node:net: a client library would bring pools, clusters and reconnect policies the
// proxy does not use. Each command has a time limit: past it, or on a reply that is no RESP, every
// command waiting fails and the connection is dropped (its replies could no longer be matched to
// their commands); the next command connects again.
import type { RespValue } from './resp-parse'
import { connect } from 'node:net'
import { encodeCommand, readReplies, RespError } from './resp-parse'

export interface RespOptions {
  host: string
  port: number
  /** Sent as `AUTH [user] password` on each connection. */
  user?: string
  password?: string
  /** Sent as `SELECT db` on each connection. */
  db?: number
  /** How long a command (or the connection it needs) may take, in milliseconds. */
  timeoutMs: number
}

export interface RespClient {
  /** The reply, an error reply as a rejected `RespError`; a time out, a closed or a broken connection rejects with an `Error`. */
  command: (args: readonly (string | number)[]) => Promise<RespValue>
  close: () => void
}

interface Waiting { resolve: (value: RespValue) => void, reject: (error: Error) => void, timer: NodeJS.Timeout }

/** A client that connects when a command first needs it, and again after the connection is dropped. */
export function respClient(options: RespOptions): RespClient {
  let socket: ReturnType<typeof connect> | undefined
  let waiting: Waiting[] = []
  let pending: Buffer = Buffer.alloc(0)

  const drop = (why: Error): void => {
    socket?.destroy()
    socket = undefined
    pending = Buffer.alloc(0)
    const failed = waiting
    waiting = []
    for (const each of failed) {
      clearTimeout(each.timer)
      each.reject(why)
    }
  }

  const opened = (): ReturnType<typeof connect> => {
    const opening = connect({ host: options.host, port: options.port })
    opening.setNoDelay(true)
    opening.on('data', (chunk: Buffer) => {
      let read: ReturnType<typeof readReplies>
      try {
        read = readReplies(pending.length === 0 ? chunk : Buffer.concat([pending, chunk]))
      }
      catch (error) {
        drop(new Error(`the store's reply is not RESP: ${(error as Error).message}`))
        return
      }
      pending = read.rest
      for (const reply of read.replies) {
        if (socket !== opening)
          return
        const next = waiting.shift()
        if (!next) {
          drop(new Error('the store sent a reply no command asked for'))
          return
        }
        clearTimeout(next.timer)
        if (reply instanceof RespError)
          next.reject(reply)
        else next.resolve(reply)
      }
    })
    opening.on('error', error => opening === socket && drop(error))
    opening.on('close', () => opening === socket && drop(new Error('the store closed the connection')))
    return opening
  }

  /** Writes a command, its answer awaited in order; past the time limit the connection is dropped. */
  const push = (args: readonly (string | number)[], resolve: Waiting['resolve'], reject: Waiting['reject']): void => {
    const timer = setTimeout(() => drop(new Error(`the store did not answer within ${options.timeoutMs} ms`)), options.timeoutMs)
    waiting.push({ resolve, reject, timer })
    socket!.write(encodeCommand(args))
  }

  /** A connection, opened with its own commands first: a refused AUTH or SELECT drops it (it would serve the wrong database). */
  const ensure = (): void => {
    if (socket)
      return
    socket = opened()
    const setup = [...(options.password === undefined ? [] : [['AUTH', ...(options.user ? [options.user] : []), options.password]]), ...(options.db ? [['SELECT', options.db]] : [])]
    for (const args of setup) {
      push(args, () => {}, (error) => {
        if (error instanceof RespError)
          drop(new Error(`the store refused ${String(args[0])}: ${error.message}`))
      })
    }
  }

  return {
    command: args => new Promise((resolve, reject) => {
      ensure()
      push(args, resolve, reject)
    }),
    close: () => drop(new Error('closed')),
  }
}
