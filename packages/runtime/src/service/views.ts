// Views: named subsets of a server's tools, each in a profile and behind a surface, for callers that
// should see fewer tools (a triage bot, a read-only dashboard). A profile choice answers `view:NAME`
// to serve one (the proxy's --http does for an `X-MCP-View: NAME` header or `?view=NAME`), or
// `tools:PROFILE:a,b` for a subset the caller names itself (`X-MCP-Tools: a,b`, `?tools=a,b`); its
// tools/list, its search surface and its calls all keep to the view: a tool outside it is unknown.
import type { McpTool } from '../artifact/format'
import type { ToolView } from './options'
import type { ProfileChoice, ProfileRequest } from './profile-choice'
import type { ToolService } from './service'
import { preserialize } from './preserialized'

/** What a profile choice answers to serve a view, or a subset the caller names. */
export const VIEW_PREFIX = 'view:'
export const TOOLS_PREFIX = 'tools:'

/** The most names a caller's own subset holds, and the most such subsets kept built at once. */
const MAX_NAMED = 100
const MAX_SUBSETS = 64

/** The key of a subset a caller names (`a,b` in `profile`): what a profile choice answers to serve it. */
export function subsetKey(profile: string | undefined, names: string): string | undefined {
  const listed = [...new Set(names.split(',').map(name => name.trim()).filter(Boolean))].slice(0, MAX_NAMED).sort()
  return listed.length === 0 ? undefined : `${TOOLS_PREFIX}${profile ?? ''}:${listed.join(',')}`
}

/**
 * What a request asks for by header or query, in `profile`: one of `views` (`X-MCP-View: NAME`,
 * `?view=NAME`), or the tools it names (`X-MCP-Tools: a,b`, `?tools=a,b`); `profile` where it asks neither.
 */
export function askedView({ url, headers }: ProfileRequest, views: readonly string[], profile: string | undefined): string | undefined {
  const view = headers?.get('x-mcp-view') ?? url?.searchParams.get('view')
  if (view && views.includes(view))
    return `${VIEW_PREFIX}${view}`
  // A subset the caller names itself (as github-mcp-server takes it): served in the profile chosen.
  const named = headers?.get('x-mcp-tools') ?? url?.searchParams.get('tools')
  return (named ? subsetKey(profile, named) : undefined) ?? profile
}

/** `choice`, with a view or a subset a request asks for (`askedView`) served before it. */
export function choiceWithViews(choice: ProfileChoice | undefined, views: readonly string[]): ProfileChoice {
  return async (request) => {
    const profile = typeof choice === 'function' ? await choice(request) : choice
    return askedView(request, views, profile)
  }
}

/** A caller's own subset from its key. */
function subsetOfKey(key: string): ToolView {
  const rest = key.slice(TOOLS_PREFIX.length)
  const at = rest.indexOf(':')
  const profile = rest.slice(0, at)
  return { tools: rest.slice(at + 1).split(','), ...(profile === '' ? {} : { profile }) }
}

/** A view's name from a profile choice's answer, where it names one of `views`. */
function viewNamed(views: Readonly<Record<string, ToolView>>, key: string | undefined): string | undefined {
  const name = key?.startsWith(VIEW_PREFIX) ? key.slice(VIEW_PREFIX.length) : undefined
  return name !== undefined && Object.hasOwn(views, name) ? name : undefined
}

/** The surface a profile choice's answer is served behind: its view's own, a caller's subset's (full), or `base`. */
export function surfaceOf(views: Readonly<Record<string, ToolView>>, key: string | undefined, base: 'full' | 'search'): 'full' | 'search' {
  const name = viewNamed(views, key)
  if (name !== undefined)
    return views[name]!.surface ?? 'full'
  return key?.startsWith(TOOLS_PREFIX) ? 'full' : base
}

/** What a call for a tool the view leaves out is told: as for a name no tool has. */
const unknownName = (name: string): string => `Unknown tool ${JSON.stringify(name).slice(0, 200)}.`

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
        throw unknownTool(unknownName(name))
      return service.call(name, args, request, view.profile, unsure)
    },
    read: async (name, args) => outside(name) ? { ok: false, message: unknownName(name), outside: true } : service.read(name, args, view.profile),
  }
}

/**
 * `served` (the service behind its surface) with `views` beside it: a profile key that names a view
 * is served by that view (`base`, the service before any surface, cut to its tools and put behind its
 * own surface); any other key as `served` serves it.
 */
export function withViews(served: ToolService, base: ToolService, views: Readonly<Record<string, ToolView>>, surfaced: (service: ToolService, surface: 'full' | 'search') => ToolService, unknownTool: (message: string) => Error): ToolService {
  const built = new Map<string, { service: ToolService, profile: string | undefined }>()
  // A view's service, or a caller's own subset's (the least recently used dropped past MAX_SUBSETS).
  const viewOf = (key: string | undefined): { service: ToolService, profile: string | undefined } | undefined => {
    const name = viewNamed(views, key)
    const subset = name === undefined && key?.startsWith(TOOLS_PREFIX) ? key : undefined
    if (name === undefined && subset === undefined)
      return undefined
    const id = name === undefined ? subset! : `${VIEW_PREFIX}${name}`
    let made = built.get(id)
    if (made) {
      built.delete(id)
    }
    else {
      const view = name === undefined ? subsetOfKey(subset!) : views[name]!
      made = { service: surfaced(subsetOf(base, view, unknownTool), surfaceOf(views, id, 'full')), profile: view.profile }
      if (subset !== undefined && [...built.keys()].filter(key => key.startsWith(TOOLS_PREFIX)).length >= MAX_SUBSETS)
        built.delete([...built.keys()].find(key => key.startsWith(TOOLS_PREFIX))!)
    }
    built.set(id, made)
    return made
  }
  return {
    list: (key) => {
      const view = viewOf(key)
      return view ? view.service.list(view.profile) : served.list(key)
    },
    call: (toolName, args, request, key, unsure) => {
      const view = viewOf(key)
      return view ? view.service.call(toolName, args, request, view.profile, unsure) : served.call(toolName, args, request, key, unsure)
    },
    read: (toolName, args, key) => {
      const view = viewOf(key)
      return view ? view.service.read(toolName, args, view.profile) : served.read(toolName, args, key)
    },
  }
}
