import type { BuildOptions, OutputFile, PluginBuild } from 'esbuild'
import type { UnpluginFactory } from 'unplugin'
import type { ModuleTool } from './compile/compile-module'
import type { CachedModule } from './load/module-cache'
import type { Options, ResolvedOptions } from './options'
import path from 'node:path'
import { toOriginalSchema } from '@flatmcp/core'
import { compileModuleTools, ToolCompileError } from './compile/compile-module'
import { artifactText } from './emit/artifact'
import { injectedCode } from './emit/inject'
import { writeFileAtomic } from './emit/write-atomic'
import { evaluateModule, ModuleLoadError } from './load/evaluate-module'
import { locateExport } from './load/locate-export'
import { contentHash, ModuleCache } from './load/module-cache'
import { packageVersion } from './load/package-version'
import { resolveOptions } from './options'

const NAME = 'unplugin-flatmcp'
const VERSION = packageVersion(NAME)
/** Where Vite's dev server serves artifacts (they are also written under the cache folder). */
export const DEV_ARTIFACTS_PATH = '/@flatmcp/'

interface Extend {
  schema: unknown
  /** Recorded in artifacts: where it came from and its JSON Schema. */
  descriptor: { module?: string, export?: string, schema: unknown }
  dependencies: string[]
}

function posix(file: string): string {
  return file.split(path.sep).join('/')
}

/** A build error naming file, line and column of the export, export, tool and JSON path. */
async function describeFailure(error: unknown, file: string, root: string): Promise<string> {
  const relative = posix(path.relative(root, file))
  if (error instanceof ToolCompileError) {
    const at = await locateExport(file, error.exportName)
    const where = at ? `${relative}:${at.line}:${at.column}` : relative
    return `${where}: export "${error.exportName}"${error.tool ? `, tool "${error.tool}"` : ''}${error.path ? `, at ${error.path}` : ''}: ${error.message}`
  }
  if (error instanceof ModuleLoadError) {
    const where = `${posix(path.relative(root, error.file))}${error.line ? `:${error.line}:${error.column}` : ''}`
    return `${where}: ${error.message}`
  }
  return `${relative}: ${error instanceof Error ? error.message : String(error)}`
}

/**
 * The plugin: compiles each tool module at build time, appends its tools' precomputed data to the
 * module, and emits one `*.mcp.json` artifact per module.
 */
export const unpluginFactory: UnpluginFactory<Options | undefined> = (rawOptions, meta) => {
  let options: ResolvedOptions = resolveOptions(rawOptions)
  let cache: ModuleCache | undefined
  let extend: Promise<Extend | undefined> | undefined
  let viteServe = false
  /** Per module (relative path): its artifact file name and text. */
  const artifacts = new Map<string, { fileName: string, text: string }>()
  /** Which module defines each tool name, to catch duplicates across modules. */
  const owners = new Map<string, string>()

  const loadExtend = (): Promise<Extend | undefined> => extend ??= (async () => {
    const source = options.extend
    if (!source)
      return undefined
    if ('schema' in source)
      return { schema: source.schema, descriptor: { schema: toOriginalSchema(source.schema).schema }, dependencies: [] }
    const file = path.resolve(options.root, source.module)
    const exportName = source.export ?? 'extend'
    const loaded = await evaluateModule(file, options.root, options.cacheDir)
    const schema = loaded.exports[exportName]
    if (schema === undefined)
      throw new ModuleLoadError(file, undefined, undefined, `the extend option names export "${exportName}", which this module does not have`)
    return {
      schema,
      descriptor: { module: posix(path.relative(options.root, file)), export: exportName, schema: toOriginalSchema(schema).schema },
      dependencies: loaded.dependencies.map(dep => posix(path.relative(options.root, dep))),
    }
  })()

  const moduleCache = async (): Promise<ModuleCache> => {
    if (!cache) {
      const ext = await loadExtend()
      const salt = JSON.stringify([NAME, VERSION, packageVersion('@flatmcp/core'), packageVersion('@flatmcp/runtime'), packageVersion('zod', options.root), options.profile, options.coercion, options.failOn, ext?.descriptor ?? null])
      cache = new ModuleCache(options.root, options.cacheDir, salt)
    }
    return cache
  }

  async function compileModule(file: string): Promise<CachedModule> {
    const module = posix(path.relative(options.root, file))
    const modules = await moduleCache()
    const hit = modules.get(module)
    if (hit)
      return hit
    const ext = await loadExtend()
    const loaded = await evaluateModule(file, options.root, options.cacheDir)
    const tools: ModuleTool[] = compileModuleTools(loaded.exports, options, ext?.schema)
    const dependencies = [...loaded.dependencies.map(dep => posix(path.relative(options.root, dep))), ...ext?.dependencies ?? []]
    const hash = contentHash(options.root, dependencies, '')
    const result: CachedModule = {
      hash,
      dependencies,
      injected: injectedCode(tools),
      tools: tools.map(t => t.precomputed.tool.name),
      artifact: artifactText({
        generator: { name: NAME, version: VERSION },
        module,
        hash,
        options: { profile: options.profile, coercion: options.coercion, extend: ext?.descriptor ?? null },
        tools,
      }),
    }
    modules.set(module, result)
    return result
  }

  function claimToolNames(module: string, tools: string[]): string | undefined {
    for (const [tool, owner] of owners) {
      if (owner === module)
        owners.delete(tool)
    }
    for (const tool of tools) {
      const owner = owners.get(tool)
      if (owner !== undefined)
        return `tool "${tool}" is also defined in ${owner}; tool names must be unique across modules`
      owners.set(tool, module)
    }
    return undefined
  }

  /** Tool modules (absolute) by each project file they are made of (absolute): for Vite's watcher. */
  const dependents = new Map<string, Set<string>>()

  /** Compiles a module (or takes it from the cache) and records its artifact and tool names. */
  async function refresh(file: string): Promise<CachedModule> {
    const result = await compileModule(file)
    const module = posix(path.relative(options.root, file))
    const duplicate = claimToolNames(module, result.tools)
    if (duplicate)
      throw new Error(duplicate)
    for (const dependency of result.dependencies) {
      const absolute = path.resolve(options.root, dependency)
      dependents.set(absolute, (dependents.get(absolute) ?? new Set()).add(file))
    }
    if (options.artifacts && result.tools.length > 0) {
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
        const file = id.replace(/[?#].*$/, '')
        let result: CachedModule
        try {
          result = await refresh(file)
        }
        catch (error) {
          return this.error(await describeFailure(error, file, options.root))
        }
        for (const dependency of result.dependencies)
          this.addWatchFile(path.resolve(options.root, dependency))
        return { code: code + result.injected, map: null }
      },
    },
    buildEnd() {
      // esbuild writes its artifacts in its own onEnd (it may have only `outfile`, or `write: false`);
      // Vite in its writeBundle (its server builds drop emitted assets).
      if (meta.framework === 'esbuild' || meta.framework === 'vite' || !options.artifacts)
        return
      for (const { fileName, text } of artifacts.values())
        this.emitFile({ type: 'asset', fileName: posix(path.join(options.artifacts.dir, fileName)), source: text })
    },
    vite: {
      configResolved(config) {
        options = resolveOptions(rawOptions, config.root)
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
