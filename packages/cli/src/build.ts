import type { PresetName, ProfileName } from '@flatmcp/core'
import path from 'node:path'
import { glob } from 'tinyglobby'
import { createModuleCompiler, createToolOwners, describeFailure, modulePath, noToolsWarning, resolveOptions, writeFileAtomic } from 'unplugin-flatmcp/internal'

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
  /** Told of each module that yields no tool (default: nothing). */
  onWarning?: (message: string) => void
}

export class BuildError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BuildError'
  }
}

/** Writes the same `*.mcp.json` artifacts the bundler plugin emits, byte for byte, without a bundler. */
export async function buildArtifacts(options: BuildOptions): Promise<string[]> {
  const resolved = resolveOptions({ root: options.root, profiles: options.profiles, preset: options.preset, ...(options.moduleTimeout === undefined ? {} : { moduleTimeout: options.moduleTimeout }) })
  const files = (await glob(options.patterns, { cwd: resolved.root, absolute: true, ignore: ['**/node_modules/**'] })).sort()
  if (files.length === 0)
    throw new BuildError(`no tool modules match ${options.patterns.join(', ')}`)
  const compiler = createModuleCompiler(resolved)
  const results: { file: string, text: string }[] = []
  const claimToolNames = createToolOwners()
  for (const file of files) {
    const module = modulePath(resolved.root, file)
    try {
      const { result } = await compiler.compileFresh(file)
      claimToolNames(module, result)
      for (const warning of result.tools.length + result.flats.length === 0 ? [noToolsWarning(module)] : result.warnings)
        options.onWarning?.(warning)
      if (result.tools.length + result.flats.length > 0 && resolved.artifacts)
        results.push({ file: path.resolve(resolved.root, options.out ?? 'dist', resolved.artifacts.fileName(module)), text: result.artifact })
    }
    catch (error) {
      throw error instanceof BuildError ? error : new BuildError(await describeFailure(error, file, resolved.root))
    }
  }
  // Written only once every module compiled: a failing build leaves nothing half-written.
  for (const { file, text } of results)
    writeFileAtomic(file, text)
  return results.map(r => r.file)
}
