// The answers a proxy served from its snapshot gave a client's first requests (`initialize`, the
// first `tools/list`), kept for its next start with the same command line, which gives them before
// it loads the proxy (early-answers.ts). Served ahead of the upstream, those answers come from the
// snapshot and the command line alone: an entry is keyed by the command line, its folder, the
// flatmcp build and its FLATMCP_ variables, and holds only while every file it was made from is
// byte-identical. Kept in the user's private cache folder (compile-cache.ts says why private).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { keepEntry, readKept } from './cache-entries'

/** One request's answer: its method, its params as canonical JSON, and its result's JSON text. */
export interface KeptAnswer {
  method: string
  params: string
  result: string
}

/** An entry: the files its answers came from (each by its SHA-256), and the answers. */
export interface KeptAnswers {
  files: { path: string, sha256: string }[]
  answers: KeptAnswer[]
}

/** The most entries kept (the oldest go first), and the most bytes of answers one may hold. */
export const ANSWER_CACHE_LIMITS = { entries: 32, bytes: 4 * 1024 * 1024 }

/** The methods whose first answer is kept. */
export const KEPT_METHODS: readonly string[] = ['initialize', 'tools/list']

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex')

/** A value as JSON with every object's keys sorted: the same params, however a client orders them, are one text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** The proxy's flags (each with its value) that change what it says on stderr, never what it answers: left out of the key. */
export const UNKEYED_FLAGS: readonly string[] = ['--log-level']

/** The FLATMCP_ variables that turn a cache off or on, never what is answered: left out of the key. */
export const UNKEYED_VARIABLES: readonly string[] = ['FLATMCP_DISABLE_ANSWER_CACHE', 'FLATMCP_DISABLE_LIST_CACHE']

/** The command's words that choose its answers: up to `--`, the unkeyed flags and their values left out. */
export function answeringWords(argv: readonly string[]): string[] {
  const words: string[] = []
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at]!
    if (word === '--')
      return [...words, ...argv.slice(at)]
    if (UNKEYED_FLAGS.includes(word))
      at++
    else if (!UNKEYED_FLAGS.some(flag => word.startsWith(`${flag}=`)))
      words.push(word)
  }
  return words
}

/**
 * The flatmcp build this code is: the texts of the command's entry and of the proxy's, which name
 * every chunk they load by its content's hash. Undefined where the command runs from its sources.
 */
export function buildOf(): string | undefined {
  const here = fileURLToPath(import.meta.url)
  try {
    return [path.basename(here), readFileSync(path.join(path.dirname(here), 'cli.mjs'), 'utf8'), readFileSync(path.join(path.dirname(here), 'proxy', 'serve.mjs'), 'utf8')].join('\n')
  }
  catch {
    return undefined
  }
}

/** What an entry is keyed by: the build, the folder, the command's words that choose its answers and the FLATMCP_ variables (but the unkeyed) (never their values in the clear: the key is a digest). */
export function answersKey(build: string, cwd: string, argv: readonly string[], env: NodeJS.ProcessEnv): string {
  const variables = Object.keys(env).filter(name => name.startsWith('FLATMCP_') && !UNKEYED_VARIABLES.includes(name)).sort().map(name => [name, env[name]])
  return sha256(JSON.stringify([build, cwd, answeringWords(argv), variables]))
}

/** The SHA-256 of each file now; undefined where one cannot be read. */
export function filesNow(files: readonly string[]): KeptAnswers['files'] | undefined {
  try {
    return files.map(file => ({ path: path.resolve(file), sha256: sha256(readFileSync(file)) }))
  }
  catch {
    return undefined
  }
}

const isText = (value: unknown): value is string => typeof value === 'string'
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** An answer's result as the line it goes out in may hold it: a JSON object's text, on one line. */
const isResultText = (text: string): boolean => text.startsWith('{') && text.endsWith('}') && !text.includes('\n')

/** A parsed entry when it has the shape `keepAnswers` writes: files named with digests, and answers of the kept methods. */
function entryOf(value: unknown): KeptAnswers | undefined {
  if (!isRecord(value) || !Array.isArray(value.files) || !Array.isArray(value.answers) || value.answers.length === 0)
    return undefined
  const files = value.files.every(file => isRecord(file) && isText(file.path) && isText(file.sha256))
  const answers = value.answers.every(answer => isRecord(answer) && isText(answer.method) && KEPT_METHODS.includes(answer.method) && isText(answer.params) && isText(answer.result) && isResultText(answer.result))
  return files && answers ? value as unknown as KeptAnswers : undefined
}

/** The entry under `key`, when it is whole and every file it was made from is as it was; undefined otherwise. */
export function readAnswers(folder: string, key: string): KeptAnswers | undefined {
  let entry: KeptAnswers | undefined
  try {
    // Answers of 4 MiB with the entry's own JSON around them: twice that is no entry this writes.
    entry = entryOf(JSON.parse(readKept(path.join(folder, `${key}.json`), 2 * ANSWER_CACHE_LIMITS.bytes) ?? ''))
  }
  catch {
    return undefined
  }
  const now = entry && filesNow(entry.files.map(file => file.path))
  // An entry names the snapshot it came from at least: one that names no file holds for nothing.
  if (entry === undefined || entry.files.length === 0 || now === undefined || now.some((file, at) => file.sha256 !== entry.files[at]!.sha256))
    return undefined
  return { files: entry.files, answers: entry.answers }
}

/** Writes the entry whole (another start never reads half of one), then drops the oldest past the limit; false where it was not written. */
export function keepAnswers(folder: string, key: string, entry: KeptAnswers): boolean {
  if (entry.answers.reduce((sum, answer) => sum + answer.result.length, 0) > ANSWER_CACHE_LIMITS.bytes)
    return false
  return keepEntry(folder, key, JSON.stringify(entry), ANSWER_CACHE_LIMITS.entries)
}
