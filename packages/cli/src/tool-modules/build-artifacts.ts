// `flatmcp build`: the plugin's build session without a bundler. It finds the modules, drives the
// session (which compiles, claims tool names, says warnings, fails at `failOn`, sums up), and writes
// the artifacts only once every module compiled, so a failing build leaves nothing half-written.
import type { PresetName, ProfileName } from '@flatmcp/core'
import path from 'node:path'
import { glob } from 'tinyglobby'
import { BuildError, createBuild, resolveOptions } from 'unplugin-flatmcp/internal'
import { writeFileAtomic } from 'unplugin-flatmcp/internal/shared'

export { BuildError } from 'unplugin-flatmcp/internal'

export interface BuildOptions {
  /** Tool module files or globs, relative to the root. */
  patterns: string[]
  /** Where artifacts go (their names keep the module's folder). Default: `dist`. */
  out?: string
  /** Every profile to build, as the plugin's `profiles` option. Default: `portable` alone. */
  profiles?: ProfileName[]
  /** The preset JSON Schema inputs are read with, as the plugin's `preset` option. Default: `auto`. */
  preset?: PresetName | 'auto'
  root?: string
  /** How long a module's evaluation may take, in milliseconds, as the plugin's `moduleTimeout`. Default: 60,000. */
  moduleTimeout?: number
  /** The diagnostic severity that fails the build, as the plugin's `failOn` option. Default: `error`. */
  failOn?: 'error' | 'warning' | 'never'
  /** Told of each warning, at its file and line (default: nothing). */
  onWarning?: (message: string) => void
  /** Told of the build's summary line once every artifact is written (default: nothing). */
  onSummary?: (line: string) => void
}

/** Writes the same `*.mcp.json` artifacts the bundler plugin emits, byte for byte, without a bundler. */
export async function buildArtifacts(options: BuildOptions): Promise<string[]> {
  const resolved = resolveOptions({ root: options.root, profiles: options.profiles, preset: options.preset, ...(options.failOn === undefined ? {} : { failOn: options.failOn }), ...(options.moduleTimeout === undefined ? {} : { moduleTimeout: options.moduleTimeout }) })
  const files = (await glob(options.patterns, { cwd: resolved.root, absolute: true, ignore: ['**/node_modules/**'] })).sort()
  if (files.length === 0)
    throw new BuildError(`no tool modules match ${options.patterns.join(', ')}`)
  const build = createBuild(resolved)
  build.begin()
  const written: { file: string, text: string }[] = []
  for (const file of files) {
    const { warnings, artifact } = await build.compile(file, { fresh: true })
    for (const warning of warnings)
      options.onWarning?.(warning)
    if (artifact)
      written.push({ file: path.resolve(resolved.root, options.out ?? 'dist', artifact.fileName), text: artifact.text })
  }
  // Written only once every module compiled: a failing build leaves nothing half-written.
  for (const { file, text } of written)
    writeFileAtomic(file, text)
  const { summary } = build.end()
  if (summary !== undefined)
    options.onSummary?.(summary)
  return written.map(entry => entry.file)
}
