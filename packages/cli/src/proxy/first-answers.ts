// What a stdio session's first requests and their answers were, read off its lines: the client's
// lines (`LineReader`, `parsed`), and for the answer cache (answer-cache.ts) the first request of each
// kept method watched for and its answer read from the proxy's output. Loaded before the proxy: nothing
// here may import the runtime.
import type { KeptAnswer, KeptAnswers } from './answer-cache'
import { canonicalJson, filesNow, KEPT_METHODS } from './answer-cache'

/** How many of the client's first lines are looked at for the requests whose answers are kept. */
const PEEKED_LINES = 64
/** The longest unfinished line held while looking: a first request is far shorter. */
const LONGEST_LINE = 1024 * 1024

/** Lines out of chunks, as stdio frames messages (one per line, `\r\n` too); blank lines skipped. */
export class LineReader {
  private partial: Buffer[] = []
  private length = 0

  push(chunk: Buffer): string[] {
    const lines: string[] = []
    let rest = chunk
    for (let end = rest.indexOf(0x0A); end !== -1; end = rest.indexOf(0x0A)) {
      const line = Buffer.concat([...this.partial, rest.subarray(0, end)]).toString('utf8').replace(/\r$/, '')
      this.partial = []
      this.length = 0
      rest = rest.subarray(end + 1)
      if (line.trim() !== '')
        lines.push(line)
    }
    if (rest.length > 0) {
      this.partial.push(rest)
      this.length += rest.length
    }
    return lines
  }

  /** The unfinished line is past `LONGEST_LINE`. */
  overlong(): boolean {
    return this.length > LONGEST_LINE
  }
}

/** A JSON-RPC message as read: what the early answers look at. */
export interface Message { jsonrpc?: unknown, id?: unknown, method?: unknown, params?: unknown, result?: unknown }

export const parsed = (line: string): Message | undefined => {
  try {
    const message = JSON.parse(line) as unknown
    return typeof message === 'object' && message !== null && !Array.isArray(message) ? message as Message : undefined
  }
  catch {
    return undefined
  }
}

// An integer past 2^53 is read as another number: its answer would name an id the client never sent.
export const isId = (id: unknown): id is string | number => typeof id === 'string' || Number.isSafeInteger(id)

/**
 * What this session's first answers were, as the proxy gave them: the first request of each kept
 * method is watched for (`request`, over the input from its start), and its answer read from the
 * output (`answer`); `keep` writes them once the start says they may be kept and they are in.
 */
export function firstAnswers() {
  const wanted = new Set(KEPT_METHODS)
  /** Requests whose answer is awaited: by the id's JSON, the method and canonical params. */
  const watched = new Map<string, { method: string, params: string }>()
  const made: KeptAnswer[] = []
  let lines = 0
  let files: readonly string[] | undefined
  let write: ((entry: KeptAnswers | undefined) => void) | undefined
  const flush = (): void => {
    // Kept with an initialize only: the answers are given from one on (a later-era session keeps none).
    if (write === undefined || files === undefined || watched.size > 0 || (wanted.size > 0 && lines < PEEKED_LINES) || !made.some(answer => answer.method === 'initialize'))
      return
    const now = filesNow(files)
    write(now && { files: now, answers: [...made].sort((a, b) => KEPT_METHODS.indexOf(a.method) - KEPT_METHODS.indexOf(b.method)) })
    write = undefined
  }
  return {
    peeking: () => wanted.size > 0 && lines < PEEKED_LINES,
    /** A line too long to be a first request: the rest is not looked at. */
    stop() {
      lines = PEEKED_LINES
      flush()
    },
    watching: () => watched.size > 0,
    request(message: Message | undefined) {
      lines++
      const method = message?.method
      if (typeof method === 'string' && wanted.has(method) && isId(message!.id) && !watched.has(JSON.stringify(message!.id))) {
        wanted.delete(method)
        watched.set(JSON.stringify(message!.id), { method, params: canonicalJson(message!.params ?? {}) })
      }
      flush()
    },
    /** The watched answer `line` is, if it is one: its id's JSON, method and result's text (an error is not kept). */
    answer(line: string): { id: string, method: string, result: string } | undefined {
      for (const [id, request] of watched) {
        if (!line.includes(`"id":${id}`))
          continue
        const message = parsed(line)
        if (message === undefined || message.method !== undefined || JSON.stringify(message.id) !== id)
          continue
        watched.delete(id)
        const result = message.result === undefined ? undefined : JSON.stringify(message.result)
        if (result !== undefined)
          made.push({ ...request, result })
        flush()
        return { id, method: request.method, result: result ?? '' }
      }
      return undefined
    },
    keep(given: readonly string[], writer: (entry: KeptAnswers | undefined) => void) {
      files = given
      write = writer
      flush()
    },
  }
}

/** What `firstAnswers` watches and keeps. */
export type FirstAnswers = ReturnType<typeof firstAnswers>
