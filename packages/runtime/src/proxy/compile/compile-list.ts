// An upstream's tool list compiled as a build compiles a module's tools, in one place for the proxy,
// `flatmcp snapshot` and the probe: the preset told over the whole list (on the watched compiler
// thread, within its time bound), each tool compiled in the base and every profile asked for, a tool
// compiled before (a snapshot's, the last list version's) taken as it was.
import type * as Compiler from '@flatmcp/core'
import type { PrecomputedTool, ProxiedTool, SchemaHashes, ToolOrigin } from '../../artifact/format'
import type { UpstreamEntry } from './read-list'
import { schemaHash } from '../../service/schema-hash'
import { listedTool } from '../../service/tools'
import { ownValue } from '../../util/object'
import { timerMs } from '../../util/wait'
import { compileList } from './bounded-compile'
import { THREAD_MEMORY_MB } from './compiler-thread'
import { compiledKey, servedAsIs } from './compile-upstream'
import { loadCompiler } from '../../precomputed/compiler'
import { BUDGETED_PROFILE, overBudget, sameTools, withinStrictBudget } from './strict-budget'

export interface CompileListOptions {
  /** The parser the upstream's schemas were written for. Default: `auto`, told over the whole list. */
  preset?: Compiler.PresetName | 'auto'
  /** The target profiles to compile besides `portable`. Default: none. */
  profiles?: readonly Compiler.ProfileName[]
  /** Bounds on compiling one upstream tool. */
  compile?: {
    /** Milliseconds one tool's compile may take (on a watched thread, where Node's are at hand). Default: 10,000. */
    timeoutMs?: number
    /** The compiler thread's heap, in megabytes. Default: 1,024. */
    memoryMb?: number
    /** A schema whose JSON text is longer (the upstream's, or a compiled form) is served as it came. Default: 262,144. */
    maxSchemaBytes?: number
  }
  /**
   * Points of Anthropic's combined strict grammar the anthropic-strict tools may spend together (the
   * compiler's `DEFAULT_STRICT_BUDGET` where not given); the tools left out are served as portable there.
   */
  strictBudget?: number
  /**
   * Each tool's server and own name where many servers are served as one (the gateway's name map): the
   * strict budget gives each server an equal share first. None: the list is one server's.
   */
  originOf?: (name: string) => ToolOrigin | undefined
  /**
   * Tools compiled before, with the preset they were read with (and the strict budget they were chosen
   * within, where one was given): one of the same definition and preset is taken as it is, not compiled.
   */
  known?: readonly { preset: Compiler.PresetName, tools: readonly ProxiedTool[], strictBudget?: number }[]
}

/** An upstream's list, compiled: the preset it was read with, and each tool in the list's order. */
export interface CompiledUpstreamList {
  preset: Compiler.PresetName
  /** Each tool, compiled now or taken from `known` (the very object given there). */
  tools: ProxiedTool[]
}

export const DEFAULT_COMPILE = { timeoutMs: 10_000, memoryMb: THREAD_MEMORY_MB, maxSchemaBytes: 262_144 }

/** Compiles an upstream's well-formed tools (`readUpstreamList`'s), each once per definition and preset. */
export async function compileUpstreamList(entries: readonly UpstreamEntry[], options: CompileListOptions = {}): Promise<CompiledUpstreamList> {
  const limits = { ...DEFAULT_COMPILE, ...options.compile }
  limits.timeoutMs = timerMs(limits.timeoutMs, 'compile.timeoutMs')
  const known = new Map<string, ProxiedTool>()
  for (const { preset, tools, strictBudget } of options.known ?? []) {
    // One served non-strict for the budget is compiled again unless the same list is chosen within the same budget.
    const same = strictBudget === options.strictBudget && sameTools(tools, entries)
    for (const tool of tools.filter(tool => same || !overBudget(tool)))
      known.set(compiledKey(preset, tool.name, tool.upstream.digest), tool)
  }
  // A tool too deep to read is served as it came, and not handed to the compiler at all; under a
  // preset given, one compiled before is taken as it is without waking the compiler (a snapshot's
  // tools: no compiler thread at start-up). Under `auto` the whole list tells the preset first.
  const preset = options.preset ?? 'auto'
  const compiling = entries.filter(entry => entry.uncompiled === undefined && (preset === 'auto' || !known.has(compiledKey(preset, entry.tool.name, entry.digest))))
  const compiled = compiling.length === 0 && preset !== 'auto' ? { preset, tools: [] } : await compileList({
    tools: compiling.map(entry => entry.tool),
    digests: compiling.map(entry => entry.digest),
    preset,
    profiles: [...(options.profiles ?? [])],
    maxSchemaBytes: limits.maxSchemaBytes,
    known: [...known.keys()],
  }, limits)
  const byEntry = new Map(compiling.map((entry, i) => [entry, compiled.tools[i]]))
  const profiles = ['portable', ...(options.profiles ?? []).filter(profile => profile !== 'portable')]
  const listed = entries.map((entry): ProxiedTool | Omit<ProxiedTool, 'schemaHash'> => {
    const { tool, digest } = entry
    const made = entry.uncompiled === undefined ? byEntry.get(entry) ?? null : servedAsIs(tool, entry.uncompiled)
    return made === null ? known.get(compiledKey(compiled.preset, tool.name, digest))! : { ...made!, upstream: { digest, tool } }
  })
  const compiler = profiles.includes(BUDGETED_PROFILE) ? loadCompiler('a proxied tool') : undefined
  const budgeted = compiler ? withinStrictBudget(compiler, listed, options.strictBudget ?? compiler.DEFAULT_STRICT_BUDGET, options.originOf) : listed
  return {
    preset: compiled.preset,
    // A tool taken as it was keeps its hashes; one compiled now, or served otherwise for the budget, is hashed.
    tools: await Promise.all(budgeted.map(async (tool, i) => tool === listed[i] && 'schemaHash' in tool ? tool : { ...tool, schemaHash: await schemaHashes(tool.precomputed, profiles) })),
  }
}

/** A tool's `schemaHash` as each profile lists it. */
async function schemaHashes(precomputed: PrecomputedTool, profiles: readonly string[]): Promise<SchemaHashes> {
  const hashes = await Promise.all(profiles.map(profile => schemaHash(listedTool(precomputed, profile === 'portable' ? undefined : ownValue(precomputed.profiles, profile)))))
  return Object.fromEntries(profiles.map((profile, i) => [profile, hashes[i]!]))
}
