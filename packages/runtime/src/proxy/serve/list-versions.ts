// The upstream's list as the proxy serves it, one version per list the upstream gave: read (with the
// operator's overrides), matched against the snapshot, only what is new compiled, each fallback said
// once, and served as a tool service whose calls go upstream. A version is made whole before it
// replaces the one served.
import type * as Compiler from '@flatmcp/core'
import type { ProxiedTool, Snapshot } from '../../artifact/format'
import type { McpServerOptions } from '../../service/options'
import type { UnknownToolCall } from '../../service/tool-service'
import type { ToolDefinition } from '../../tool/define-tool'
import type { Validator } from '../compile/chooser'
import type { CompileListOptions } from '../compile/compile-list'
import type { FixedParameter } from '../compile/overrides'
import type { Drift } from '../compile/snapshot-drift'
import type { SearchOptions } from '../../search/tool-search'
import type { UpstreamClient } from '../upstream/upstream'
import type { ServedOverrides } from './served-overrides'
import type { ServedTools } from './served-tools'
import type { Surface, SurfaceChoice } from '../../service/options'
import { unknownTool } from '../../host/sdk-v2'
import { compileUpstreamList } from '../compile/compile-list'
import { fallbacksOf, isServed } from '../compile/fallbacks'
import { checkFixed } from '../compile/overrides'
import type { OperatorLog } from '../../util/log'
import { shown } from '../../util/log'
import { definedOf } from '../../util/object'
import { readUpstream, readUpstreamList } from '../compile/read-list'
import { describeDrift, driftOf, sameList } from '../compile/snapshot-drift'
import { servedTools } from './served-tools'

/** What the proxy says of one tool it serves. */
export interface ServedTool {
  served: 'compiled' | 'as-is'
  /** Why it is served as it came. */
  reason?: string
  /** Served from the snapshot, without compiling. */
  fromSnapshot: boolean
  diagnostics: readonly Compiler.ToolDiagnostic[]
}

/** One version of the list, as served. */
export interface ListVersion {
  served: ServedTools
  tools: Map<string, ServedTool>
  /** What is served, in the list's order. */
  listed: ProxiedTool[]
  /** Every tool compiled for this list version (those left out by `onInvalid: 'drop'` too): what the next one reuses. */
  compiled: ProxiedTool[]
  preset: Compiler.PresetName
  drift: Drift
  /** Each tool's fixed parameters (overrides), with the upstream's schema of each. */
  fixed: Map<string, Record<string, FixedParameter>>
  /** The tools the overrides name and the upstream does not list. */
  unmatched: string[]
}

export interface ListVersionsOptions {
  snapshot?: { snapshot: Snapshot, tools: ProxiedTool[] }
  /** Tools compiled before (`ProxyOptions.known`): taken where a live tool's definition is theirs. */
  known?: { snapshot: Snapshot, tools: ProxiedTool[] }
  preset?: Compiler.PresetName
  profiles: Compiler.ProfileName[]
  served: ServedOverrides
  /** The list's cache scope over the upstream's (`private` where callers present credentials). */
  cacheScope?: 'public' | 'private'
  timeoutMs: number
  validator?: Validator
  onInvalid?: 'serve' | 'drop'
  frozen?: boolean
  compile?: CompileListOptions['compile']
  strictBudget?: number
  profile: McpServerOptions['profile']
  /** Which caller is served which tools (see `McpServerOptions.rules`). */
  rules?: McpServerOptions['rules']
  outputs?: 'compiled' | 'unlisted'
  surface?: Surface
  countTokens?: (text: string) => number
  /** The handler of each tool: its call forwarded. */
  handler: (name: string) => ToolDefinition['handler']
  /** The tools whose output schema is no longer listed, across list versions. */
  withdrawn: Set<string>
  /** Told when a tool's output schema is withdrawn (the list changed). */
  listChanged: () => void
  log: OperatorLog
}

export interface ListVersions {
  /** The version served now: none before the first list is compiled. */
  current: () => ListVersion | undefined
  /** Reads and compiles the upstream's list anew, and serves it: false where the tools served are as they were. */
  refresh: () => Promise<boolean>
  /** Serves the snapshot's tools as the upstream listed them when it was made, until the upstream lists its own. */
  ahead: () => Promise<void>
}

/** An upstream's list as read: its tools with their digests, its cache hints, and each tool's fixed parameters. */
type ReadList = Awaited<ReturnType<typeof readUpstream>>

/** The list versions of one upstream. */
export function listVersions(upstream: UpstreamClient, options: ListVersionsOptions): ListVersions {
  let current: ListVersion | undefined
  const { snapshot, log } = options
  const fromSnapshot = new Set(snapshot?.tools ?? [])
  async function refresh(): Promise<boolean> {
    const before = current
    current = await versionOf(await readUpstream(upstream, { timeoutMs: options.timeoutMs, log, ...(options.served.overrides ? { overrides: options.served.overrides } : {}) }))
    return before === undefined || !sameList(before.listed, current.listed)
  }
  async function ahead(): Promise<void> {
    // The definitions it records were read with its overrides already: read again as they are.
    const recorded = snapshot?.tools.map(tool => tool.upstream.tool) ?? []
    current = await versionOf({ entries: await readUpstreamList(recorded, () => {}), hints: {}, fixed: new Map(Object.entries(snapshot?.snapshot.overrides?.fixed ?? {})), unmatched: [], listed: [] })
  }
  async function versionOf({ entries, hints, fixed, unmatched, listed }: ReadList): Promise<ListVersion> {
    checkFixed(fixed, options.validator)
    const drift = snapshot ? driftOf(snapshot.tools, new Map(entries.map(entry => [entry.tool.name, entry.digest]))) : { changed: [], added: [], removed: [] }
    const frozenOut = new Set(options.frozen ? [...drift.changed, ...drift.added] : [])
    // The snapshot's tools, and the last list version's, cost nothing to keep: only what is new is compiled.
    // Of the tools compiled before a start, only those compiled: one served as it came (a compile past its time) is tried again.
    const before = [snapshot, options.known && { ...options.known, tools: options.known.tools.filter(tool => tool.served !== 'as-is') }]
    const known = [...before.flatMap(made => made ? [{ preset: made.snapshot.options.preset, tools: made.tools, ...definedOf(made.snapshot.options, ['strictBudget']) }] : []), ...(current ? [{ preset: current.preset, tools: current.compiled, ...definedOf(options, ['strictBudget']) }] : [])]
    const list = await compileUpstreamList(entries.filter(entry => !frozenOut.has(entry.tool.name)), { preset: options.preset ?? presetKnown(options.known, entries), profiles: options.profiles, ...(options.compile ? { compile: options.compile } : {}), ...(options.strictBudget === undefined ? {} : { strictBudget: options.strictBudget }), ...definedOf({ originOf: originsOf(snapshot?.tools ?? [], upstream) }, ['originOf']), known })
    const served = keptAndSaid(list.tools, new Set(current?.compiled), options)
    if (snapshot && describeDrift(drift) !== '' && describeDrift(drift) !== (current ? describeDrift(current.drift) : ''))
      log(`flatmcp proxy: the upstream no longer matches the snapshot (${describeDrift(drift)}); ${options.frozen ? 'what changed or is new is not served (--frozen)' : 'what changed or is new is compiled anew'}`)
    const tools = new Map(served.map(tool => [tool.name, { served: tool.served, ...(tool.reason === undefined ? {} : { reason: tool.reason }), fromSnapshot: fromSnapshot.has(tool), diagnostics: tool.diagnostics }]))
    // The upstream's cache hints hold for the flat list too, for it changes when the upstream's does;
    // an upstream that gives none said its list may change at any time (ttlMs 0).
    // Where callers present credentials, a shared cache must not answer one with another's list.
    const scope = options.cacheScope ?? hints.cacheScope
    const cache = { ttlMs: hints.ttlMs ?? 0, ...(scope === undefined ? {} : { scope }) }
    // What the upstream listed and the proxy does not serve (left out by the reader, dropped, frozen out) is no tool.
    const unserved = new Set(listed.filter(name => !tools.has(name)))
    return { served: serve(served, list.preset, cache, unserved, { ...options, originOf: originsOf(served, upstream) }), tools, listed: served, compiled: list.tools, preset: list.preset, drift, fixed, unmatched }
  }
  return { current: () => current, refresh, ahead }
}

/**
 * The preset a list is read with where none is given: told over the whole list (`auto`), unless tools
 * compiled before recorded this very list (every name and definition, in order, each compiled, none
 * served as it came), whose preset it was told then. The same list tells the same preset.
 */
function presetKnown(known: ListVersionsOptions['known'], entries: readonly ReadList['entries'][number][]): Compiler.PresetName | 'auto' {
  const same = known !== undefined && known.tools.length === entries.length && known.tools.every((tool, i) => tool.name === entries[i]!.tool.name && tool.upstream.digest === entries[i]!.digest && tool.served !== 'as-is')
  return same ? known.snapshot.options.preset : 'auto'
}

/**
 * Each served tool's server and own name, where many are served as one: the upstream's name map (a
 * snapshot's recorded origin before it is connected), never a name's prefix, which the operator sets.
 */
function originsOf(tools: readonly ProxiedTool[], upstream: UpstreamClient): SearchOptions['originOf'] {
  const origins = upstream.origins?.()
  const recorded = new Map(tools.filter(tool => tool.origin !== undefined).map(tool => [tool.name, tool.origin!]))
  if (!origins && recorded.size === 0)
    return undefined
  return name => origins?.get(name) ?? recorded.get(name)
}

/**
 * The tools served (less those `onInvalid: 'drop'` leaves out, and those clients refuse as they came); each fallback said once per list
 * version it first appears in: a snapshot's at start-up, a tool compiled anew when it is.
 */
function keptAndSaid(tools: readonly ProxiedTool[], before: ReadonlySet<ProxiedTool>, options: ListVersionsOptions): ProxiedTool[] {
  return tools.filter((tool) => {
    if (!before.has(tool)) {
      for (const fallback of fallbacksOf(tool, options.onInvalid))
        options.log(`flatmcp proxy: tool ${shown(tool.name)} ${fallback}`)
    }
    return isServed(tool, options.onInvalid)
  })
}

/** What `--surface auto` chose for one profile's list, and by what figures. */
function surfaceLine(choice: SurfaceChoice): string {
  const lean = choice.search.list + choice.search.describe
  return `flatmcp proxy: --surface auto${choice.profile === undefined ? '' : ` (${choice.profile})`}: the full list of ${choice.tools} tool${choice.tools === 1 ? '' : 's'} is ${choice.full} tokens, the search surface ${choice.search.list} and one tool described ${choice.search.describe} (${lean}): ${choice.surface === 'full' ? 'serving the full list' : 'serving find_tools, describe_tools and call_tool'}`
}

/**
 * One list version's tools as a tool service: a name the list does not hold goes to the upstream's
 * name map (which answers it as no tool's, or as a tool of a server that is down), unless the
 * operator hid it, the upstream listed it and it is not served, or the proxy serves a frozen
 * snapshot (then only what it holds is called).
 */
function serve(tools: readonly ProxiedTool[], preset: Compiler.PresetName, cache: { ttlMs: number, scope?: 'public' | 'private' }, unserved: ReadonlySet<string>, options: ListVersionsOptions & SearchOptions): ServedTools {
  const { hidden, alwaysLoad, views } = options.served
  // A tool the operator hid, or one listed and not served, is no tool: its name is not sent on; nor, frozen, is any name the list does not hold.
  // Any other name the list does not hold reaches nobody past the name map (upstream/name-map.ts).
  const unknown: UnknownToolCall = (name, args, request) => hidden.has(name) || unserved.has(name) || options.frozen
    ? Promise.reject(unknownTool(`Unknown tool ${JSON.stringify(name)}.`))
    : options.handler(name)(args as never, { params: undefined, context: undefined, ...request }) as never
  return servedTools(tools, {
    preset,
    ...(options.validator ? { validator: options.validator } : {}),
    profile: options.profile,
    cache,
    handler: options.handler,
    unknown,
    unknownTool,
    withdrawn: options.withdrawn,
    ...(options.outputs ? { outputs: options.outputs } : {}),
    ...(options.surface ? { surface: options.surface } : {}),
    ...(alwaysLoad.length > 0 ? { alwaysLoad } : {}),
    ...(options.countTokens ? { countTokens: options.countTokens } : {}),
    ...(views ? { views } : {}),
    ...(options.rules ? { rules: options.rules } : {}),
    ...(options.originOf ? { originOf: options.originOf } : {}),
    // Said once per list and profile: what the session's list holds, by the tokens it was chosen by.
    onSurface: choice => options.log(surfaceLine(choice), 'info'),
    onWithdraw: (tool) => {
      options.log(`flatmcp proxy: tool ${shown(tool.name)} answered with structuredContent its output schema does not take; its output schema is no longer listed, so clients that check results take its answers as they come (said once for this tool)`)
      options.listChanged()
    },
  })
}
