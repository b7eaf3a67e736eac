// Each package's entries, read from one place: its package.json `exports` (the `flatmcp-source`
// condition names the source, `default` the built file). The build (tsdown.config.ts), the tests'
// aliases (vitest.config.ts) and the layout test read them here; `publishConfig.exports` is the same
// list less the source condition, which test/layout.test.ts holds.
import { readFileSync } from 'node:fs'

const root = new URL('..', import.meta.url)

/** The workspace's packages, by folder under packages/. */
export const PACKAGES = ['core', 'runtime', 'unplugin', 'cli'] as const

export interface PackageEntry {
  /** Its import name: `@flatmcp/runtime/proxy/fetch`. */
  specifier: string
  /** Its source, under the package: `src/proxy-fetch.ts`. */
  source: string
  /** Its built file's name in dist/: `proxy-fetch`. */
  name: string
}

type ExportTarget = string | { 'flatmcp-source'?: string, 'types'?: string, 'default': string }

/** A package's entries, in its exports' order. */
export function packageEntries(folder: string): PackageEntry[] {
  const manifest = JSON.parse(readFileSync(new URL(`packages/${folder}/package.json`, root), 'utf8')) as { name: string, exports?: Record<string, ExportTarget> }
  return Object.entries(manifest.exports ?? {})
    .flatMap(([subpath, target]) => typeof target === 'object' && target['flatmcp-source'] ? [[subpath, target] as const] : [])
    .map(([subpath, target]) => ({
      specifier: `${manifest.name}${subpath.slice(1)}`,
      source: target['flatmcp-source']!.replace(/^\.\//, ''),
      name: target.default.replace(/^\.\/dist\//, '').replace(/\.mjs$/, ''),
    }))
}
