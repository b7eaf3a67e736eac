import type { ModuleTool } from '../compile/compile-module'

/**
 * What the build appends to a tool module: the precomputed data of its tools, registered by tool
 * name with the runtime, so `createMcpServer` serves them without compiling anything.
 */
export function injectedCode(tools: ModuleTool[]): string {
  if (tools.length === 0)
    return ''
  const data = Object.fromEntries(tools.map(t => [t.precomputed.tool.name, t.precomputed]))
  return `\nimport { registerPrecomputed as __flatmcpRegister } from '@flatmcp/runtime'\n__flatmcpRegister(${JSON.stringify(data)})\n`
}
