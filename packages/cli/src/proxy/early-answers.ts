// A proxy's first answers before the proxy has loaded: where the answer cache (answer-cache.ts) holds
// this command line's answers to a client's `initialize` and first `tools/list`, they are given from
// it as the client asks, and the MCP SDK, zod and the runtime (about 250 ms of one core) load after.
// The proxy then reads everything the client sent from the start: what was answered early is
// answered again, compared and not sent (a list that differs is told as changed); the answers it gives a
// start served from its snapshot are kept for the next. Loaded before the command line is read:
// nothing here may import the runtime.
import type { Readable } from 'node:stream'
import type { LineOutput, OperatorLog } from '@flatmcp/runtime/proxy'
import type { KeptAnswers } from './answer-cache'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import type { FirstAnswers, Message } from './first-answers'
import { answersKey, buildOf, canonicalJson, keepAnswers, readAnswers } from './answer-cache'
import { oneLine, touchEntry, turnedOff } from './cache-entries'
import { firstAnswers, isId, LineReader, parsed } from './first-answers'
import { flatmcpCacheFolder, privateFolder } from '../compile-cache'

/** How long the proxy's load waits for the client's first requests when their answers are kept. */
export const EARLY_WAIT_MS = 300
/** A proxy's stdio while its first answers may come from the cache. */
export interface EarlyStdio {
  /** Settles when the proxy may load: the kept answers given, a request they cannot answer, the input's end, or `EARLY_WAIT_MS` after `begin`. */
  settled: Promise<void>
  /** The command line is read and checked: answer (`true`), or leave every answer to the proxy (a start that will stop). */
  begin: (answer: boolean) => void
  /** What the proxy's transport reads (everything the client sent, from the start) and writes through (stdout, less the answers given early); `cached`: this start's answers may be kept (said at debug where none came from the cache). */
  stdio: (log: OperatorLog, cached: boolean) => { input: Readable, output: LineOutput }
  /** The start served its snapshot ahead of the upstream, and its files held: this session's first answers are kept, as made from `files`. */
  keep: (files: readonly string[]) => void
}

let started: EarlyStdio | undefined

/** The early stdio `startEarlyAnswers` began for this process, if any. */
export function earlyAnswers(): EarlyStdio | undefined {
  return started
}

/**
 * Begins a `flatmcp proxy` run's early stdio (before its command line is read): with answers kept
 * for it, the client's first requests are answered at once. Off with FLATMCP_DISABLE_ANSWER_CACHE,
 * where the cache folder is not private, or where the build cannot be told.
 */
export function startEarlyAnswers(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  if (turnedOff(env.FLATMCP_DISABLE_ANSWER_CACHE))
    return
  try {
    const build = buildOf()
    if (build === undefined)
      return
    // Made only when answers are kept: a start that keeps none leaves no folder.
    const place = path.join(flatmcpCacheFolder(env, process.platform, homedir()), 'answers')
    const found = existsSync(place) ? privateFolder(place) : undefined
    const key = answersKey(build, process.cwd(), argv, env)
    started = earlyStdio({ place, key, kept: found === undefined ? undefined : readAnswers(found, key) })
  }
  catch {
    started = undefined
  }
}

const LIST_CHANGED = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n'

function earlyStdio({ place, key, kept }: { place: string, key: string, kept: KeptAnswers | undefined }): EarlyStdio {
  const read: Buffer[] = []
  let ended = false
  let settle!: () => void
  const settled = new Promise<void>((resolve) => {
    settle = resolve
  })
  /** The requests answered early (by their id's JSON): the method, and the result each was given. */
  const given = new Map<string, { method: string, result: string }>()
  /** Why nothing was answered early, for the debug line. */
  let missed = `none kept for this command line in ${place}, or a file they came from changed`
  let log: OperatorLog = () => {}
  const reader = kept === undefined ? undefined : answerFromCache(kept, { read, given, settle: () => settle(), ended: () => (ended = true), missed: (why) => { missed = why } })
  const capture = firstAnswers()
  return {
    settled,
    begin(answer) {
      if (reader !== undefined && answer)
        reader.begin()
      else
        settle()
    },
    stdio(operatorLog, cached) {
      log = operatorLog
      if (given.size > 0 || cached)
        log(given.size > 0 ? `flatmcp proxy: ${[...given.values()].map(answer => answer.method).join(' and ')} answered from the answer cache before the proxy loaded` : oneLine(`flatmcp proxy: nothing answered from the answer cache: ${missed}`), 'debug')
      const input = inputFromStart(read, ended, capture)
      const output = outputLessGiven(given, capture, log)
      return { input, output }
    },
    keep(files) {
      capture.keep(files, (made) => {
        if (made !== undefined && keepOrTouch(place, key, kept, made))
          log(oneLine(`flatmcp proxy: this start's first answers kept in ${place} for the next`), 'debug')
      })
    },
  }
}

/** What the proxy's transport reads: what was read before it, then stdin, each line looked at for the first requests. */
function inputFromStart(read: Buffer[], ended: boolean, capture: FirstAnswers): PassThrough {
  const stdin = process.stdin
  const input = new PassThrough()
  const lines = new LineReader()
  const peek = (chunk: Buffer): void => {
    if (!capture.peeking())
      return
    for (const line of lines.push(chunk))
      capture.request(parsed(line))
    if (lines.overlong())
      capture.stop()
  }
  for (const chunk of read) {
    peek(chunk)
    input.write(chunk)
  }
  read.length = 0
  if (ended || stdin.readableEnded)
    return input.end()
  stdin.on('data', (chunk: Buffer) => {
    peek(chunk)
    if (!input.write(chunk)) {
      stdin.pause()
      input.once('drain', () => stdin.resume())
    }
  })
  stdin.once('end', () => input.end())
  stdin.on('error', error => input.destroy(error))
  stdin.resume()
  return input
}

/** Where the proxy's transport writes: stdout, less its answers to what was given early (one that differs told as a change of the list). */
function outputLessGiven(given: Map<string, { method: string, result: string }>, capture: FirstAnswers, log: OperatorLog): LineOutput {
  return {
    write: (line) => {
      const answered = capture.watching() ? capture.answer(line) : undefined
      if (answered === undefined || !given.has(answered.id))
        return process.stdout.write(line)
      const early = given.get(answered.id)!
      given.delete(answered.id)
      if (answered.result !== early.result) {
        log(`flatmcp proxy: this start's answer to ${answered.method} differs from the one kept from an earlier start and given ahead${answered.method === 'tools/list' ? '; the client is told its tool list changed' : ''}`, 'info')
        if (answered.method === 'tools/list')
          return process.stdout.write(LIST_CHANGED)
      }
      return true
    },
    once: (event, listener) => process.stdout.once(event, listener),
  }
}

/** Writes an entry whose answers changed (true); an unchanged one is only marked used (the oldest unused go first). */
function keepOrTouch(place: string, key: string, kept: KeptAnswers | undefined, made: KeptAnswers): boolean {
  const folder = privateFolder(place)
  if (folder === undefined)
    return false
  if (kept !== undefined && canonicalJson(kept) === canonicalJson(made)) {
    touchEntry(folder, key)
    return false
  }
  return keepAnswers(folder, key, made)
}

/** A request as the proxy would take it: JSON-RPC 2.0, an id, params an object if any, no answer's fields. */
const isRequest = (message: Message | undefined): message is Message & { method: string, id: string | number } =>
  message !== undefined && message.jsonrpc === '2.0' && typeof message.method === 'string' && isId(message.id)
  && (message.params === undefined || (typeof message.params === 'object' && message.params !== null && !Array.isArray(message.params)))
  && !('result' in message) && !('error' in message)

/**
 * Once begun, reads stdin and answers from the kept answers while it can:
 * `initialize` first, then the rest in any order, each once and only for the same params, with one
 * `notifications/initialized` among them. Anything else (a request they do not hold, another
 * notification, a line that is not such a request) ends it, unread past that line.
 */
function answerFromCache(kept: KeptAnswers, state: { read: Buffer[], given: Map<string, { method: string, result: string }>, settle: () => void, ended: () => void, missed: (why: string) => void }): { begin: () => void } {
  const stdin = process.stdin
  const left = new Map(kept.answers.map(answer => [answer.method, answer]))
  const lines = new LineReader()
  let initialized = false
  let told = false
  let timer: ReturnType<typeof setTimeout> | undefined
  // Its end stays heard: a paused pipe still reads to its end, and says so once, unheard otherwise.
  const done = (): void => {
    stdin.off('data', onData)
    stdin.off('error', done)
    stdin.pause()
    clearTimeout(timer)
    state.settle()
  }
  const answer = (message: Message | undefined): boolean => {
    if (message?.method === 'notifications/initialized' && message.jsonrpc === '2.0' && !('id' in message) && initialized && !told)
      return (told = true)
    if (!initialized)
      state.missed(message?.method === 'initialize' ? 'the client\'s initialize is not the one whose answer was kept (another client, or another version of it)' : 'the client\'s first message was not initialize')
    const kept = isRequest(message) ? left.get(message.method) : undefined
    if (kept === undefined || (kept.method !== 'initialize') !== initialized || canonicalJson(message!.params ?? {}) !== kept.params)
      return false
    const id = JSON.stringify(message!.id)
    // An id the client used twice is the proxy's to answer: one answer per id stays the rule.
    if (state.given.has(id))
      return false
    process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":${kept.result}}\n`)
    state.given.set(id, { method: kept.method, result: kept.result })
    left.delete(kept.method)
    initialized = true
    return true
  }
  const take = (chunk: Buffer): boolean => {
    for (const line of lines.push(chunk)) {
      if (!answer(parsed(line)))
        return false
    }
    return left.size > 0 && !lines.overlong()
  }
  const onData = (chunk: Buffer): void => {
    state.read.push(chunk)
    if (!take(chunk))
      done()
  }
  return {
    // Stdin is read from here on, never before: a start that does not begin (over HTTP, a gateway) reads none of it.
    begin() {
      state.missed(`no whole message came within ${EARLY_WAIT_MS} ms`)
      stdin.on('data', onData)
      stdin.once('end', () => {
        state.ended()
        state.missed(state.given.size === 0 ? 'the client\'s input ended before a whole message' : '')
        done()
      })
      stdin.once('error', done)
      timer = setTimeout(done, EARLY_WAIT_MS)
      timer.unref()
    },
  }
}
