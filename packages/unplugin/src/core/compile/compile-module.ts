import type { CompiledTool, Diagnostic, JsonPointer, ToolDefinition } from '@flatmcp/core'
import type { PrecomputedTool } from '@flatmcp/runtime'
import type { ResolvedOptions } from '../options'
import { CompileError, compileTool } from '@flatmcp/core'
import { isToolDefinition, toPrecomputed } from '@flatmcp/runtime'

export interface ModuleTool {
  exportName: string
  compiled: CompiledTool
  precomputed: PrecomputedTool
}

/** A tool of a module cannot be compiled: which export, which tool, where in its schema. */
export class ToolCompileError extends Error {
  constructor(readonly exportName: string, readonly tool: string | undefined, readonly path: JsonPointer | undefined, reason: string) {
    super(reason)
    this.name = 'ToolCompileError'
  }
}

const RANK: Record<Diagnostic['severity'], number> = { info: 0, warning: 1, error: 2 }

/** True when a diagnostic is at or above the severity that fails the build. */
export function failsBuild(diagnostic: Diagnostic, failOn: ResolvedOptions['failOn']): boolean {
  return failOn !== 'never' && RANK[diagnostic.severity] >= RANK[failOn]
}

/** Compiles every exported tool of an evaluated module, in export order. */
export function compileModuleTools(exports: Record<string, unknown>, options: ResolvedOptions, extendSchema: unknown): ModuleTool[] {
  const tools: ModuleTool[] = []
  for (const [exportName, value] of Object.entries(exports)) {
    if (!isToolDefinition(value))
      continue
    let compiled: CompiledTool
    try {
      compiled = compileTool(value as ToolDefinition, { profile: options.profile, extend: extendSchema === undefined ? undefined : { schema: extendSchema } })
    }
    catch (error) {
      if (error instanceof CompileError)
        throw new ToolCompileError(exportName, error.tool, error.path, error.message)
      throw new ToolCompileError(exportName, (value as ToolDefinition).name, undefined, (error as Error).message)
    }
    const failing = compiled.diagnostics.find(d => failsBuild(d, options.failOn))
    if (failing)
      throw new ToolCompileError(exportName, compiled.name, failing.path, `${failing.severity} ${failing.code} in ${failing.schema}: ${failing.message}`)
    const precomputed = toPrecomputed(compiled)
    if (!options.coercion)
      precomputed.coercion = {}
    tools.push({ exportName, compiled, precomputed })
  }
  return tools
}

