// An artifact's content hash: of the module and every project file it imports, each by its
// root-relative path and its bytes. One function for the build (which writes it, and keys its cache
// by it) and the runtime (which checks it in development), so the two agree byte for byte. File
// access and hashing are passed in: the runtime's entry imports no Node built-in.

/** What hashing needs of the machine: each file's bytes, and a SHA-256. */
export interface HashAccess {
  /** The bytes of a file named relative to the project root; undefined when it is missing. */
  read: (file: string) => Uint8Array | undefined
  /** A fresh SHA-256 (`node:crypto`'s `createHash('sha256')`). */
  sha256: () => { update: (data: string | Uint8Array) => unknown, digest: (encoding: 'hex') => string }
}

/**
 * `sha256:` and the hex SHA-256 of `salt`, then each file in order: its root-relative path between
 * NULs, then its bytes (or that it is missing). `files` are root-relative, with `/` separators.
 */
export function contentHash(files: readonly string[], access: HashAccess, salt = ''): string {
  const hash = access.sha256()
  hash.update(salt)
  for (const file of files) {
    hash.update(`\0${file}\0`)
    hash.update(access.read(file) ?? '\0missing')
  }
  return `sha256:${hash.digest('hex')}`
}
