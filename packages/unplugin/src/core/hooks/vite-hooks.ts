// Vite's hooks: options resolved at its root, artifacts written in writeBundle (its server builds
// drop emitted assets), and in its dev server artifacts kept fresh as files change and served.
import type { UnpluginOptions } from 'unplugin'
import type { Options } from '../options'
import type { BuildState } from './build-state'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { NAME } from '../pipeline/module-compiler'
import { writeFileAtomic } from '../write-atomic'
import { posix } from '../load/module-path'
import { resolveOptions } from '../options'
import { emitTo, refresh } from './build-state'

type ViteHooks = NonNullable<UnpluginOptions['vite']>
type DevServer = Parameters<NonNullable<Extract<ViteHooks['configureServer'], (...args: never[]) => unknown>>>[0]

/** Where Vite's dev server serves artifacts (they are also written under the cache folder). */
export const DEV_ARTIFACTS_PATH = '/@flatmcp/'

/** What a tool module's file may end with, for the dev server to find the module an artifact comes from. */
const MODULE_EXTENSIONS = ['.ts', '.mts', '.tsx', '.js', '.mjs', '.jsx']

export function viteHooks(state: BuildState, rawOptions: Options | undefined): ViteHooks {
  return {
    configResolved(config) {
      state.options = resolveOptions(rawOptions, config.root)
      state.session = undefined
      state.viteServe = config.command === 'serve'
    },
    writeBundle(output) {
      if (output.dir)
        emitTo(state, output.dir, writeFileAtomic)
    },
    configureServer(server) {
      refreshOnChange(state, server)
      serveArtifacts(state, server)
    },
  }
}

/**
 * An edit to a tool module or to any file it imports refreshes the artifact at once and makes Vite
 * transform the module again on its next load.
 */
function refreshOnChange(state: BuildState, server: DevServer): void {
  server.watcher.on('change', (changed) => {
    for (const file of state.dependents.get(path.resolve(changed)) ?? []) {
      for (const environment of Object.values(server.environments)) {
        for (const node of environment.moduleGraph.getModulesByFile(file) ?? [])
          environment.moduleGraph.invalidateModule(node)
      }
      refresh(state, file).catch((error: unknown) => server.config.logger.error(`[${NAME}] ${error instanceof Error ? error.message : String(error)}`))
    }
  })
}

/** Serves each artifact under DEV_ARTIFACTS_PATH. */
function serveArtifacts(state: BuildState, server: DevServer): void {
  server.middlewares.use((req, res, next) => {
    const url = req.url?.split('?')[0] ?? ''
    if (!url.startsWith(DEV_ARTIFACTS_PATH))
      return next()
    const wanted = decodeURIComponent(url.slice(DEV_ARTIFACTS_PATH.length))
    const artifact = (): { text: string } | undefined => [...(state.session?.artifacts().values() ?? [])].find(a => a.fileName === wanted)
    // Not yet asked for by anyone: its module goes through Vite's transform now (the plugin's
    // include and exclude decide, as for any module), and its artifact is served if it has one.
    const ready = artifact() ? Promise.resolve() : transformModuleOf(state, server, wanted)
    ready.then(() => {
      const served = artifact()
      if (!served)
        return next()
      res.setHeader('content-type', 'application/json')
      res.end(served.text)
    }, next)
  })
}

/** The tool module an artifact's name comes from (`src/a.tools.mcp.json` ← `src/a.tools.ts`), transformed where there is one. */
async function transformModuleOf(state: BuildState, server: DevServer, fileName: string): Promise<void> {
  const { options } = state
  if (!options.artifacts || !fileName.endsWith('.mcp.json'))
    return
  const stem = fileName.slice(0, -'.mcp.json'.length)
  const naming = options.artifacts.fileName
  // Only a module inside the project: a name with `..` in it reaches nothing beyond.
  const inside = (candidate: string): boolean => !path.relative(options.root, path.resolve(options.root, candidate)).startsWith('..')
  const module = MODULE_EXTENSIONS.map(ext => `${stem}${ext}`).find(candidate => inside(candidate) && naming(candidate) === fileName && existsSync(path.join(options.root, candidate)))
  const environment = server.environments.ssr ?? Object.values(server.environments)[0]
  if (module !== undefined && environment)
    await environment.transformRequest(`/${posix(module)}`)
}
