import type { PresetName, ProfileName } from '@flatmcp/core'
import path from 'node:path'
import { glob } from 'tinyglobby'
import type { CachedModule } from 'unplugin-flatmcp/internal'
import { buildSummary, createModuleCompiler, createToolOwners, describeFailure, failsBuild, modulePath, resolveOptions, warningsOf, writeFileAtomic, yieldsAnything } from 'unplugin-flatmcp/internal'

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

export class BuildError extends Error {
  /**
   * @param exitCode 1 when what `failOn` names failed the build (a finding about a schema that
   * compiled), 2 when a module could not be loaded or compiled.
   */
  constructor(message: string, readonly exitCode: 1 | 2 = 2) {
    super(message)
    this.name = 'BuildError'
  }
}

/** Writes the same `*.mcp.json` artifacts the bundler plugin emits, byte for byte, without a bundler. */
export async function buildArtifacts(options: BuildOptions): Promise<string[]> {
  const resolved = resolveOptions({ root: options.root, profiles: options.profiles, preset: options.preset, ...(options.failOn === undefined ? {} : { failOn: options.failOn }), ...(options.moduleTimeout === undefined ? {} : { moduleTimeout: options.moduleTimeout }) })
  const files = (await glob(options.patterns, { cwd: resolved.root, absolute: true, ignore: ['**/node_modules/**'] })).sort()
  if (files.length === 0)
    throw new BuildError(`no tool modules match ${options.patterns.join(', ')}`)
  const compiler = createModuleCompiler(resolved)
  const results: { file: string, text: string }[] = []
  const modules: CachedModule[] = []
  const warnings: string[] = []
  const claimToolNames = createToolOwners()
  for (const file of files) {
    const module = modulePath(resolved.root, file)
    try {
      const { result } = await compiler.compileFresh(file)
      claimToolNames(module, result)
      modules.push(result)
      for (const warning of warningsOf(result, module)) {
        if (failsBuild({ severity: 'warning' }, resolved.failOn))
          throw new BuildError(warning, 1)
        warnings.push(warning)
        options.onWarning?.(warning)
      }
      if (yieldsAnything(result) && resolved.artifacts)
        results.push({ file: path.resolve(resolved.root, options.out ?? 'dist', resolved.artifacts.fileName(module)), text: result.artifact })
    }
    catch (error) {
      throw error instanceof BuildError ? error : new BuildError(await describeFailure(error, file, resolved.root), (error as { severity?: unknown }).severity === undefined ? 2 : 1)
    }
  }
  // Written only once every module compiled: a failing build leaves nothing half-written.
  for (const { file, text } of results)
    writeFileAtomic(file, text)
  options.onSummary?.(buildSummary(modules, results.length, warnings.length))
  return results.map(r => r.file)
}
