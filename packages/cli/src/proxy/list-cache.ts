// The list a proxy with no snapshot compiled, kept for its next start with the same command line: given
// to the proxy as tools compiled before (`known`), so a live list it has compiled already is served
// without compiling it again (no compiler thread, no compiler). It is never served in the live list's
// stead: the proxy answers once the upstream lists, as it does with nothing kept. Kept in the user's
// private cache folder beside the answer cache and keyed alike (answer-cache.ts), with the compiler's
// own build in the key too.
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { answersKey, buildOf, keepEntry } from './answer-cache'
import { flatmcpCacheFolder, privateFolder } from '../compile-cache'

/** The most lists kept (the oldest go first), and the most bytes one may hold. */
export const LIST_CACHE_LIMITS = { entries: 32, bytes: 16 * 1024 * 1024 }

/** The list kept for one command line, and how to keep the next. */
export interface ListCache {
  /** Where lists are kept. */
  place: string
  /** The list kept, parsed (a snapshot, as the proxy makes one); none where nothing is kept. */
  known?: unknown
  /** Keeps the list the proxy compiled now (its snapshot) where it differs from the one kept; true where it was written. */
  keep: (snapshot: unknown) => boolean
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

/**
 * The text kept under `key`, where it is a file of at most the limit's bytes; none otherwise. Opened
 * without waiting and checked as opened: a pipe or a device (a link to /dev/zero) is no file kept,
 * and never read.
 */
function keptText(folder: string, key: string): string | undefined {
  let fd: number | undefined
  try {
    fd = openSync(path.join(folder, `${key}.json`), constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    const stat = fstatSync(fd)
    if (!stat.isFile() || stat.size > LIST_CACHE_LIMITS.bytes)
      return undefined
    const bytes = Buffer.alloc(stat.size)
    return bytes.subarray(0, readSync(fd, bytes, 0, stat.size, 0)).toString('utf8')
  }
  catch {
    return undefined
  }
  finally {
    if (fd !== undefined)
      closeSync(fd)
  }
}

/**
 * The list cache of a `flatmcp proxy` command line (`words`, from `proxy` on): none with
 * FLATMCP_DISABLE_LIST_CACHE, where the build cannot be told (the command run from its sources), or
 * where the cache folder is not private. A kept text that is not JSON is no list kept.
 */
export function listCache(words: readonly string[], env: NodeJS.ProcessEnv = process.env): ListCache | undefined {
  if (env.FLATMCP_DISABLE_LIST_CACHE !== undefined && env.FLATMCP_DISABLE_LIST_CACHE !== '')
    return undefined
  try {
    const build = buildOf()
    const compiler = compilerBuild()
    if (build === undefined || compiler === undefined)
      return undefined
    const place = path.join(flatmcpCacheFolder(env, process.platform, homedir()), 'lists')
    const key = answersKey(`${build}\n${compiler}`, process.cwd(), words, env)
    // Made only when a list is kept: a start that keeps none leaves no folder.
    const exists = existsSync(place)
    const found = exists ? privateFolder(place) : undefined
    if (exists && found === undefined)
      return undefined
    const text = found === undefined ? undefined : keptText(found, key)
    let known: unknown
    try {
      known = text === undefined ? undefined : JSON.parse(text)
    }
    catch {
      known = undefined
    }
    return { place, ...(known === undefined ? {} : { known }), keep: snapshot => keepList(place, key, text, snapshot) }
  }
  catch {
    return undefined
  }
}

/** Writes the list where it differs from the text kept, within the bounds, to a private folder. */
function keepList(place: string, key: string, kept: string | undefined, snapshot: unknown): boolean {
  const text = JSON.stringify(snapshot)
  if (text === kept || Buffer.byteLength(text) > LIST_CACHE_LIMITS.bytes)
    return false
  try {
    const folder = privateFolder(place)
    return folder !== undefined && keepEntry(folder, key, text, LIST_CACHE_LIMITS.entries)
  }
  catch {
    return false
  }
}
