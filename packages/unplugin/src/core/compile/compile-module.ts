import type { CompiledTool, Diagnostic, JsonPointer, ToolDefinition, ToolSchemaPart } from '@flatmcp/core'
import type { PrecomputedTool } from '@flatmcp/runtime'
import type { ResolvedOptions } from '../options'
import { CompileError, compileTool } from '@flatmcp/core'
import { isToolDefinition, toPrecomputed } from '@flatmcp/runtime'

export interface ModuleTool {
  /** Where the module exports it: `send`, `default`, `tools[1]`, `tools.send`. */
  exportName: string
  definition: ToolDefinition
  compiled: CompiledTool
  precomputed: PrecomputedTool
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

/** The warning for a module the plugin's `include` matched that yields no tool. */
export function noToolsWarning(module: string): string {
  return `${module} exports no tool made with defineTool (looked at its exports, the default export, and the items of exported arrays and plain objects); no artifact is written for it. Export its tools, or leave it out of the plugin's \`include\`.`
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null)
    return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/**
 * The tools a module exports, each once, named by where it is exported: its own exports (the default
 * export included) first, then the items of exported arrays and the values of exported plain objects.
 */
export function exportedTools(exports: Record<string, unknown>): { exportName: string, definition: ToolDefinition }[] {
  const found: { exportName: string, definition: ToolDefinition }[] = []
  const seen = new Set<unknown>()
  const add = (value: unknown, exportName: string): void => {
    if (isToolDefinition(value) && !seen.has(value)) {
      seen.add(value)
      found.push({ exportName, definition: value as ToolDefinition })
    }
  }
  for (const [name, value] of Object.entries(exports))
    add(value, name)
  for (const [name, value] of Object.entries(exports)) {
    if (Array.isArray(value))
      value.forEach((item, index) => add(item, `${name}[${index}]`))
    else if (isPlainObject(value) && !isToolDefinition(value))
      Object.entries(value).forEach(([key, item]) => add(item, `${name}.${key}`))
  }
  return found
}

/** Compiles every tool an evaluated module exports (see `exportedTools`). */
export function compileModuleTools(exports: Record<string, unknown>, options: ResolvedOptions, extendSchema: unknown): ModuleTool[] {
  const tools: ModuleTool[] = []
  for (const { exportName, definition } of exportedTools(exports)) {
    let compiled: CompiledTool
    try {
      compiled = compileTool(definition, { profile: options.profile, extend: extendSchema === undefined ? undefined : { schema: extendSchema } })
    }
    catch (error) {
      if (error instanceof CompileError)
        throw new ToolCompileError(exportName, error.tool, error.schema, error.path, error.reason)
      throw new ToolCompileError(exportName, definition.name, undefined, undefined, (error as Error).message)
    }
    const failing = compiled.diagnostics.find(d => failsBuild(d, options.failOn))
    if (failing)
      throw new ToolCompileError(exportName, compiled.name, failing.schema, failing.path, `${failing.severity} ${failing.code}: ${failing.message}`)
    const twin = tools.find(t => t.compiled.name === compiled.name)
    if (twin)
      throw new ToolCompileError(exportName, compiled.name, undefined, undefined, `tool name "${compiled.name}" is also used by export "${twin.exportName}" of this module; tool names must be unique`)
    const precomputed = toPrecomputed(compiled)
    if (!options.coercion)
      precomputed.coercion = {}
    tools.push({ exportName, definition, compiled, precomputed })
  }
  return tools
}
