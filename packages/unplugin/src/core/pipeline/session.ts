// One build, as the plugin's hooks and `flatmcp build` both drive it: each module compiled (from the
// cache, or afresh), its tool names claimed across the build, its warnings said or failing the build
// at `failOn`, its artifact kept; at the end, the one summary line. The hosts only add what is theirs
// (a bundler's watch files and emitted assets, the command's globs and atomic writes).
import type { CachedModule } from '../load/module-cache'
import type { ResolvedOptions } from '../options'
import { failsBuild, nothingMatchedWarning, ToolCompileError, warningsOf } from '../compile/compile-module'
import { createModuleCompiler, describeFailure } from './module-compiler'
import { buildSummary } from './summary'
import { createToolOwners, DuplicateToolError } from './tool-owners'
import { yieldsAnything } from '../load/module-cache'
import { modulePath } from '../load/module-path'

/** A build that failed: the message names file, line and column, export, tool and JSON path. */
export class BuildError extends Error {
  /**
   * @param exitCode 1 when a tool's definition is at fault (a schema that cannot be served, a
   * diagnostic at `failOn`, a name two exports claim), 2 when a module could not be loaded at all.
   */
  constructor(message: string, readonly exitCode: 1 | 2 = 2) {
    super(message)
    this.name = 'BuildError'
  }
}

/**
 * True when the module loaded and one of its tools is at fault (a finding, as the probe's: exit 1),
 * not the module itself (it cannot be read or evaluated: exit 2, as a usage error).
 */
function definitionFault(error: unknown): boolean {
  return error instanceof ToolCompileError || error instanceof DuplicateToolError
}

/** A module's artifact: its file name (under the artifacts folder) and its text. */
export interface ModuleArtifactFile {
  fileName: string
  text: string
}

export interface CompiledModule {
  module: CachedModule
  /** The module's path relative to the root. */
  path: string
  /** The warnings to show (none when `quiet`): what the compiler widened, cut or moved, at file and line. */
  warnings: string[]
  /** Its artifact, where it yields one and artifacts are written. */
  artifact?: ModuleArtifactFile
}

export interface BuildSession {
  /** A build (or watch mode's next round) begins: what its summary counts starts again. */
  begin: () => void
  /**
   * Compiles one tool module (from the cache unless `fresh`), claims its tool names across the build
   * and keeps its artifact. Throws a `BuildError`: a module that cannot load (exit code 2); a tool
   * that cannot compile, a tool name another export has, or a warning where `failOn` is `warning`
   * (exit code 1).
   */
  compile: (file: string, options?: { fresh?: boolean }) => Promise<CompiledModule>
  /** The artifact of every module compiled so far, by module path (a module compiled again replaces its own). */
  artifacts: () => ReadonlyMap<string, ModuleArtifactFile>
  /**
   * How this build ends: its summary line; or, where `include` matched no module, the warning that
   * says so (a `BuildError` where `failOn` is `warning`); nothing after a failure.
   */
  end: () => { summary?: string, warning?: string }
}

/** A build of tool modules with resolved options; one per plugin instance or `flatmcp build` run. */
export function createBuild(options: ResolvedOptions): BuildSession {
  const compiler = createModuleCompiler(options)
  const claimToolNames = createToolOwners()
  const artifacts = new Map<string, ModuleArtifactFile>()
  /** This build's modules (by file) and the warnings said, for its summary line. */
  const built = new Map<string, CachedModule>()
  let warned = 0
  let failed = false

  const fail = (error: BuildError): never => {
    failed = true
    throw error
  }

  return {
    begin() {
      built.clear()
      warned = 0
      failed = false
    },
    async compile(file, { fresh = false } = {}) {
      const path = modulePath(options.root, file)
      let module: CachedModule
      try {
        module = fresh ? (await compiler.compileFresh(file)).result : await compiler.compile(file)
        claimToolNames(path, module)
      }
      catch (error) {
        return fail(new BuildError(await describeFailure(error, file, options.root), definitionFault(error) ? 1 : 2))
      }
      const warnings: string[] = []
      for (const warning of warningsOf(module, path)) {
        if (failsBuild({ severity: 'warning' }, options.failOn))
          fail(new BuildError(warning, 1))
        warned++
        if (!options.quiet)
          warnings.push(warning)
      }
      built.set(file, module)
      const artifact = options.artifacts && yieldsAnything(module) ? { fileName: options.artifacts.fileName(path), text: module.artifact } : undefined
      if (artifact)
        artifacts.set(path, artifact)
      return { module, path, warnings, ...(artifact ? { artifact } : {}) }
    },
    artifacts: () => artifacts,
    end() {
      if (failed)
        return {}
      if (built.size === 0) {
        const warning = nothingMatchedWarning(options.include)
        if (failsBuild({ severity: 'warning' }, options.failOn))
          fail(new BuildError(warning, 1))
        return options.quiet ? {} : { warning }
      }
      const modules = [...built.values()]
      return options.quiet ? {} : { summary: buildSummary(modules, options.artifacts ? modules.filter(yieldsAnything).length : 0, warned) }
    },
  }
}
