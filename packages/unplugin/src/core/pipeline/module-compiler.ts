import type { PresetName, SchemaConverters } from '@flatmcp/core'
import type { ModuleFlat, ModuleTool, ToolPlace } from '../compile/compile-module'
import type { ToolOwner } from './tool-owners'
import type { CachedModule } from '../load/module-cache'
import type { ResolvedOptions } from '../options'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { toOriginalSchema } from '@flatmcp/core'
import { loadConverters } from '../load/schema-converters'
import { artifactText } from '../emit/module-artifact'
import { injectedCode } from '../emit/inject'
import { evaluateModule, ModuleLoadError } from '../load/evaluate-module'
import { locateTool } from '../load/locate-export'
import { contentHash, ModuleCache } from '../load/module-cache'
import { modulePath } from '../load/module-path'
import { libraryOptionsKey, profileKey, profileName } from '../options'
import { codeFingerprint, packageVersion } from '../load/package-version'
import { crossCheck } from '../check/cross-check'
import { compileModuleFlats, compileModuleForms, compileModuleTools, heavyTools, moduleDiagnostics, ToolCompileError, unreachableWarning } from '../compile/compile-module'
import { loadTokenizer } from '../compile/tokens'
import { DuplicateToolError } from './tool-owners'

export const NAME = 'unplugin-flatmcp'
export const VERSION = packageVersion(NAME)
/** The compiler's own code: the plugin, core and runtime as installed (or as rebuilt in a checkout). */
const COMPILER_CODE = ['.', '@flatmcp/core', '@flatmcp/runtime'].map(codeFingerprint).join('+')

interface Extend {
  schema: unknown
  /** Recorded in artifacts: where it came from and its JSON Schema. */
  descriptor: { module?: string, export?: string, schema: unknown }
  dependencies: string[]
  packages: string[]
}


/**
 * A build error naming the file and the line and column of the failing schema (else of the tool or
 * the export), the export, the tool, and the schema part and JSON path.
 */
export async function describeFailure(error: unknown, file: string, root: string): Promise<string> {
  const relative = modulePath(root, file)
  if (error instanceof ToolCompileError)
    return describeAt(file, root, error, error.message)
  if (error instanceof DuplicateToolError) {
    const where = async ({ module, exportName }: ToolOwner): Promise<string> => {
      const at = await locateTool(path.resolve(root, module), exportName)
      return `${module}${at ? `:${at.line}:${at.column}` : ''}`
    }
    return `${await where(error.here)}: export "${error.here.exportName}", tool "${error.tool}": ${error.message}; also used by export "${error.other.exportName}" (${await where(error.other)})`
  }
  if (error instanceof ModuleLoadError) {
    const where = `${modulePath(root, error.file)}${error.line ? `:${error.line}:${error.column}` : ''}`
    return `${where}: ${error.message}`
  }
  return `${relative}: ${error instanceof Error ? error.message : String(error)}`
}

/** What is said of a tool, at its place: file, line and column, export, tool, schema part and JSON path. */
export async function describeAt(file: string, root: string, at: ToolPlace, message: string): Promise<string> {
  const relative = modulePath(root, file)
  const found = await locateTool(file, at.exportName, at.part, at.path)
  const where = found ? `${relative}:${found.line}:${found.column}` : relative
  const place = at.part ? `, ${at.part}${at.path ? ` at ${at.path}` : ''}` : at.path ? `, at ${at.path}` : ''
  return `${where}: export "${at.exportName}"${at.tool ? `, tool "${at.tool}"` : ''}${place}: ${message}`
}

/** A module compiled afresh: its result, and what it is made of (its exports, its compiled tools). */
export interface FreshModule {
  result: CachedModule
  exports: Record<string, unknown>
  tools: ModuleTool[]
  flats: ModuleFlat[]
  extendSchema: unknown
  /** The schema libraries' converters loaded from the project (for `toOriginalSchema` on these tools). */
  converters: SchemaConverters
  /** The preset JSON Schema inputs were read with. */
  preset: PresetName | 'auto'
}

export interface ModuleCompiler {
  /** Evaluates and compiles a tool module, or takes the result from the cache when nothing changed. */
  compile: (file: string) => Promise<CachedModule>
  /** Evaluates and compiles a tool module, bypassing the cache; `{ again: true }` evaluates it anew, as a second process would. */
  compileFresh: (file: string, how?: { again?: boolean }) => Promise<FreshModule>
}

/** The extend option's schema, evaluated from its module where it names one, with what it is made of. */
async function extendOf(options: ResolvedOptions, loadedConverters: () => Promise<SchemaConverters>): Promise<Extend | undefined> {
  const source = options.extend
  if (!source)
    return undefined
  if ('schema' in source)
    return { schema: source.schema, descriptor: { schema: toOriginalSchema(source.schema, 'input', await loadedConverters()).schema }, dependencies: [], packages: [] }
  const file = path.resolve(options.root, source.module)
  const exportName = source.export ?? 'extend'
  const loaded = await evaluateModule(file, options.root, options.cacheDir, options.moduleTimeout)
  const schema = loaded.exports[exportName]
  if (schema === undefined)
    throw new ModuleLoadError(file, undefined, undefined, `the extend option names export "${exportName}", which this module does not have`)
  return {
    schema,
    descriptor: { module: modulePath(options.root, file), export: exportName, schema: toOriginalSchema(schema, 'input', await loadedConverters()).schema },
    dependencies: loaded.dependencies.map(dep => modulePath(options.root, dep)),
    packages: loaded.packages.map(dep => modulePath(options.root, dep)),
  }
}

/** What a cached module was compiled with: a change of any of it compiles every module anew. */
function cacheSalt(options: ResolvedOptions, ext: Extend | undefined): string {
  return JSON.stringify([NAME, VERSION, packageVersion('@flatmcp/core'), packageVersion('@flatmcp/runtime'), COMPILER_CODE, packageVersion('zod', options.root), packageVersion('@valibot/to-json-schema', options.root), libraryOptionsKey(options.libraryOptions), options.preset, options.profile, options.profiles.map(profileKey), options.coercion, options.examples, options.failOn, ext?.descriptor ?? null])
}

/**
 * The pipeline shared by the plugin and the CLI: evaluate a tool module, compile its tools, make the
 * code appended to it and its artifact text. Same options in, same bytes out.
 */
export function createModuleCompiler(options: ResolvedOptions): ModuleCompiler {
  let cache: ModuleCache | undefined
  let extend: Promise<Extend | undefined> | undefined
  let converters: Promise<SchemaConverters> | undefined
  const loadedConverters = (): Promise<SchemaConverters> => converters ??= loadConverters(options.root, options.libraryOptions)

  const loadExtend = (): Promise<Extend | undefined> => extend ??= extendOf(options, loadedConverters)

  const moduleCache = async (): Promise<ModuleCache> => {
    if (!cache) {
      const ext = await loadExtend()
      cache = new ModuleCache(options.root, options.cacheDir, cacheSalt(options, ext))
    }
    return cache
  }

  async function compileFresh(file: string, how: { again?: boolean } = {}): Promise<FreshModule> {
    const module = modulePath(options.root, file)
    const ext = await loadExtend()
    const loaded = await evaluateModule(file, options.root, options.cacheDir, options.moduleTimeout, how.again ? 'again' : '')
    const found = await loadedConverters()
    await loadTokenizer()
    const tools: ModuleTool[] = compileModuleTools(loaded.exports, options, ext?.schema, found)
    const flats = compileModuleFlats(loaded.exports, options, found)
    const forms = compileModuleForms(loaded.exports, found)
    await crossCheck(tools, flats, ext?.schema, found, options.preset)
    const injected = injectedCode(tools, flats, forms, readFileSync(file, 'utf8'))
    const dependencies = [...loaded.dependencies.map(dep => modulePath(options.root, dep)), ...ext?.dependencies ?? []]
    const packages = [...new Set([...loaded.packages.map(dep => modulePath(options.root, dep)), ...ext?.packages ?? []])].sort()
    const hash = contentHash(options.root, dependencies, '')
    const result: CachedModule = {
      dependencies,
      packages,
      injected: injected.code,
      tools: tools.map(t => t.precomputed.tool.name),
      flats: flats.map(f => f.exportName),
      forms: forms.map(f => f.exportName),
      warnings: [
        ...await Promise.all([...moduleDiagnostics(tools, flats), ...heavyTools(tools)].map(said => describeAt(file, options.root, said, said.message))),
        ...injected.unreachable.map(exportName => unreachableWarning(module, exportName)),
      ],
      artifact: artifactText({
        generator: { name: NAME, version: VERSION },
        module,
        hash,
        files: dependencies,
        options: { profile: options.profile, ...(options.profiles.length === 0 ? {} : { profiles: options.profiles.map(profileName) }), ...(options.preset === 'auto' ? {} : { preset: options.preset }), coercion: options.coercion, ...(options.examples ? {} : { examples: false as const }), extend: ext?.descriptor ?? null },
        tools,
        flats,
        forms,
      }),
    }
    return { result, exports: loaded.exports, tools, flats, extendSchema: ext?.schema, converters: found, preset: options.preset }
  }

  async function compile(file: string): Promise<CachedModule> {
    const module = modulePath(options.root, file)
    const modules = await moduleCache()
    const hit = modules.get(module)
    if (hit)
      return hit
    const { result } = await compileFresh(file)
    modules.set(module, result)
    return result
  }

  return { compile, compileFresh }
}


