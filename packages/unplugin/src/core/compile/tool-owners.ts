/**
 * Which module defines each tool name: a name defined by two modules is an error, since the runtime
 * and MCP clients find tools by name. A module compiled again releases its names first.
 */
export function createToolOwners(): (module: string, tools: string[]) => string | undefined {
  const owners = new Map<string, string>()
  return (module, tools) => {
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
}
