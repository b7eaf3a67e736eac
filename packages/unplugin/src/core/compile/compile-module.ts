import type { CompiledTool, Diagnostic, ElicitationForm, JsonPointer, ProfileName, SchemaConverters, ToolDefinition, ToolDiagnostic, ToolSchemaPart } from '@flatmcp/core'
import type { FlatData, PrecomputedTool } from '@flatmcp/runtime'
import type { ResolvedOptions } from '../options'
import type { CachedModule } from '../load/module-cache'
import { yieldsAnything } from '../load/module-cache'
import type { ToolTokens } from './tokens'
import { CompileError, compileForm, compileInProfiles, compileTool, FormError, toOriginalSchema } from '@flatmcp/core'
import { isElicitForm, isFlatSchema, isToolDefinition, toPrecomputed } from '@flatmcp/runtime'
import { isObject, isPlainObject } from '../util'
import { toolTokens } from './tokens'

export interface ModuleTool {
  /** Where the module exports it: `send`, `default`, `tools[1]`, `tools.send`. */
  exportName: string
  definition: ToolDefinition
  /** Compiled for the base profile. */
  compiled: CompiledTool
  /** Compiled for each other profile the build asks for. */
  others: CompiledTool[]
  precomputed: PrecomputedTool
  /** What its definition costs a model, per profile, beside the original's. */
  tokens: ToolTokens
}

/** A tool of a module cannot be compiled: which export, which tool, where in its schema. */
export class ToolCompileError extends Error {
  constructor(
    readonly exportName: string,
    readonly tool: string | undefined,
    readonly part: ToolSchemaPart | undefined,
    readonly path: JsonPointer | undefined,
    reason: string,
  ) {
    super(reason)
    this.name = 'ToolCompileError'
  }
}

const RANK: Record<Diagnostic['severity'], number> = { info: 0, warning: 1, error: 2 }

/** True when a diagnostic (or a severity) is at or above the severity that fails the build. */
export function failsBuild(diagnostic: Pick<Diagnostic, 'severity'>, failOn: ResolvedOptions['failOn']): boolean {
  return failOn !== 'never' && RANK[diagnostic.severity] >= RANK[failOn]
}

/** The warning for a `flat()` or `elicitForm()` export the appended code cannot name (it is then compiled at run time). */
export function unreachableWarning(module: string, exportName: string): string {
  return `${module}: the schema exported as "${exportName}" is compiled when first used, not at build time: the build attaches precomputed data only to values declared where they are exported (\`export const name = flat(…)\` or \`elicitForm(…)\`, or an array or object declared so).`
}

/** The warning for a module the plugin's `include` matched that yields no tool and no `flat()` schema. */
/** The warning for a build in which `include` matched no module at all: nothing was precomputed. */
export function nothingMatchedWarning(include: unknown): string {
  const patterns = (Array.isArray(include) ? include : [include]).map(pattern => String(pattern)).join(', ')
  return `no module matched the plugin's \`include\` (${patterns}): no tool was precomputed and no artifact written, so the server compiles its tools at start-up. Name tool modules *.tools.ts (the default), or set \`include\` to match them.`
}

export function noToolsWarning(module: string): string {
  return `${module} exports no tool made with defineTool, no flat() schema and no elicitForm() (looked at its exports, the default export, and the items of exported arrays and plain objects); no artifact is written for it. Export them, or leave it out of the plugin's \`include\`.`
}

/** The warnings a compiled module gives the build: its own, or that it gave nothing to precompute. */
export function warningsOf(result: CachedModule, module: string): string[] {
  return yieldsAnything(result) ? result.warnings : [noToolsWarning(module)]
}

/**
 * The values a module exports that `accepts`, each once, named by where it is exported: its own
 * exports (the default export included) first, then the items of exported arrays and the values of
 * exported plain objects.
 */
function exportedValues<T>(exports: Record<string, unknown>, accepts: (value: unknown) => value is T): { exportName: string, value: T }[] {
  const found: { exportName: string, value: T }[] = []
  const seen = new Set<unknown>()
  const add = (value: unknown, exportName: string): void => {
    if (accepts(value) && !seen.has(value)) {
      seen.add(value)
      found.push({ exportName, value })
    }
  }
  for (const [name, value] of Object.entries(exports))
    add(value, name)
  for (const [name, value] of Object.entries(exports)) {
    if (Array.isArray(value))
      value.forEach((item, index) => add(item, `${name}[${index}]`))
    else if (isPlainObject(value) && !accepts(value))
      Object.entries(value).forEach(([key, item]) => add(item, `${name}.${key}`))
  }
  return found
}

/** The tools a module exports (see `exportedValues`). */
export function exportedTools(exports: Record<string, unknown>): { exportName: string, definition: ToolDefinition }[] {
  return exportedValues(exports, (value): value is ToolDefinition => isToolDefinition(value)).map(({ exportName, value }) => ({ exportName, definition: value }))
}

/** A `flat()` value a module exports, compiled: what the build attaches to it and lists in the artifact. */
export interface ModuleFlat {
  exportName: string
  name: string
  profile: ProfileName
  data: FlatData
  /** The original schema `flat()` wraps (for the probe; not written anywhere). */
  schema: unknown
  /** What the compiler said of it below the failing severity. */
  diagnostics: readonly Diagnostic[]
}

/** Compiles every `flat()` value a module exports (see `exportedValues`), with the profile it asks for. */
export function compileModuleFlats(exports: Record<string, unknown>, options: ResolvedOptions, converters: SchemaConverters = {}): ModuleFlat[] {
  return exportedValues(exports, isFlatSchema).map(({ exportName, value }) => {
    const name = value.options.name ?? exportName
    const profile = value.options.profile ?? options.profile
    let compiled: CompiledTool
    try {
      compiled = compileTool({ name, input: value.schema, handler: () => undefined } as ToolDefinition, { profile, converters, preset: options.preset, examples: options.examples })
    }
    catch (error) {
      throw error instanceof CompileError
        ? new ToolCompileError(exportName, undefined, 'input', error.path, error.reason)
        : new ToolCompileError(exportName, undefined, undefined, undefined, (error as Error).message)
    }
    const failing = compiled.diagnostics.find(d => failsBuild(d, options.failOn))
    if (failing)
      throw new ToolCompileError(exportName, undefined, 'input', failing.path, `${failing.severity} ${failing.code}: ${failing.message}`)
    const data: FlatData = { inputSchema: compiled.inputSchema, coercion: options.coercion || compiled.profile ? compiled.coercion : {} }
    if (compiled.decode !== undefined)
      data.decode = compiled.decode
    if (compiled.discriminator !== undefined)
      data.discriminator = compiled.discriminator
    try {
      data.outputSchema = toOriginalSchema(value.schema, 'output', converters).schema as Record<string, unknown>
    }
    catch {
      // No JSON for the output (a transform): `output()` says so at run time, as without the build.
    }
    return { exportName, name, profile, data, schema: value.schema, diagnostics: compiled.diagnostics }
  })
}

/** An `elicitForm()` value a module exports, as forms: what the build attaches to it and lists in the artifact. */
export interface ModuleForm {
  exportName: string
  name: string
  form: ElicitationForm
}

/** Compiles every `elicitForm()` value a module exports (see `exportedValues`); what no form can hold is an error naming the path. */
export function compileModuleForms(exports: Record<string, unknown>, converters: SchemaConverters = {}): ModuleForm[] {
  return exportedValues(exports, isElicitForm).map(({ exportName, value }) => {
    try {
      return { exportName, name: value.name, form: compileForm(value.schema, converters) }
    }
    catch (error) {
      throw error instanceof FormError
        ? new ToolCompileError(exportName, undefined, 'input', error.path, `no elicitation form can ask this: ${error.reason}`)
        : new ToolCompileError(exportName, undefined, undefined, undefined, (error as Error).message)
    }
  })
}

/** Where in a module something is said: the export, the tool, the schema part and the JSON path. */
export interface ToolPlace {
  exportName: string
  tool?: string | undefined
  part?: ToolSchemaPart | undefined
  path?: JsonPointer | undefined
}

/** A tool whose listing passes this many tokens (in its heaviest profile) is said: a client sends it with every request. */
export const HEAVY_TOOL_TOKENS = 5_000

/** The root key of an input schema that takes the most of it, in JSON characters, and what that is. */
function heaviestKey(schema: unknown): string {
  const properties = isObject(schema) && isObject(schema.properties) ? Object.entries(schema.properties) : []
  // Each key's size measured once (a 5,000-value enum is long to write out).
  const [key, node, size] = properties.map(([name, value]) => [name, value, JSON.stringify(value)?.length ?? 0] as const).reduce<readonly [string, unknown, number] | undefined>((best, next) => best === undefined || next[2] > best[2] ? next : best, undefined) ?? []
  if (key === undefined)
    return ''
  const values = isObject(node) && Array.isArray(node.enum) ? ` (an enum of ${node.enum.length.toLocaleString('en-US')} values)` : ''
  const share = Math.round(size! / Math.max(1, JSON.stringify(schema).length) * 100)
  return `; ${share}% of its schema is "${key}"${values}`
}

/** The tools of a module whose listing passes `HEAVY_TOOL_TOKENS`, each a warning at its place. */
export function heavyTools(tools: readonly ModuleTool[]): (ToolPlace & { message: string })[] {
  return tools.flatMap((tool) => {
    const [profile, tokens] = Object.entries(tool.tokens.profiles).sort(([, a], [, b]) => b - a)[0] ?? ['', 0]
    if (tokens <= HEAVY_TOOL_TOKENS)
      return []
    const message = `heavy-tool: listed in ${tokens.toLocaleString('en-US')} tokens (${profile}, o200k_base), over ${HEAVY_TOOL_TOKENS.toLocaleString('en-US')}: a client sends it with every request${heaviestKey(tool.compiled.inputSchema)}. Take a long list of values as a string the handler checks, or split the tool`
    return [{ exportName: tool.exportName, tool: tool.compiled.name, part: 'input' as const, message }]
  })
}

/**
 * What the compiler said of a module's tools and `flat()` schemas that the build shows (warnings and,
 * with `failOn: never`, errors), each once: one said in some profiles only names them.
 */
export function moduleDiagnostics(tools: readonly ModuleTool[], flats: readonly ModuleFlat[]): (ToolPlace & { message: string })[] {
  const said = new Map<string, ToolPlace & { diagnostic: Diagnostic, profiles: string[] }>()
  const add = (place: ToolPlace, diagnostic: Diagnostic, profile: string): void => {
    if (RANK[diagnostic.severity] < RANK.warning)
      return
    const key = JSON.stringify([place.exportName, place.part, diagnostic.path, diagnostic.code, diagnostic.message])
    const entry = said.get(key)
    if (entry)
      entry.profiles.push(profile)
    else
      said.set(key, { ...place, path: diagnostic.path, diagnostic, profiles: [profile] })
  }
  const built = new Map<string, number>()
  for (const tool of tools) {
    const compiled = [tool.compiled, ...tool.others]
    built.set(tool.exportName, compiled.length)
    for (const result of compiled) {
      for (const diagnostic of result.diagnostics)
        add({ exportName: tool.exportName, tool: result.name, part: (diagnostic as ToolDiagnostic).schema }, diagnostic, result.profile ?? 'portable')
    }
  }
  for (const flat of flats) {
    built.set(flat.exportName, 1)
    for (const diagnostic of flat.diagnostics)
      add({ exportName: flat.exportName, part: 'input' }, diagnostic, flat.profile)
  }
  return [...said.values()].map(({ diagnostic, profiles, ...place }) => {
    const some = profiles.length < built.get(place.exportName)! ? ` (${profiles.join(', ')})` : ''
    // Said as a warning already: only an error (under `failOn: never`) names its severity.
    return { ...place, message: `${diagnostic.severity === 'warning' ? '' : `${diagnostic.severity} `}${diagnostic.code}${some}: ${diagnostic.message}` }
  })
}

/** Compiles every tool an evaluated module exports (see `exportedTools`). */
export function compileModuleTools(exports: Record<string, unknown>, options: ResolvedOptions, extendSchema: unknown, converters: SchemaConverters = {}): ModuleTool[] {
  const tools: ModuleTool[] = []
  for (const { exportName, definition } of exportedTools(exports)) {
    const extend = extendSchema === undefined ? undefined : { schema: extendSchema }
    // A tool that cannot be served fails here, at its file and line, not at the server's first request.
    if (typeof (definition as { handler?: unknown }).handler !== 'function')
      throw new ToolCompileError(exportName, definition.name, undefined, undefined, `has no handler: give defineTool a handler(input, context) that returns the tool's result`)
    let profiled: [CompiledTool, ...CompiledTool[]]
    try {
      profiled = compileInProfiles(definition, options.profiles, { profile: options.profile, extend, converters, preset: options.preset, examples: options.examples })
    }
    catch (error) {
      if (error instanceof CompileError)
        throw new ToolCompileError(exportName, error.tool, error.schema, error.path, error.reason)
      throw new ToolCompileError(exportName, definition.name, undefined, undefined, (error as Error).message)
    }
    for (const result of profiled) {
      const failing = result.diagnostics.find(d => failsBuild(d, options.failOn))
      if (failing)
        throw new ToolCompileError(exportName, result.name, failing.schema, failing.path, `${failing.severity} ${failing.code}${result.profile ? ` (${result.profile})` : ''}: ${failing.message}`)
    }
    const [compiled, ...others] = profiled
    const twin = tools.find(t => t.compiled.name === compiled.name)
    if (twin)
      throw new ToolCompileError(exportName, compiled.name, undefined, undefined, `tool name "${compiled.name}" is also used by export "${twin.exportName}" of this module; tool names must be unique`)
    const precomputed = toPrecomputed(compiled, others)
    // Only the base plan goes: a target profile's plan is its inverse map, without which its answers would not parse.
    if (!options.coercion)
      precomputed.coercion = {}
    tools.push({ exportName, definition, compiled, others, precomputed, tokens: toolTokens(definition, [compiled, ...others], options.profile, converters) })
  }
  return tools
}
