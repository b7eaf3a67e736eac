// What the plugin's hooks share over one build: the options (Vite resolves them again at its root),
// the build session, whether Vite serves, and which tool modules each project file is part of.
import type { BuildSession, CompiledModule } from '../pipeline/session'
import type { Options, ResolvedOptions } from '../options'
import path from 'node:path'
import { createBuild } from '../pipeline/session'
import { writeFileAtomic } from '../write-atomic'
import { resolveOptions } from '../options'

export interface BuildState {
  options: ResolvedOptions
  session: BuildSession | undefined
  viteServe: boolean
  /** Tool modules (absolute) by each project file they are made of (absolute): for Vite's watcher. */
  readonly dependents: Map<string, Set<string>>
}

export function createBuildState(rawOptions: Options | undefined): BuildState {
  return { options: resolveOptions(rawOptions), session: undefined, viteServe: false, dependents: new Map() }
}

/** The build session, begun on first use. */
export function sessionOf(state: BuildState): BuildSession {
  state.session ??= createBuild(state.options)
  return state.session
}

/** Compiles a module (or takes it from the cache), records what it is made of, and, in Vite dev, writes its artifact. */
export async function refresh(state: BuildState, file: string): Promise<CompiledModule> {
  const compiled = await sessionOf(state).compile(file)
  for (const dependency of compiled.module.dependencies) {
    const absolute = path.resolve(state.options.root, dependency)
    state.dependents.set(absolute, (state.dependents.get(absolute) ?? new Set()).add(file))
  }
  if (state.viteServe && compiled.artifact)
    writeFileAtomic(path.join(state.options.cacheDir, 'artifacts', compiled.artifact.fileName), compiled.artifact.text)
  return compiled
}

/** Writes each artifact of the session under `dir` (and the artifacts' own folder), when artifacts are asked for. */
export function emitTo(state: BuildState, dir: string, write: (file: string, text: string) => void): void {
  if (!state.options.artifacts || !state.session)
    return
  for (const { fileName, text } of state.session.artifacts().values())
    write(path.join(dir, state.options.artifacts.dir, fileName), text)
}
