import { readFileSync } from 'node:fs'

/** This package's version (from its package.json, beside `src` and `dist` alike). */
export function cliVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
}

/** What a snapshot says made it: `flatmcp@<version>`. */
export function snapshotGenerator(): string {
  return `flatmcp@${cliVersion()}`
}
