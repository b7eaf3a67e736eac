// A registered artifact checked against its sources once, in development: where the module it was
// built from is at hand, its content hash is taken again as the build took it. No Node built-in is
// imported: outside Node (a Worker) or in production nothing is read.
import type { HashAccess } from './hash'
import { logOnce } from '../util/log'
import { nodeBuiltin } from '../util/node-builtin'
import { contentHash } from './hash'

interface FsApi { existsSync: (file: string) => boolean, readFileSync: (file: string) => Uint8Array, statSync: (file: string, options: { throwIfNoEntry: false }) => { isFile: () => boolean, size: number } | undefined }
interface CryptoApi { createHash: (algorithm: string) => ReturnType<HashAccess['sha256']> }
interface PathApi { resolve: (...parts: string[]) => string, relative: (from: string, to: string) => string, isAbsolute: (path: string) => boolean }

/** A file the stale check reads is at most this large: a source file, not a device or a dump. */
const MAX_SOURCE_BYTES = 16 * 1024 * 1024
/** A module's file, as the build counts a linked package's: by its extension. */
const MODULE_FILE = /\.(?:[cm]?[jt]sx?|json)$/

type Process = { env?: Record<string, string | undefined>, cwd?: () => string, getBuiltinModule?: (id: string) => unknown }

/**
 * Whether an artifact (`module`, `hash`, and the `files` the hash covers, relative to the project
 * root) no longer matches its sources under `root`: `undefined` when it cannot tell (no Node, in
 * production, an artifact without `files`, or its module not at hand).
 */
export function artifactIsStale(artifact: { module?: unknown, hash?: unknown, files?: unknown }, root?: string): boolean | undefined {
  const node = (globalThis as { process?: Process }).process
  if (!node?.getBuiltinModule || node.env?.NODE_ENV === 'production')
    return undefined
  const { module, hash, files } = artifact
  if (typeof module !== 'string' || typeof hash !== 'string' || !Array.isArray(files) || !files.every(file => typeof file === 'string'))
    return undefined
  const fs = nodeBuiltin<FsApi>('node:fs')!
  const crypto = nodeBuiltin<CryptoApi>('node:crypto')!
  const path = nodeBuiltin<PathApi>('node:path')!
  const base = root ?? node.cwd?.() ?? '.'
  if (!fs.existsSync(path.resolve(base, module)))
    return undefined
  // Only regular files of a source file's size: an artifact's `files` list is not trusted to name a
  // FIFO (which would hang) or a device (which would never end). Outside the project (a linked
  // package's files, which the build counts), only modules' files: not any file a path can reach.
  const refusal = (file: string): string | undefined => {
    const absolute = path.resolve(base, file)
    const relative = path.relative(base, absolute)
    const outside = relative.startsWith('..') || path.isAbsolute(relative)
    const stat = fs.statSync(absolute, { throwIfNoEntry: false })
    if (stat === undefined)
      return undefined
    if (outside && !MODULE_FILE.test(file))
      return 'outside the project, and not a module\'s file'
    return !stat.isFile() ? 'not a regular file' : stat.size > MAX_SOURCE_BYTES ? `over ${MAX_SOURCE_BYTES} bytes` : undefined
  }
  for (const file of files as string[]) {
    const why = refusal(file)
    if (why !== undefined) {
      logOnce(`artifact-file:${String(module)}`, `flatmcp: the artifact of ${String(module)} names ${JSON.stringify(file)}, which is ${why}: it is not read, so whether the artifact is current is not checked here (flatmcp probe checks it; said once)`)
      return undefined
    }
  }
  const read = (file: string): Uint8Array | undefined => {
    const absolute = path.resolve(base, file)
    return fs.existsSync(absolute) ? fs.readFileSync(absolute) : undefined
  }
  return contentHash(files as string[], { read, sha256: () => crypto.createHash('sha256') }) !== hash
}

/** Says once per module, on stderr, that its artifact is older than its sources. */
export function warnIfStale(artifact: { module?: unknown, hash?: unknown, files?: unknown }, root?: string): void {
  if (artifactIsStale(artifact, root))
    logOnce(`stale-artifact:${String(artifact.module)}`, `flatmcp: the artifact of ${String(artifact.module)} is older than its sources (they changed since it was built): tools/list serves what was built then. Build again (your bundler, or flatmcp build), or check with flatmcp probe.`)
}
