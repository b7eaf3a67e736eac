// The compiler, loaded only where the build left nothing precomputed (tests, code run without the
// plugin, an upstream's list): `@flatmcp/core` by a specifier bundlers leave alone, so a build with
// precomputed data never pulls the compiler into the bundle.
import type * as Compiler from '@flatmcp/core'
import type { CompiledTool } from '@flatmcp/core'
import type { PrecomputedTool, ProfiledTool } from '../artifact/format'
import type { ToolDefinition } from '../tool/define-tool'
import { toPrecomputed, toProfiled } from '../artifact/precomputed'
import { nodeBuiltin } from '../util/node-builtin'
import { registeredCount } from './registry'

// A variable, not a literal: bundlers leave this require alone.
const COMPILER = '@flatmcp/core'

/**
 * The compiler, for what the build did not precompute (`subject` names it in the error). Loaded
 * with Node's `require`, which loads ES modules from Node 20.19: `flat()`'s `jsonSchema.input()` is
 * synchronous, so the compiler must be too.
 */
export function loadCompiler(subject: string): typeof Compiler {
  type ModuleApi = { createRequire: (url: string) => (id: string) => unknown }
  const moduleApi = nodeBuiltin<ModuleApi>('node:module')
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
    console.warn(registeredCount() > 0
      ? `flatmcp: tool "${tool.name}" has no precomputed schema, though the build precomputed others: its module was not matched by the plugin's \`include\` (default: *.tools.ts/.mts/.js/.mjs). Compiling at start-up.`
      : `flatmcp: tool "${tool.name}" has no precomputed schema; compiling at start-up. Build with unplugin-flatmcp to skip this (if the build used it, its \`include\` matched no tool module: the build said so).`)
  }
  return toPrecomputed(compileNow(tool, extendSchema))
}

/** Compiled in the serving process: its examples made from the JSON Schema alone, so no transform or refine of the author's runs on a made-up value. */
function compileNow(tool: ToolDefinition, extendSchema: unknown, profile?: string): CompiledTool {
  return loadCompiler(`tool "${tool.name}"`).compileTool(tool, { examples: 'schema', ...(extendSchema === undefined ? {} : { extend: { schema: extendSchema } }), ...(profile === undefined ? {} : { profile: profile as Compiler.ProfileName }) })
}

/** A tool compiled at start-up, compiled for one more profile when a session first asks for it. */
export function compileProfileLazily(tool: ToolDefinition, extendSchema: unknown, profile: string): ProfiledTool {
  return toProfiled(compileNow(tool, extendSchema, profile))
}
