// A compiled tool (the compiler's `CompiledTool`) as the precomputed data a build attaches to a tool
// and an artifact holds: the MCP `Tool` it lists, and what `tools/call` needs in each profile.
import type { CompiledTool } from '@flatmcp/core'
import type { McpTool, PrecomputedTool, ProfiledTool } from './format'

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
