import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

/** The version of a package as resolved from `from` (a folder; default: this package), or `unknown`. */
export function packageVersion(name: string, from?: string): string {
  try {
    const require = createRequire(from ? path.join(from, 'package.json') : import.meta.url)
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version
  }
  catch {
    return 'unknown'
  }
}
