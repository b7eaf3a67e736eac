// Views: named subsets of a server's tools, each in a profile and behind a surface, for callers that
// should see fewer tools (a triage bot, a read-only dashboard). A profile choice answers `view:NAME`
// to serve one (the proxy's --http does for an `X-MCP-View: NAME` header or `?view=NAME`); its
// tools/list, its search surface and its calls all keep to the view: a tool outside it is unknown.
import type { McpTool } from '../artifact/format'
import type { ToolView } from './options'
import type { ToolService } from './service'
import { preserialize } from './preserialized'

/** What a profile choice answers to serve a view. */
export const VIEW_PREFIX = 'view:'

/** A view's name from a profile choice's answer, where it names one of `views`. */
function viewNamed(views: Readonly<Record<string, ToolView>>, key: string | undefined): string | undefined {
  const name = key?.startsWith(VIEW_PREFIX) ? key.slice(VIEW_PREFIX.length) : undefined
  return name !== undefined && Object.hasOwn(views, name) ? name : undefined
}

/** One view of `service`: its tools only, in its profile; a call outside it is an unknown tool's. */
function subsetOf(service: ToolService, view: ToolView, unknownTool: (message: string) => Error): ToolService {
  const allowed = view.tools ? new Set(view.tools) : undefined
  const outside = (name: string): boolean => allowed !== undefined && !allowed.has(name)
  const lists = new WeakMap<object, Awaited<ReturnType<ToolService['list']>>>()
  return {
    async list() {
      const base = await service.list(view.profile)
      let list = lists.get(base)
      if (!list) {
        list = preserialize({ ...base, tools: base.tools.filter((tool: McpTool) => !outside(tool.name)) })
        lists.set(base, list)
      }
      return list
    },
    call: async (name, args, request, _profile, unsure) => {
      if (outside(name))
        throw unknownTool(`Unknown tool ${JSON.stringify(name).slice(0, 200)}.`)
      return service.call(name, args, request, view.profile, unsure)
    },
    read: async (name, args) => outside(name) ? undefined : service.read(name, args, view.profile),
  }
}

/**
 * `served` (the service behind its surface) with `views` beside it: a profile key that names a view
 * is served by that view (`base`, the service before any surface, cut to its tools and put behind its
 * own surface); any other key as `served` serves it.
 */
export function withViews(served: ToolService, base: ToolService, views: Readonly<Record<string, ToolView>>, surfaced: (service: ToolService, surface: 'full' | 'search') => ToolService, unknownTool: (message: string) => Error): ToolService {
  const built = new Map<string, ToolService>()
  const serviceOf = (name: string): ToolService => {
    let made = built.get(name)
    if (!made) {
      made = surfaced(subsetOf(base, views[name]!, unknownTool), views[name]!.surface ?? 'full')
      built.set(name, made)
    }
    return made
  }
  return {
    list: (key) => {
      const name = viewNamed(views, key)
      return name === undefined ? served.list(key) : serviceOf(name).list(views[name]!.profile)
    },
    call: (toolName, args, request, key, unsure) => {
      const name = viewNamed(views, key)
      return name === undefined ? served.call(toolName, args, request, key, unsure) : serviceOf(name).call(toolName, args, request, views[name]!.profile, unsure)
    },
    read: (toolName, args, key) => {
      const name = viewNamed(views, key)
      return name === undefined ? served.read(toolName, args, key) : serviceOf(name).read(toolName, args, views[name]!.profile)
    },
  }
}
