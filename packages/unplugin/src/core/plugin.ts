// The plugin's hooks over one build session (`build-session.ts`): what is the bundler's here is only
// where warnings, errors and artifacts go (its own warnings, `emitFile`, esbuild's `onEnd`, Vite's
// `writeBundle` and dev server), and which files its watcher follows.
import type { BuildOptions, OutputFile, PluginBuild } from 'esbuild'
import type { UnpluginFactory } from 'unplugin'
import type { BuildSession, CompiledModule } from './pipeline/session'
import type { Options, ResolvedOptions } from './options'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { BuildError, createBuild } from './pipeline/session'
import { NAME } from './pipeline/module-compiler'
import { writeFileAtomic } from './write-atomic'
import { posix } from './load/module-path'
import { resolveOptions } from './options'

/** Where Vite's dev server serves artifacts (they are also written under the cache folder). */
export const DEV_ARTIFACTS_PATH = '/@flatmcp/'

/** What a tool module's file may end with, for the dev server to find the module an artifact comes from. */
const MODULE_EXTENSIONS = ['.ts', '.mts', '.tsx', '.js', '.mjs', '.jsx']

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
  let session: BuildSession | undefined
  let viteServe = false

  /** Tool modules (absolute) by each project file they are made of (absolute): for Vite's watcher. */
  const dependents = new Map<string, Set<string>>()

  /** Compiles a module (or takes it from the cache), records what it is made of, and, in Vite dev, writes its artifact. */
  async function refresh(file: string): Promise<CompiledModule> {
    session ??= createBuild(options)
    const compiled = await session.compile(file)
    for (const dependency of compiled.module.dependencies) {
      const absolute = path.resolve(options.root, dependency)
      dependents.set(absolute, (dependents.get(absolute) ?? new Set()).add(file))
    }
    if (viteServe && compiled.artifact)
      writeFileAtomic(path.join(options.cacheDir, 'artifacts', compiled.artifact.fileName), compiled.artifact.text)
    return compiled
  }

  function emitTo(dir: string, write: (file: string, text: string) => void): void {
    if (!options.artifacts || !session)
      return
    for (const { fileName, text } of session.artifacts().values())
      write(path.join(dir, options.artifacts.dir, fileName), text)
  }

  return {
    name: NAME,
    enforce: 'pre',
    transform: {
      filter: { id: { include: options.include, exclude: options.exclude } },
      async handler(code, id) {
        const file = id.replace(/[?#].*$/, '')
        let compiled: CompiledModule
        try {
          compiled = await refresh(file)
        }
        catch (error) {
          return this.error(error instanceof BuildError ? buildError(error.message) : error as Error)
        }
        for (const dependency of compiled.module.dependencies)
          this.addWatchFile(path.resolve(options.root, dependency))
        for (const warning of compiled.warnings)
          this.warn(warning)
        return { code: code + compiled.module.injected, map: null }
      },
    },
    buildStart() {
      session ??= createBuild(options)
      session.begin()
    },
    buildEnd() {
      // A dev server transforms modules as they are asked for: at its end, nothing may have been.
      if (!viteServe) {
        session ??= createBuild(options)
        let end: ReturnType<BuildSession['end']>
        try {
          end = session.end()
        }
        catch (error) {
          throw new Error(`[${NAME}] ${(error as Error).message}`, { cause: error })
        }
        if (end.warning !== undefined)
          console.warn(`[${NAME}] ${end.warning}`)
        if (end.summary !== undefined)
          console.log(end.summary)
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
        session = undefined
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
          if (!url.startsWith(DEV_ARTIFACTS_PATH))
            return next()
          const wanted = decodeURIComponent(url.slice(DEV_ARTIFACTS_PATH.length))
          const artifact = (): { text: string } | undefined => [...(session?.artifacts().values() ?? [])].find(a => a.fileName === wanted)
          // Not yet asked for by anyone: its module goes through Vite's transform now (the plugin's
          // include and exclude decide, as for any module), and its artifact is served if it has one.
          const ready = artifact() ? Promise.resolve() : transformModuleOf(wanted)
          ready.then(() => {
            const served = artifact()
            if (!served)
              return next()
            res.setHeader('content-type', 'application/json')
            res.end(served.text)
          }, next)
        })
        /** The tool module an artifact's name comes from (`src/a.tools.mcp.json` ← `src/a.tools.ts`), transformed where there is one. */
        async function transformModuleOf(fileName: string): Promise<void> {
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
