// Node's compile cache for the command's own modules (the proxy's SDK, zod, the runtime): V8's code
// for them kept on disk, so a start after the first skips compiling them. Node 22.1 has it; Node
// 20.19 does not, and there the command starts as before. The folder is the user's own (a cache
// another user could write to would hand this process its code), made private, and checked so.
import { lstatSync, mkdirSync, realpathSync } from 'node:fs'
import module from 'node:module'
import { homedir } from 'node:os'
import path from 'node:path'

/** What the command did about the cache, for its tests. */
export type CompileCache = 'on' | 'unavailable' | 'off' | 'unsafe folder'

/** The user's cache folder's `flatmcp`, where the command keeps what it may reuse. */
export function flatmcpCacheFolder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  const base = platform === 'win32'
    ? env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local')
    : env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache')
  return path.join(base, 'flatmcp')
}

/** The folder the cache is kept in: the user's cache folder's `flatmcp/compile-cache`. */
export function compileCacheFolder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  return path.join(flatmcpCacheFolder(env, platform, home), 'compile-cache')
}

/**
 * `folder`'s real path, made where it is missing (mode 0700), when it is private (`isPrivateFolder`);
 * undefined when it is not. Used by that path alone: a link on the way, however owned, is not
 * followed again (another user could point it elsewhere after the check).
 */
export function privateFolder(folder: string): string | undefined {
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  const real = realpathSync(folder)
  return isPrivateFolder(real, process.getuid?.()) ? real : undefined
}

/**
 * A folder only its owner, this user, can write to, under folders no one else can swap it in (on
 * POSIX; Windows' profile folder is the user's): each folder above, followed to its real path, is
 * this user's or root's, and writable by others only when sticky, as /tmp is.
 */
export function isPrivateFolder(folder: string, uid: number | undefined): boolean {
  const stat = lstatSync(folder)
  if (!stat.isDirectory())
    return false
  if (uid === undefined)
    return true
  if (stat.uid !== uid || (stat.mode & 0o022) !== 0)
    return false
  for (let above = path.dirname(realpathSync(folder)); ; above = path.dirname(above)) {
    const parent = lstatSync(above)
    const ownedSafely = parent.uid === uid || parent.uid === 0
    if (!ownedSafely || ((parent.mode & 0o022) !== 0 && (parent.mode & 0o1000) === 0))
      return false
    if (path.dirname(above) === above)
      return true
  }
}

/**
 * Turns Node's compile cache on where the running Node has it (feature-detected), into the user's
 * private cache folder; NODE_COMPILE_CACHE (Node's own) and NODE_DISABLE_COMPILE_CACHE keep their
 * meaning. Never fails the command: a cache it cannot use is no cache.
 */
export function startCompileCache(env: NodeJS.ProcessEnv = process.env): CompileCache {
  const enable = (module as { enableCompileCache?: (folder?: string) => { status: number } }).enableCompileCache
  if (typeof enable !== 'function')
    return 'unavailable'
  if (env.NODE_DISABLE_COMPILE_CACHE !== undefined)
    return 'off'
  try {
    const folder = privateFolder(env.NODE_COMPILE_CACHE ?? compileCacheFolder(env, process.platform, homedir()))
    if (folder === undefined)
      return 'unsafe folder'
    enable(folder)
    return 'on'
  }
  catch {
    return 'off'
  }
}
