// Where a server finds each tool's precomputed data: on the definition itself (a build attached it),
// or registered by tool name (the code a build appends to a tool module, or an artifact read at
// start-up). Nothing here compiles.
import type { PrecomputedTool } from '../artifact/format'
import type { ToolDefinition } from '../tool/define-tool'
import { isSnapshot, readModuleArtifact } from '../artifact/read'
import { warnIfStale } from '../artifact/stale'

/** Where precomputed data hangs on a tool definition (put there by the build, or by `attachCompiled`). */
export const COMPILED: unique symbol = Symbol.for('flatmcp.compiled')

export function attachCompiled<T extends ToolDefinition>(tool: T, data: PrecomputedTool): T {
  Object.defineProperty(tool, COMPILED, { value: data, enumerable: false, configurable: true })
  return tool
}

const REGISTRY = Symbol.for('flatmcp.precomputed')

/** Precomputed tools by name, registered by the code the build adds to each tool module. */
function registry(): Map<string, PrecomputedTool> {
  const global = globalThis as { [REGISTRY]?: Map<string, PrecomputedTool> }
  return global[REGISTRY] ??= new Map()
}

/** How many tools are registered by name: some means the build ran, if not on every module. */
export function registeredCount(): number {
  return registry().size
}

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
  if (isSnapshot(artifact))
    throw new TypeError('registerArtifact: this is a snapshot of an upstream server (flatmcp snapshot\'s), not a module\'s artifact: serve it with flatmcp proxy --artifact, createProxy({ snapshot }) or the fetch handler')
  let read: ReturnType<typeof readModuleArtifact>
  try {
    read = readModuleArtifact(artifact)
  }
  catch (error) {
    throw new TypeError(`registerArtifact: ${(error as Error).message}`, { cause: error })
  }
  registerPrecomputed(Object.fromEntries(read.tools.map(tool => [tool.tool.name, tool])))
  warnIfStale(read.artifact, options.root)
}

export function precomputedOf(tool: ToolDefinition): PrecomputedTool | undefined {
  return (tool as unknown as Record<symbol, PrecomputedTool | undefined>)[COMPILED] ?? registry().get(tool.name)
}
