// The entries of the proxy's start-up caches (the answer cache, the list cache), each a `<key>.json`
// in a private folder (compile-cache.ts): read only when it is a regular file within its bound,
// written whole and owner-only, marked when used, the least recently used dropped past a count; and
// the switch and the line each cache shares.
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The text of `file` where it is a regular file of at most `maxBytes`; none otherwise. Opened without
 * waiting and checked as opened: a pipe or a device (a link to /dev/zero) is no entry, and never read.
 */
export function readKept(file: string, maxBytes: number): string | undefined {
  let fd: number | undefined
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
    const stat = fstatSync(fd)
    if (!stat.isFile() || stat.size > maxBytes)
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

/** Marks an entry used now, so that it goes last when the folder is full. */
export function touchEntry(folder: string, key: string): void {
  const now = new Date()
  try {
    utimesSync(path.join(folder, `${key}.json`), now, now)
  }
  catch {
    // Unmarked, it only goes sooner when the folder is full.
  }
}

/** An operator line naming the cache folder on one line: a line feed in its path (XDG_CACHE_HOME's) written `\\n`, so it cannot start a line the proxy did not write. */
export const oneLine = (line: string): string => line.replaceAll('\n', '\\n')

/** Whether a FLATMCP_DISABLE_ variable turns its cache off: any value but none, empty, `0` or `false`. */
export function turnedOff(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase())
}

/** Writes `<key>.json` whole, owner-only, then keeps the newest `entries` of the folder; false where it was not written. */
export function keepEntry(folder: string, key: string, text: string, entries: number): boolean {
  const file = path.join(folder, `${key}.json`)
  const partial = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(partial, text, { mode: 0o600 })
    renameSync(partial, file)
  }
  catch {
    rmSync(partial, { force: true })
    return false
  }
  prune(folder, entries)
  return true
}

/** Keeps the newest entries (by when each was written) up to `limit`; what cannot be read is left. */
function prune(folder: string, limit: number): void {
  try {
    const entries = readdirSync(folder).filter(name => /^[0-9a-f]{64}\.json$/.test(name))
    if (entries.length <= limit)
      return
    const aged = entries.map(name => ({ name, at: statSync(path.join(folder, name)).mtimeMs })).sort((a, b) => b.at - a.at)
    for (const { name } of aged.slice(limit))
      rmSync(path.join(folder, name), { force: true })
  }
  catch {
    // Another start pruned it first, or it cannot be read: left for the next.
  }
}
