import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** A package's package.json as the project resolves the package (its exports may not list package.json itself). */
export function manifestOf(from: string | undefined, name: string): string {
  const require = createRequire(from ? path.join(from, 'package.json') : import.meta.url)
  try {
    return require.resolve(`${name}/package.json`)
  }
  catch {
    let dir = path.dirname(require.resolve(name))
    while (!existsSync(path.join(dir, 'package.json')) || (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== name) {
      if (path.dirname(dir) === dir)
        throw new Error(`no package.json for ${name}`)
      dir = path.dirname(dir)
    }
    return path.join(dir, 'package.json')
  }
}

/** The version of a package as resolved from `from` (a folder; default: this package), or `unknown`. */
export function packageVersion(name: string, from?: string): string {
  try {
    return (JSON.parse(readFileSync(manifestOf(from, name), 'utf8')) as { version: string }).version
  }
  catch {
    return 'unknown'
  }
}

/**
 * A hash of the code in the folder of a package's entry (its chunks sit beside it): a compiler
 * rebuilt at the same version, as in a linked checkout, still changes the cache key.
 */
export function codeFingerprint(name: string): string {
  try {
    const entry = name === '.' ? fileURLToPath(import.meta.url) : createRequire(import.meta.url).resolve(name)
    const dir = path.dirname(entry)
    const hash = createHash('sha256')
    for (const file of readdirSync(dir).filter(f => /\.[cm]?[jt]s$/.test(f)).sort())
      hash.update(file).update(readFileSync(path.join(dir, file)))
    return hash.digest('hex').slice(0, 16)
  }
  catch {
    return 'unknown'
  }
}
