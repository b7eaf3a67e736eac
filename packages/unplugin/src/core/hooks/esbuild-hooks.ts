// esbuild writes the artifacts in its own onEnd: it may have only `outfile`, or `write: false`
// (then they join its output files).
import type { BuildOptions, OutputFile, PluginBuild } from 'esbuild'
import type { BuildState } from './build-state'
import path from 'node:path'
import { writeFileAtomic } from '../write-atomic'
import { emitTo } from './build-state'

export function esbuildHooks(state: BuildState): { setup: (build: PluginBuild) => void } {
  return {
    setup(build: PluginBuild) {
      build.onEnd((result) => {
        if (result.errors.length > 0)
          return
        const initial: BuildOptions = build.initialOptions
        const cwd = initial.absWorkingDir ?? process.cwd()
        const dir = path.resolve(cwd, initial.outdir ?? (initial.outfile ? path.dirname(initial.outfile) : '.'))
        if (initial.write === false) {
          emitTo(state, dir, (file, text) => {
            const contents = new TextEncoder().encode(text)
            result.outputFiles?.push({ path: file, contents, text, hash: '' } as OutputFile)
          })
        }
        else {
          emitTo(state, dir, writeFileAtomic)
        }
      })
    },
  }
}
