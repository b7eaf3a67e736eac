import type { Plugin } from 'esbuild'
import { existsSync, readFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

/** Marks the plugin's own `build.resolve` calls so it does not answer them itself. */
const RESOLVING = Symbol('flatmcp.resolving')

const isInstalled = (file: string): boolean => file.split(/[\\/]/).includes('node_modules')

/** The `package.json` (with a name) of the package a file belongs to; undefined when there is none. */
function packageManifest(file: string): string | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json')
    if (existsSync(manifest)) {
      try {
        if (typeof (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'string')
          return manifest
      }
      catch {
        // Not readable JSON: keep looking further up.
      }
    }
    if (path.dirname(dir) === dir)
      return undefined
  }
}

/**
 * How a tool module's package imports are evaluated, as Vite evaluates its config: a package installed
 * in `node_modules` stays external (the project's own copy runs; its `package.json` goes into the
 * cache key, so an update is a miss), while a linked or workspace package (its real path is outside
 * any `node_modules`) is compiled in, so its files count as the module's dependencies: they are
 * hashed and watched like the project's own. A linked package's own package imports are external by
 * absolute URL, so they resolve from the linked package, as they do in the real bundle.
 */
export function packageImports(manifests: Set<string>): Plugin {
  const linkedRoots = new Set<string>()
  const fromLinked = (importer: string): boolean => [...linkedRoots].some(dir => importer.startsWith(dir + path.sep))
  return {
    name: 'flatmcp-package-imports',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === RESOLVING)
          return undefined
        if (path.isAbsolute(args.path) || isBuiltin(args.path) || /^[a-z][\w+.-]*:/i.test(args.path))
          return { path: args.path, external: true }
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING })
        // A static import that cannot resolve fails here, where esbuild knows the importing line; a
        // dynamic one is the module's own business when it runs.
        if (resolved.errors.length > 0 && args.kind === 'import-statement')
          return { errors: [{ text: `cannot find package "${args.path}": install it in the project (it is imported here)` }] }
        if (resolved.errors.length > 0 || resolved.external || !path.isAbsolute(resolved.path))
          return { path: args.path, external: true }
        const manifest = packageManifest(resolved.path)
        if (!isInstalled(resolved.path)) {
          if (manifest !== undefined)
            linkedRoots.add(path.dirname(manifest))
          return { path: resolved.path }
        }
        if (manifest !== undefined)
          manifests.add(manifest)
        return { path: fromLinked(args.importer) ? pathToFileURL(resolved.path).href : args.path, external: true }
      })
    },
  }
}
