import { escapeControl } from './control-chars'

/**
 * One line for the operator (its control characters escaped, as it may quote an upstream): on stderr, since stdout may be the stdio transport; on the console
 * where there is no `process` (a Worker, a browser), so a fetch-handler server needs no Node built-in.
 */
export function logLine(text: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write?: (chunk: string) => unknown } } }).process?.stderr
  if (typeof stderr?.write === 'function')
    stderr.write(`${escapeControl(text, true)}\n`)
  else
    console.error(escapeControl(text, true))
}

/**
 * Where an operator's lines go, each with its level: `info` says what is served and how, `debug`
 * each call, `error` why serving stopped; a line without one is something the operator may need
 * to act on (`warn`). `flatmcp proxy --log-level` chooses which are said.
 */
export type OperatorLog = (line: string, level?: 'debug' | 'info' | 'error') => void

/** A name from elsewhere (an upstream's tool, a key) as a log line may show it: quoted, escaped, at most 80 characters. */
export function shown(name: unknown): string {
  const text = JSON.stringify(typeof name === 'string' ? name : String(name))
  return text.length > 82 ? `${text.slice(0, 80)}…"` : text
}

/** Lines said once per process: at most this many different ones in all, and this many of one family. */
const ONCE_LIMIT = 1000
const FAMILY_LIMIT = 10
const said = new Set<string>()
const families = new Map<string, number>()

/**
 * A line the operator needs once, not on every request that meets the same thing: said the first
 * time `key` comes, and not again in this process. Keys of one `family` (its part before the first
 * `:`) are said ten times at most: a client that varies what it sends cannot make the log grow. Text
 * a client sent belongs in it only as a short, escaped excerpt (`quoteClipped`).
 */
export function logOnce(key: string, text: string): void {
  const family = key.split(':', 1)[0]!
  const count = families.get(family) ?? 0
  if (said.has(key) || said.size >= ONCE_LIMIT || count >= FAMILY_LIMIT)
    return
  said.add(key)
  families.set(family, count + 1)
  logLine(text)
}

/** Forgets what `logOnce` said (a test that serves the same failure twice in one process). */
export function forgetSaidOnce(): void {
  said.clear()
  families.clear()
}
