// The plugin's hooks over one build session (`build-session.ts`): what is the bundler's here is only
// where warnings, errors and artifacts go (its own warnings, `emitFile`, esbuild's `onEnd`, Vite's
// `writeBundle` and dev server, in hooks/), and which files its watcher follows.
import type { UnpluginFactory } from 'unplugin'
import type { BuildSession, CompiledModule } from './pipeline/session'
import type { Options } from './options'
import type { BuildState } from './hooks/build-state'
import path from 'node:path'
import { BuildError } from './pipeline/session'
import { NAME } from './pipeline/module-compiler'
import { posix } from './load/module-path'
import { createBuildState, emitTo, refresh, sessionOf } from './hooks/build-state'
import { esbuildHooks } from './hooks/esbuild-hooks'
import { viteHooks } from './hooks/vite-hooks'

export { DEV_ARTIFACTS_PATH } from './hooks/vite-hooks'

/**
 * A build error as the bundler shows it: the message, which names file, line and column, without
 * a stack of the plugin's and the bundler's frames (bundlers print an error's stack beneath it).
 */
function buildError(message: string): Error {
  const error = new Error(message)
  error.name = 'flatmcp'
  error.stack = ''
  return error
}

/** The session's end: its claims checked, its warning and summary said (a dev server's end says nothing). */
function endBuild(state: BuildState): void {
  // A dev server transforms modules as they are asked for: at its end, nothing may have been.
  if (state.viteServe)
    return
  let end: ReturnType<BuildSession['end']>
  try {
    end = sessionOf(state).end()
  }
  catch (error) {
    throw new Error(`[${NAME}] ${(error as Error).message}`, { cause: error })
  }
  if (end.warning !== undefined)
    console.warn(`[${NAME}] ${end.warning}`)
  if (end.summary !== undefined)
    console.log(end.summary)
}

/**
 * The plugin: compiles each tool module at build time, appends its tools' precomputed data to the
 * module, and emits one `*.mcp.json` artifact per module.
 */
export const unpluginFactory: UnpluginFactory<Options | undefined> = (rawOptions, meta) => {
  const state = createBuildState(rawOptions)
  const { options } = state
  return {
    name: NAME,
    enforce: 'pre',
    transform: {
      filter: { id: { include: options.include, exclude: options.exclude } },
      async handler(code, id) {
        const file = id.replace(/[?#].*$/, '')
        let compiled: CompiledModule
        try {
          compiled = await refresh(state, file)
        }
        catch (error) {
          return this.error(error instanceof BuildError ? buildError(error.message) : error as Error)
        }
        for (const dependency of compiled.module.dependencies)
          this.addWatchFile(path.resolve(state.options.root, dependency))
        for (const warning of compiled.warnings)
          this.warn(warning)
        return { code: code + compiled.module.injected, map: null }
      },
    },
    buildStart() {
      sessionOf(state).begin()
    },
    buildEnd() {
      endBuild(state)
      // esbuild writes its artifacts in its own onEnd (it may have only `outfile`, or `write: false`);
      // Vite in its writeBundle (its server builds drop emitted assets).
      if (meta.framework === 'esbuild' || meta.framework === 'vite')
        return
      emitTo(state, '', (fileName, source) => this.emitFile({ type: 'asset', fileName: posix(fileName), source }))
    },
    vite: viteHooks(state, rawOptions),
    esbuild: esbuildHooks(state),
  }
}
