import type { CachedModule } from '../load/module-cache'

/** Where a tool is defined: its module (relative to the root) and export. */
export interface ToolOwner {
  module: string
  exportName: string
}

/** Two exports define one tool name; `describeFailure` names both, with their lines. */
export class DuplicateToolError extends Error {
  constructor(readonly tool: string, readonly here: ToolOwner, readonly other: ToolOwner) {
    super('tool names must be unique, since the runtime and MCP clients find tools by name')
    this.name = 'DuplicateToolError'
  }
}

/** A compiled module's tools with the exports that define them, as its artifact records them. */
export function toolExports(module: string, result: CachedModule): (ToolOwner & { tool: string })[] {
  const runtime = (JSON.parse(result.artifact) as { runtime?: Record<string, { export: string }> }).runtime ?? {}
  return result.tools.map(tool => ({ tool, module, exportName: runtime[tool]?.export ?? '?' }))
}

/**
 * Which module and export define each tool name, across a build: a name defined twice throws a
 * `DuplicateToolError`. A module compiled again releases its names first.
 */
export function createToolOwners(): (module: string, result: CachedModule) => void {
  const owners = new Map<string, ToolOwner>()
  return (module, result) => {
    for (const [tool, owner] of owners) {
      if (owner.module === module)
        owners.delete(tool)
    }
    for (const { tool, exportName } of toolExports(module, result)) {
      const other = owners.get(tool)
      if (other !== undefined)
        throw new DuplicateToolError(tool, { module, exportName }, other)
      owners.set(tool, { module, exportName })
    }
  }
}
