// Views: named subsets of a server's tools, each in a profile and behind a surface, for callers that
// should see fewer tools (a triage bot, a read-only dashboard). A profile choice answers `view:NAME`
// to serve one (the proxy's --http does for an `X-MCP-View: NAME` header or `?view=NAME`), or
// `tools:PROFILE:a,b` for a subset the caller names itself (`X-MCP-Tools: a,b`, `?tools=a,b`); its
// tools/list, its search surface and its calls all keep to the view: a tool outside it is unknown.
import type { McpTool } from '../artifact/format'
import type { CallerRules } from '../service/caller-rules'
import type { Surface, ToolView } from '../service/options'
import type { GuardedChoice, ProfileChoice, ProfileRequest } from '../service/profile-choice'
import type { ToolService } from '../service/service'
import { callerOf, ruleFor } from '../service/caller-rules'
import { callerKey, readKey, servedAs, subsetKey, viewKey } from '../service/choice-key'
import { preserialize } from '../service/preserialized'
import { chosen } from '../service/profile-choice'

export { subsetKey } from '../service/choice-key'

/** The most subsets a caller names kept built at once. */
const MAX_SUBSETS = 64

/**
 * What a request asks for by header or query, in `profile`: one of `views` (`X-MCP-View: NAME`,
 * `?view=NAME`), or the tools it names (`X-MCP-Tools: a,b`, `?tools=a,b`); `profile` where it asks neither.
 */
export function askedView({ url, headers }: ProfileRequest, views: readonly string[], profile: string | undefined): string | undefined {
  const view = headers?.get('x-mcp-view') ?? url?.searchParams.get('view')
  if (view && views.includes(view))
    return viewKey(view)
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

/**
 * `choice`, with each request's caller held to its rule in `rules` (where given): a caller the rules
 * restrict is answered `caller:NAME` over the key chosen (its pinned view's instead, whatever the
 * request asks for); any other as `choice` answers. Where `choice` fails (throws, answers too late),
 * the caller is served the base profile within its rule, never every tool.
 */
export function choiceWithRules(choice: ProfileChoice | undefined, rules: CallerRules | undefined): ProfileChoice | undefined {
  if (!rules)
    return choice
  const held = (request: ProfileRequest, key: string | undefined): string | undefined => {
    const caller = callerOf(request)
    const rule = ruleFor(rules, caller)
    // A caller with no name (no credential asked) is held by the default: no row has an empty name.
    return rule ? callerKey(caller ?? '', rule.view === undefined ? key : viewKey(rule.view)) : key
  }
  const guarded: GuardedChoice = Object.assign(async (request: ProfileRequest) => held(request, await chosen(choice, request)), { failed: (request: ProfileRequest) => held(request, undefined) })
  return guarded
}

/** The view a key names, where it is one of `views`. */
const viewNamed = (views: Readonly<Record<string, ToolView>>, name: string | undefined): ToolView | undefined => name !== undefined && Object.hasOwn(views, name) ? views[name] : undefined

/** The surface a profile choice's answer is served behind: its view's own, a caller's subset's (full), or `base`; a ruled caller's, that of the key it is served within. */
export function surfaceOf<S extends Surface>(views: Readonly<Record<string, ToolView>>, key: string | undefined, base: S): S | 'full' | 'search' {
  const read = readKey(key)
  const view = viewNamed(views, read.view)
  if (view)
    return view.surface ?? 'full'
  return read.tools ? 'full' : base
}

/** What a call for a tool the view leaves out is told: as for a name no tool has. */
const unknownName = (name: string): string => `Unknown tool ${JSON.stringify(name).slice(0, 200)}.`

/**
 * One view of `service`: its tools only, in its profile; a call outside it is an unknown tool's.
 * Held to a caller's rule (`admits`), it serves only the tools listed that the rule admits, and any
 * other name (one no tool has too) is told alike, so a caller learns nothing of the tools it is denied.
 */
function subsetOf(service: ToolService, view: ToolView, unknownTool: (message: string) => Error, admits?: (name: string) => boolean): ToolService {
  const allowed = view.tools ? new Set(view.tools) : undefined
  const outsideView = (name: string): boolean => (allowed !== undefined && !allowed.has(name)) || (admits !== undefined && !admits(name))
  const lists = new WeakMap<object, { list: Awaited<ReturnType<ToolService['list']>>, names: ReadonlySet<string> }>()
  const listed = async (): Promise<{ list: Awaited<ReturnType<ToolService['list']>>, names: ReadonlySet<string> }> => {
    const base = await service.list(view.profile)
    let made = lists.get(base)
    if (!made) {
      const tools = base.tools.filter((tool: McpTool) => !outsideView(tool.name))
      made = { list: preserialize({ ...base, tools }), names: new Set(tools.map(tool => tool.name)) }
      lists.set(base, made)
    }
    return made
  }
  const outside = async (name: string): Promise<boolean> => outsideView(name) || (admits !== undefined && !(await listed()).names.has(name))
  return {
    list: async () => (await listed()).list,
    call: async (name, args, request, _profile, unsure) => {
      if (await outside(name))
        throw unknownTool(unknownName(name))
      return service.call(name, args, request, view.profile, unsure)
    },
    read: async (name, args) => await outside(name) ? { ok: false, message: unknownName(name), outside: true } : service.read(name, args, view.profile),
  }
}

/** What a key serves, where it is no plain profile: a view, a caller's own subset, or a ruled caller's tools (`admits`) within one. */
interface ViewSpec {
  view: ToolView
  /** The surface it is served behind; a caller's own subset, full. */
  surface: Surface
  admits?: (name: string) => boolean
  /** Made from what a caller sent (a subset it names): kept built only among the latest few. */
  asked: boolean
}

/** The view a key serves (`undefined`: a plain profile, served as `served` serves it). A pinned view that does not exist serves nothing. */
function specOf(key: string | undefined, views: Readonly<Record<string, ToolView>>, rules: CallerRules | undefined, surface: Surface): ViewSpec | undefined {
  const read = readKey(key)
  const named = viewNamed(views, read.view)
  const inner: ViewSpec | undefined = named
    ? { view: named, surface: named.surface ?? 'full', asked: false }
    : read.tools ? { view: { tools: read.tools, ...(read.profile === undefined ? {} : { profile: read.profile }) }, surface: 'full', asked: true } : undefined
  if (read.caller === undefined)
    return inner
  // A view that does not exist serves a ruled caller nothing.
  const view = inner?.view ?? (read.view !== undefined ? { tools: [] } : read.profile === undefined ? {} : { profile: read.profile })
  const rule = rules && ruleFor(rules, read.caller)
  return { view, surface: inner?.surface ?? surface, ...(rule ? { admits: rule.admits } : {}), asked: inner?.asked ?? false }
}

/**
 * `served` (the service behind its surface) with `views` beside it: a profile key that names a view
 * is served by that view (`base`, the service before any surface, cut to its tools and put behind its
 * own surface), one a ruled caller is answered (`caller:NAME…`) by what its rule in `rules` admits
 * within the key it names, behind that key's surface (`surface`, for a plain profile); any other key
 * as `served` serves it.
 */
export function withViews(served: ToolService, base: ToolService, views: Readonly<Record<string, ToolView>>, surfaced: (service: ToolService, surface: Surface) => ToolService, unknownTool: (message: string) => Error, rules?: CallerRules, surface: Surface = 'full'): ToolService {
  const built = new Map<string, { service: ToolService, profile: string | undefined, asked: boolean }>()
  // A view's service, a ruled caller's, or a caller's own subset's (the least recently used dropped past MAX_SUBSETS).
  const viewOf = (key: string | undefined): { service: ToolService, profile: string | undefined } | undefined => {
    const spec = specOf(key, views, rules, surface)
    if (spec === undefined)
      return undefined
    const id = key!
    let made = built.get(id)
    if (made) {
      built.delete(id)
    }
    else {
      made = { service: surfaced(subsetOf(base, spec.view, unknownTool, spec.admits), spec.surface), profile: spec.view.profile, asked: spec.asked }
      const asked = [...built].filter(([, each]) => each.asked)
      if (spec.asked && asked.length >= MAX_SUBSETS)
        built.delete(asked[0]![0])
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
      // What the call is read in, said here where the views are known: onCall and its span report it.
      if (request.observed)
        request.observed.served = servedAs(key, views)
      const view = viewOf(key)
      return view ? view.service.call(toolName, args, request, view.profile, unsure) : served.call(toolName, args, request, key, unsure)
    },
    read: (toolName, args, key) => {
      const view = viewOf(key)
      return view ? view.service.read(toolName, args, view.profile) : served.read(toolName, args, key)
    },
  }
}
