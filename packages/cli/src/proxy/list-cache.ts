// The list a proxy with no snapshot compiled, kept for its next start with the same command line: given
// to the proxy as tools compiled before (`known`), so a live list it has compiled already is served
// without compiling it again (no compiler thread, no compiler). It is never served in the live list's
// stead: the proxy answers once the upstream lists, as it does with nothing kept. Kept in the user's
// private cache folder beside the answer cache and keyed alike (answer-cache.ts), with the compiler's
// own build in the key too.
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { answersKey, buildOf } from './answer-cache'
import { keepEntry, oneLine, readKept, touchEntry, turnedOff } from './cache-entries'
import { flatmcpCacheFolder, privateFolder } from '../compile-cache'

/** The most lists kept (the least recently used go first), and the most bytes one may hold. */
export const LIST_CACHE_LIMITS = { entries: 32, bytes: 16 * 1024 * 1024 }

/** The list kept for one command line, and how to keep the next. */
export interface ListCache {
  /** The list kept, parsed (a snapshot, as the proxy makes one); none where nothing is kept. */
  known?: unknown
  /** Keeps the list the proxy compiled now (its snapshot) where it differs from the one kept; the operator's line of what was taken and kept. */
  keep: (snapshot: unknown) => string
}

/** The compiler this command compiles with: its thread's file and `@flatmcp/core`'s entry, as text; none where either cannot be read. */
function compilerBuild(): string | undefined {
  const here = fileURLToPath(import.meta.url)
  try {
    const core = createRequire(here).resolve('@flatmcp/core')
    return [readFileSync(path.join(path.dirname(here), 'proxy', 'proxy-compile-worker.mjs'), 'utf8'), readFileSync(core, 'utf8')].join('\n')
  }
  catch {
    return undefined
  }
}

/** A list cache that takes and keeps nothing, and says why. */
const off = (why: string): ListCache => ({ keep: () => oneLine(`flatmcp proxy: the list cache is off: ${why}; every tool compiled`) })

/**
 * The list cache of a `flatmcp proxy` command line (`words`, from `proxy` on): off with
 * FLATMCP_DISABLE_LIST_CACHE, where the build cannot be told (the command run from its sources), or
 * where the cache folder is not private. A kept text that is not JSON is no list kept.
 */
export function listCache(words: readonly string[], env: NodeJS.ProcessEnv = process.env): ListCache {
  if (turnedOff(env.FLATMCP_DISABLE_LIST_CACHE))
    return off('FLATMCP_DISABLE_LIST_CACHE is set')
  const place = path.join(flatmcpCacheFolder(env, process.platform, homedir()), 'lists')
  try {
    const build = buildOf()
    const compiler = compilerBuild()
    if (build === undefined || compiler === undefined)
      return off('the flatmcp build cannot be told (run from its sources?)')
    const key = answersKey(`${build}\n${compiler}`, process.cwd(), words, env)
    // Made only when a list is kept: a start that keeps none leaves no folder.
    const exists = existsSync(place)
    const found = exists ? privateFolder(place) : undefined
    if (exists && found === undefined)
      return off(`${place} is not a folder only this user can write to`)
    const file = path.join(place, `${key}.json`)
    const text = found === undefined ? undefined : readKept(path.join(found, `${key}.json`), LIST_CACHE_LIMITS.bytes)
    const known = parsedList(text)
    return { ...(known === undefined ? {} : { known }), keep: snapshot => oneLine(`${takenLine(file, text, known, snapshot)}; ${keepList(place, key, text, snapshot)}`) }
  }
  catch (error) {
    return off(`${place}: ${(error as Error).message}`)
  }
}

/** The kept text parsed, where it is JSON. */
function parsedList(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text) as unknown
  }
  catch {
    return undefined
  }
}

type Runtime = Record<string, { served?: string, upstream?: { digest?: string } | null } | null>
const runtimeOf = (snapshot: unknown): Runtime | undefined => {
  const runtime = (snapshot as { runtime?: unknown } | null)?.runtime
  return typeof runtime === 'object' && runtime !== null ? runtime as Runtime : undefined
}

/** What this start took from the list kept: how many of its tools the kept list held, compiled, as they are now. */
function takenLine(file: string, text: string | undefined, known: unknown, now: unknown): string {
  const tools = Object.entries(runtimeOf(now) ?? {})
  const compiled = `${tools.length} tool${tools.length === 1 ? '' : 's'} compiled`
  if (text === undefined)
    return `flatmcp proxy: no list kept for this command line (${file}); ${compiled}`
  const kept = runtimeOf(known)
  if (kept === undefined)
    return `flatmcp proxy: the list kept in ${file} is not one; passed over, ${compiled}`
  const taken = tools.filter(([name, tool]) => {
    // The kept list as it was read: a tool it holds as null (edited by hand) is one it does not hold.
    const held = Object.hasOwn(kept, name) ? kept[name] : null
    return typeof held === 'object' && held !== null && held.served !== 'as-is' && held.upstream?.digest === tool?.upstream?.digest
  }).length
  return `flatmcp proxy: ${taken} of ${tools.length} tools taken from the list kept in ${file}, ${tools.length - taken} compiled`
}

/** Writes the list where it differs from the text kept (marking a kept one used), within the bounds, to a private folder; said. */
function keepList(place: string, key: string, kept: string | undefined, snapshot: unknown): string {
  const text = JSON.stringify(snapshot)
  try {
    const folder = privateFolder(place)
    if (folder === undefined)
      return `not kept: ${place} is not a folder only this user can write to`
    if (text === kept) {
      touchEntry(folder, key)
      return 'the list kept is this one'
    }
    if (Buffer.byteLength(text) > LIST_CACHE_LIMITS.bytes)
      return `not kept: over the ${LIST_CACHE_LIMITS.bytes / 1024 / 1024} MiB a list may hold`
    return keepEntry(folder, key, text, LIST_CACHE_LIMITS.entries) ? 'this list kept for the next start' : `not kept: ${place} could not be written`
  }
  catch (error) {
    return `not kept: ${(error as Error).message}`
  }
}
