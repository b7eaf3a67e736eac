// One list version of proxied tools as a tool service, for the proxy and the fetch handler alike: each
// tool's compiled (or snapshot) data listed, its calls read by the upstream's schema, and its results
// shaped as its listed output says; a tool whose upstream breaks its own output schema listed without
// it from then on.
import type * as Compiler from '@flatmcp/core'
import type { ProxiedTool } from '../../artifact/format'
import type { CallerRules } from '../../service/caller-rules'
import type { ProfileChoice } from '../../service/profile-choice'
import type { McpServerOptions, Surface, SurfaceChoice, ToolView } from '../../service/options'
import type { ToolService, UnknownToolCall } from '../../service/tool-service'
import type { SearchOptions } from '../../search/tool-search'
import type { ToolDefinition } from '../../tool/define-tool'
import type { Validator } from '../compile/chooser'
import type { ForwardedResult } from './outputs'
import { servedService } from '../../search/served'
import { createToolService } from '../../service/tool-service'
import { proxiedDefinition } from '../compile/chooser'
import { outputShaper, withoutOutput } from './outputs'

export interface ServedToolsOptions {
  preset: Compiler.PresetName
  validator?: Validator
  profile?: ProfileChoice
  cache?: { ttlMs?: number, scope?: 'public' | 'private' }
  /** What runs a call once it is read (a proxy forwards it); its result is shaped on the way back. */
  handler: (name: string) => ToolDefinition['handler']
  /** What serves a call for a name the list does not hold. */
  unknown?: UnknownToolCall
  /** The error an SDK answers a call for a name no tool has, where `unknown` is not given. */
  unknownTool: (message: string) => Error
  /** The tools whose output schema is no longer listed (by `outputKey`), kept across list versions. */
  withdrawn: Set<string>
  /** `unlisted`: no output schema is listed at all (a structured part goes as it comes, where it is an object). Default: `compiled`. */
  outputs?: 'compiled' | 'unlisted'
  /** Told once when a tool's output schema is withdrawn (the service is rebuilt without it when next asked for). */
  onWithdraw: (tool: ProxiedTool) => void
  /** What a session's list holds (see `McpServerOptions.surface`). Default: every tool. */
  surface?: Surface
  /** With `surface: 'search'`: the tools listed beside the three. */
  alwaysLoad?: readonly string[]
  /** With `surface: 'auto'`: how tokens are counted, and who is told what was chosen (see `McpServerOptions`). */
  countTokens?: (text: string) => number
  onSurface?: (choice: SurfaceChoice) => void
  /** Named subsets of the tools (see `McpServerOptions.views`). */
  views?: Readonly<Record<string, ToolView>>
  /** Which caller is served which tools (see `McpServerOptions.rules`). */
  rules?: CallerRules
  /** Each served name's server and own name, where many are served as one: find_tools chooses the server, then the tool. */
  originOf?: SearchOptions['originOf']
}

export interface ServedTools {
  /** The tool service as the list stands now (rebuilt when an output schema is withdrawn). */
  service: () => ToolService
  /** A result of the tool named, shaped as its listed output says (a name the list does not hold: as it came). */
  shape: (name: string, result: ForwardedResult) => ForwardedResult
}

/** What a withdrawn output schema is known by: the tool's name and its definition's digest. */
export function outputKey(tool: ProxiedTool): string {
  return `${tool.name}\u0000${tool.upstream.digest}`
}

/** The tools of one list version, served. */
export function servedTools(tools: readonly ProxiedTool[], options: ServedToolsOptions): ServedTools {
  let shapers = new Map<string, (result: ForwardedResult) => ForwardedResult>()
  const build = (): ToolService => {
    shapers = new Map()
    const definitions = tools.map((tool) => {
      const listed = options.outputs === 'unlisted' || options.withdrawn.has(outputKey(tool)) ? withoutOutput(tool) : tool
      const shape = outputShaper(listed, options.validator, () => withdraw(tool))
      shapers.set(tool.name, shape)
      const run = options.handler(tool.name)
      return proxiedDefinition(listed, options.preset, options.validator, async (input, context) => shape(await run(input, context) as ForwardedResult) as never)
    })
    const served: McpServerOptions = { profile: options.profile, ...(options.cache ? { cache: options.cache } : {}), ...(options.surface ? { surface: options.surface } : {}), ...(options.alwaysLoad ? { alwaysLoad: options.alwaysLoad } : {}), ...(options.countTokens ? { countTokens: options.countTokens } : {}), ...(options.onSurface ? { onSurface: options.onSurface } : {}), ...(options.views ? { views: options.views } : {}), ...(options.rules ? { rules: options.rules } : {}) }
    return servedService(createToolService(definitions, served, options.unknownTool, options.unknown), served, options.unknownTool, options.originOf ? { originOf: options.originOf } : {})
  }
  let service = build()
  // Rebuilt once when next asked for, however many schemas a burst of results withdrew.
  let stale = false
  const withdraw = (tool: ProxiedTool): void => {
    if (options.withdrawn.has(outputKey(tool)))
      return
    options.withdrawn.add(outputKey(tool))
    stale = true
    options.onWithdraw(tool)
  }
  return {
    service: () => {
      if (stale) {
        stale = false
        service = build()
      }
      return service
    },
    shape: (name, result) => shapers.get(name)?.(result) ?? result,
  }
}
