import type { BuildOptions, OutputFile, PluginBuild } from 'esbuild'
import type { UnpluginFactory } from 'unplugin'
import type { ModuleCompiler } from './compile/module-compiler'
import type { CachedModule } from './load/module-cache'
import type { Options, ResolvedOptions } from './options'
import path from 'node:path'
import { failsBuild, nothingMatchedWarning, warningsOf } from './compile/compile-module'
import { createModuleCompiler, describeFailure, NAME } from './compile/module-compiler'
import { buildSummary } from './compile/summary'
import { createToolOwners } from './compile/tool-owners'
import { writeFileAtomic } from './emit/write-atomic'
import { yieldsAnything } from './load/module-cache'
import { modulePath, posix } from './load/module-path'
import { resolveOptions } from './options'

/** Where Vite's dev server serves artifacts (they are also written under the cache folder). */
export const DEV_ARTIFACTS_PATH = '/@flatmcp/'

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

/**
 * The plugin: compiles each tool module at build time, appends its tools' precomputed data to the
 * module, and emits one `*.mcp.json` artifact per module.
 */
export const unpluginFactory: UnpluginFactory<Options | undefined> = (rawOptions, meta) => {
  let options: ResolvedOptions = resolveOptions(rawOptions)
  let modules: ModuleCompiler | undefined
  let viteServe = false
  /** Per module (relative path): its artifact file name and text. */
  const artifacts = new Map<string, { fileName: string, text: string }>()
  const claimToolNames = createToolOwners()

  /** Modules `include` matched in this build: none at its end is a warning. */
  let matched = 0
  /** This build's compiled modules (by file) and the warnings said, for its summary line. */
  const built = new Map<string, CachedModule>()
  let warned = 0
  /** A build this plugin failed says its error, not a summary. */
  let failed = false

  /** Tool modules (absolute) by each project file they are made of (absolute): for Vite's watcher. */
  const dependents = new Map<string, Set<string>>()

  /** Compiles a module (or takes it from the cache) and records its artifact and tool names. */
  async function refresh(file: string): Promise<CachedModule> {
    modules ??= createModuleCompiler(options)
    const result = await modules.compile(file)
    const module = modulePath(options.root, file)
    claimToolNames(module, result)
    for (const dependency of result.dependencies) {
      const absolute = path.resolve(options.root, dependency)
      dependents.set(absolute, (dependents.get(absolute) ?? new Set()).add(file))
    }
    if (options.artifacts && yieldsAnything(result)) {
      const fileName = options.artifacts.fileName(module)
      artifacts.set(module, { fileName, text: result.artifact })
      if (viteServe)
        writeFileAtomic(path.join(options.cacheDir, 'artifacts', fileName), result.artifact)
    }
    return result
  }

  function emitTo(dir: string, write: (file: string, text: string) => void): void {
    if (!options.artifacts)
      return
    for (const { fileName, text } of artifacts.values())
      write(path.join(dir, options.artifacts.dir, fileName), text)
  }

  return {
    name: NAME,
    enforce: 'pre',
    transform: {
      filter: { id: { include: options.include, exclude: options.exclude } },
      async handler(code, id) {
        matched++
        const file = id.replace(/[?#].*$/, '')
        let result: CachedModule
        try {
          result = await refresh(file)
        }
        catch (error) {
          failed = true
          return this.error(buildError(await describeFailure(error, file, options.root)))
        }
        for (const dependency of result.dependencies)
          this.addWatchFile(path.resolve(options.root, dependency))
        for (const warning of warningsOf(result, modulePath(options.root, file))) {
          if (failsBuild({ severity: 'warning' }, options.failOn)) {
            failed = true
            return this.error(buildError(warning))
          }
          warned++
          if (!options.quiet)
            this.warn(warning)
        }
        built.set(file, result)
        return { code: code + result.injected, map: null }
      },
    },
    buildStart() {
      matched = 0
      warned = 0
      failed = false
      built.clear()
    },
    buildEnd() {
      // A dev server transforms modules as they are asked for: at its end, nothing may have been.
      if (matched === 0 && !viteServe) {
        const warning = nothingMatchedWarning(options.include)
        if (failsBuild({ severity: 'warning' }, options.failOn))
          throw new Error(`[${NAME}] ${warning}`)
        if (!options.quiet)
          console.warn(`[${NAME}] ${warning}`)
      }
      else if (!viteServe && !failed && !options.quiet) {
        const modules = [...built.values()]
        console.log(buildSummary(modules, options.artifacts ? modules.filter(yieldsAnything).length : 0, warned))
      }
      // esbuild writes its artifacts in its own onEnd (it may have only `outfile`, or `write: false`);
      // Vite in its writeBundle (its server builds drop emitted assets).
      if (meta.framework === 'esbuild' || meta.framework === 'vite')
        return
      emitTo('', (fileName, source) => this.emitFile({ type: 'asset', fileName: posix(fileName), source }))
    },
    vite: {
      configResolved(config) {
        options = resolveOptions(rawOptions, config.root)
        modules = undefined
        viteServe = config.command === 'serve'
      },
      writeBundle(output) {
        if (output.dir)
          emitTo(output.dir, writeFileAtomic)
      },
      configureServer(server) {
        // An edit to a tool module or to any file it imports refreshes the artifact at once and makes
        // Vite transform the module again on its next load.
        server.watcher.on('change', (changed) => {
          for (const file of dependents.get(path.resolve(changed)) ?? []) {
            for (const environment of Object.values(server.environments)) {
              for (const node of environment.moduleGraph.getModulesByFile(file) ?? [])
                environment.moduleGraph.invalidateModule(node)
            }
            refresh(file).catch((error: unknown) => server.config.logger.error(`[${NAME}] ${error instanceof Error ? error.message : String(error)}`))
          }
        })
        server.middlewares.use((req, res, next) => {
          const url = req.url?.split('?')[0] ?? ''
          const served = url.startsWith(DEV_ARTIFACTS_PATH) && [...artifacts.values()].find(a => a.fileName === decodeURIComponent(url.slice(DEV_ARTIFACTS_PATH.length)))
          if (!served)
            return next()
          res.setHeader('content-type', 'application/json')
          res.end(served.text)
        })
      },
    },
    esbuild: {
      setup(build: PluginBuild) {
        build.onEnd((result) => {
          if (result.errors.length > 0)
            return
          const initial: BuildOptions = build.initialOptions
          const cwd = initial.absWorkingDir ?? process.cwd()
          const dir = path.resolve(cwd, initial.outdir ?? (initial.outfile ? path.dirname(initial.outfile) : '.'))
          if (initial.write === false) {
            emitTo(dir, (file, text) => {
              const contents = new TextEncoder().encode(text)
              result.outputFiles?.push({ path: file, contents, text, hash: '' } as OutputFile)
            })
          }
          else {
            emitTo(dir, writeFileAtomic)
          }
        })
      },
    },
  }
}
