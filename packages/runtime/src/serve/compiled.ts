import type * as Compiler from '@flatmcp/core'
import type { CoercionPlan, CompiledTool } from '@flatmcp/core'
import type { ToolDefinition } from '../define-tool'
import { warnIfStale } from './stale-artifact'
import { malformedSchema, malformedTool } from './tool-shape'

/** A tool as `tools/list` returns it. */
export interface McpTool {
  name: string
  title?: string
  description?: string
  inputSchema: { type: 'object', [key: string]: unknown }
  outputSchema?: { type: 'object', [key: string]: unknown }
  annotations?: Record<string, unknown>
  _meta?: Record<string, unknown>
}

/** A tool in one target profile: its advertised input and the inverse map back to the original's. */
export interface ProfiledTool {
  inputSchema: McpTool['inputSchema']
  coercion: CoercionPlan
  /** Places advertised as JSON text, parsed back before `coercion`. */
  decode?: CoercionPlan
  /** For a strict profile: false when the tool could not meet it (its schema is then the base one). */
  strict?: boolean
}

/** What the build precomputes for a tool: its MCP description and what `tools/call` needs. */
export interface PrecomputedTool {
  tool: McpTool
  coercion: CoercionPlan
  discriminator?: string
  slices?: { params?: string[], extend?: string[] }
  /** The tool in the other profiles the build asked for, by profile name (the base is `tool`). */
  profiles?: Record<string, ProfiledTool>
  /** A non-object output goes as `structuredContent: { result: … }`, as its `outputSchema` says. */
  outputWrap?: 'result'
}

/** Where precomputed data hangs on a tool definition (put there by the build, or by `attachCompiled`). */
export const COMPILED: unique symbol = Symbol.for('flatmcp.compiled')

export function attachCompiled<T extends ToolDefinition>(tool: T, data: PrecomputedTool): T {
  Object.defineProperty(tool, COMPILED, { value: data, enumerable: false, configurable: true })
  return tool
}

/** Precomputed tools by name, registered by the code the build adds to each tool module. */
function registry(): Map<string, PrecomputedTool> {
  const global = globalThis as { [REGISTRY]?: Map<string, PrecomputedTool> }
  return global[REGISTRY] ??= new Map()
}
const REGISTRY = Symbol.for('flatmcp.precomputed')

/** Called by the build's generated code: the precomputed data of a module's tools, by tool name. */
export function registerPrecomputed(tools: Record<string, PrecomputedTool>): void {
  for (const [name, data] of Object.entries(tools))
    registry().set(name, data)
}

/**
 * Registers the tools of a `*.mcp.json` artifact (`flatmcp build`'s output), parsed, for a server run
 * without a bundler: what the plugin's appended code does, from the file instead. Load it as you
 * like (`import artifact from './dist/src/chat.tools.mcp.json' with { type: 'json' }`). Every schema
 * it would serve, in every profile, is checked first: an artifact of another shape, or one edited
 * into something a client refuses, is a TypeError naming the tool, the profile and the field, at
 * start-up rather than on every `tools/list`. Its tools are served as the artifact has them, so keep
 * it current (`flatmcp probe` checks); in development (Node, `NODE_ENV` not `production`), where the
 * module it was built from is at hand under `root` (default: the working directory), an artifact
 * older than its sources is said once on stderr.
 */
export function registerArtifact(artifact: unknown, options: { root?: string } = {}): void {
  const a = artifact as { tools?: unknown, runtime?: unknown } | null
  if (typeof a !== 'object' || a === null || !Array.isArray(a.tools) || typeof a.runtime !== 'object' || a.runtime === null)
    throw new TypeError('registerArtifact: not a flatmcp artifact (it needs "tools", a list, and "runtime", an object, as `flatmcp build` writes them)')
  const runtime = a.runtime as Record<string, Omit<PrecomputedTool, 'tool'> & { export?: string } | undefined>
  const tools: Record<string, PrecomputedTool> = {}
  for (const [index, tool] of (a.tools as McpTool[]).entries()) {
    const named = typeof tool?.name === 'string' ? `tool "${tool.name}"` : `tools[${index}]`
    const wrong = malformedTool(tool)
    if (wrong !== undefined)
      throw new TypeError(`registerArtifact: ${named}: ${wrong}`)
    const data = Object.prototype.hasOwnProperty.call(runtime, tool.name) ? runtime[tool.name] : undefined
    if (!isRecord(data) || !isRecord(data.coercion))
      throw new TypeError(`registerArtifact: ${named} has no "runtime" entry with a "coercion" plan`)
    if (data.profiles !== undefined && !isRecord(data.profiles))
      throw new TypeError(`registerArtifact: ${named}: its runtime "profiles" is not an object`)
    for (const [profile, form] of Object.entries(data.profiles ?? {}) as [string, unknown][]) {
      const where = `${named}, profile "${profile}"`
      const schema = isRecord(form) ? malformedSchema(form.inputSchema, 'inputSchema') : 'it is not an object'
      if (schema !== undefined)
        throw new TypeError(`registerArtifact: ${where}: ${schema}`)
      const plans = form as Record<string, unknown>
      if (!isRecord(plans.coercion) || (plans.decode !== undefined && !isRecord(plans.decode)))
        throw new TypeError(`registerArtifact: ${where}: its "coercion" (and "decode", where there is one) is not a plan`)
    }
    const { export: _export, ...rest } = data
    tools[tool.name] = { tool, ...rest }
  }
  registerPrecomputed(tools)
  warnIfStale(a as { module?: unknown, hash?: unknown, files?: unknown }, options.root)
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

export function precomputedOf(tool: ToolDefinition): PrecomputedTool | undefined {
  return (tool as unknown as Record<symbol, PrecomputedTool | undefined>)[COMPILED] ?? registry().get(tool.name)
}

/** One compiled tool as a profile's entry of `profiles`. */
export function toProfiled(compiled: CompiledTool): ProfiledTool {
  const data: ProfiledTool = { inputSchema: compiled.inputSchema as McpTool['inputSchema'], coercion: compiled.coercion }
  if (compiled.decode !== undefined)
    data.decode = compiled.decode
  if (compiled.strict !== undefined)
    data.strict = compiled.strict
  return data
}

/**
 * The precomputed form of a compiled tool: what a build attaches and what artifacts hold. `others`
 * are the same tool compiled for more profiles (each with its `profile` name).
 */
export function toPrecomputed(compiled: CompiledTool, others: readonly CompiledTool[] = []): PrecomputedTool {
  const tool: McpTool = { name: compiled.name, inputSchema: compiled.inputSchema as McpTool['inputSchema'] }
  if (compiled.title !== undefined)
    tool.title = compiled.title
  if (compiled.description !== undefined)
    tool.description = compiled.description
  if (compiled.outputSchema !== undefined)
    tool.outputSchema = compiled.outputSchema as McpTool['outputSchema']
  if (compiled.annotations !== undefined)
    tool.annotations = compiled.annotations
  if (compiled._meta !== undefined)
    tool._meta = compiled._meta
  const data: PrecomputedTool = { tool, coercion: compiled.coercion }
  if (compiled.outputWrap !== undefined)
    data.outputWrap = compiled.outputWrap
  if (compiled.discriminator !== undefined)
    data.discriminator = compiled.discriminator
  if (compiled.slices !== undefined)
    data.slices = compiled.slices
  if (others.length > 0)
    data.profiles = Object.fromEntries(others.map(other => [other.profile ?? 'portable', toProfiled(other)]))
  return data
}

// A variable, not a literal: bundlers leave this require alone, so a build with precomputed data
// never pulls the compiler into the bundle.
const COMPILER = '@flatmcp/core'

/**
 * The compiler, for what the build did not precompute (`subject` names it in the error). Loaded
 * with Node's `require`, which loads ES modules from Node 20.19: `flat()`'s `jsonSchema.input()` is
 * synchronous, so the compiler must be too.
 */
export function loadCompiler(subject: string): typeof Compiler {
  type ModuleApi = { createRequire: (url: string) => (id: string) => unknown }
  const moduleApi = (globalThis as { process?: { getBuiltinModule?: (id: string) => ModuleApi | undefined } }).process?.getBuiltinModule?.('node:module')
  try {
    if (!moduleApi)
      throw new Error('this runtime has no Node module loader')
    return moduleApi.createRequire(import.meta.url)(COMPILER) as typeof Compiler
  }
  catch (error) {
    // The first line only: Node's "Require stack" lists the server's file paths, and this message can reach a client.
    const reason = String((error as Error).message).split('\n')[0]!.replace(/[.:]$/, '')
    throw new Error(`flatmcp: ${subject} has no precomputed data, and compiling it needs ${COMPILER} (in Node 20.19+): ${reason}. Build with unplugin-flatmcp, or install ${COMPILER}.`, { cause: error })
  }
}

let warned = false

/** Compiles a tool at start-up when the build did not precompute it (tests, code run without the plugin). */
export async function compileLazily(tool: ToolDefinition, extendSchema: unknown): Promise<PrecomputedTool> {
  if (!warned) {
    warned = true
    // Other tools with precomputed data mean the plugin ran, but not on this tool's module.
    console.warn(registry().size > 0
      ? `flatmcp: tool "${tool.name}" has no precomputed schema, though the build precomputed others: its module was not matched by the plugin's \`include\` (default: *.tools.ts/.mts/.js/.mjs). Compiling at start-up.`
      : `flatmcp: tool "${tool.name}" has no precomputed schema; compiling at start-up. Build with unplugin-flatmcp to skip this (if the build used it, its \`include\` matched no tool module: the build said so).`)
  }
  return toPrecomputed(compileNow(tool, extendSchema))
}

function compileNow(tool: ToolDefinition, extendSchema: unknown, profile?: string): CompiledTool {
  return loadCompiler(`tool "${tool.name}"`).compileTool(tool, { ...(extendSchema === undefined ? {} : { extend: { schema: extendSchema } }), ...(profile === undefined ? {} : { profile: profile as Compiler.ProfileName }) })
}

/** A tool compiled at start-up, compiled for one more profile when a session first asks for it. */
export function compileProfileLazily(tool: ToolDefinition, extendSchema: unknown, profile: string): ProfiledTool {
  return toProfiled(compileNow(tool, extendSchema, profile))
}
