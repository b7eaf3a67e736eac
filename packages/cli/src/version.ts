import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/** This package's version, from its package.json (found by the package's own name, from src, dist or the proxy's chunk alike). */
export function cliVersion(): string {
  return (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('flatmcp/package.json'), 'utf8')) as { version: string }).version
}

/** What a snapshot says made it: `flatmcp@<version>`. */
export function snapshotGenerator(): string {
  return `flatmcp@${cliVersion()}`
}
