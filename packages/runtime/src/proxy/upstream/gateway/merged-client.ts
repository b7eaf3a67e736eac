// Many upstreams as one: an `UpstreamClient` whose tools are every member's, each served by
// `NAME__tool`, and whose requests go to the member that holds what they name (a tool, a prompt, a
// resource's URI). A member that is down has no tools listed; a call to one it had is a tool error
// naming it. The proxy compiles and serves this one client as it serves any upstream.
import type { ToolOrigin } from '../../../artifact/format'
import type { AskedContext, Message, RequestOptions, UpstreamClient } from '../upstream'
import type { Member, Route } from './member'
import type { NameMapOptions } from '../name-map'
import type { NamingOptions } from './served-names'
import { lastMade } from '../../../util/last-made'
import { opening, throttled, within } from '../../../util/wait'
import { listAll } from '../list-pages'
import { ANY_RESULT } from '../forward'
import { foldedList } from './replicas'
import { knownMemberOfUri, listResources, memberOfUri, resourceRoutes, startedOf } from './resource-routes'
import type { ResourceRoutes } from './resource-routes'
import { downRoute, routed, rpcError } from './route-call'
import { firstOfEach, nameMap, onceEach } from '../name-map'

export interface MergedOptions {
  naming: NamingOptions
  /** Entries served as one server with a `target` parameter: its name, and theirs. */
  replicas?: Readonly<Record<string, readonly string[]>>
  info: { name: string, version: string }
  /** How long the first list waits for servers still starting, and any list for one server's answer. */
  listMs: number
  log: (line: string) => void
}

/** A merged client, and what its members' lifecycle tells it. */
export interface MergedClient extends UpstreamClient {
  /** A member changed its list: the proxy reads the list anew (before the first list has taken which members are up, that list reads it). */
  changed: () => void
  origins: () => ReadonlyMap<string, ToolOrigin>
  /** A member came up or went down: the tools read anew (a list served after waits for it, `settled`; before the first list has taken which members are up, that list reads it), and clients told the prompts and resources changed. */
  membersChanged: () => void
  settled: () => Promise<void>
  /** The handlers the proxy set, for a member connected later. */
  handlers: { notification: (notification: Message) => Promise<void>, request: (request: Message, ctx: AskedContext) => Promise<unknown> }
}

/** One member's listed items, or a group of replicas' folded into one. */
type Gathered = { member: Member, items: Record<string, unknown>[], replicas?: readonly Member[] }

/** Whether a request failed for want of an answer in time (the MCP SDK's RequestTimeout: 2.x's code, or 1.x's -32001). */
/** The most tools one server behind a gateway is served with: the rest are left out, said (50,000 stalled every server's calls and took a GiB). */
export const MAX_MEMBER_TOOLS = 10_000

/** A member's listed items, past `MAX_MEMBER_TOOLS` cut there, said. */
function withinToolBound(member: Member, items: Record<string, unknown>[], log: (line: string) => void): Record<string, unknown>[] {
  if (items.length <= MAX_MEMBER_TOOLS)
    return items
  log(`flatmcp proxy: server "${member.name}" listed ${items.length} tools; the first ${MAX_MEMBER_TOOLS} are served, the rest left out`)
  return items.slice(0, MAX_MEMBER_TOOLS)
}

const timedOut = (error: unknown): boolean => ['REQUEST_TIMEOUT', -32001].includes((error as { code?: unknown } | null)?.code as never)

/** Whether a member's config keeps a tool. */
function kept(member: Member, name: string): boolean {
  return (member.tools?.only?.includes(name) ?? true) && !(member.tools?.except?.includes(name) ?? false)
}

/**
 * Each listed item of every member (tools its config keeps); a member that does not answer in time
 * is left out, and said.
 */
async function gathered(members: readonly Member[], method: 'tools/list' | 'prompts/list', options: MergedOptions): Promise<Gathered[]> {
  const capability = method === 'tools/list' ? 'tools' : 'prompts'
  const lists = await Promise.all(members.map(async (member) => {
    const client = member.client
    if (!client || (method === 'prompts/list' && client.getServerCapabilities()?.[capability] === undefined))
      return undefined
    try {
      // The whole list within the timeout, however many pages: one that pages on slowly holds every list as one that hangs would.
      const deadline = Date.now() + options.listMs
      const request = (message: Message): Promise<unknown> => client.request({ ...message, method }, ANY_RESULT, { timeout: Math.max(1, deadline - Date.now()) })
      const listed = method === 'tools/list' ? (await listAll(request, options.log)).tools : ((await request({ method }) as { prompts?: unknown[] }).prompts ?? [])
      const items = listed.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string')
      if (method === 'tools/list')
        member.listed?.()
      return { member, items: method === 'tools/list' ? withinToolBound(member, items.filter(item => kept(member, item.name as string)), options.log) : items }
    }
    catch (error) {
      // One that does not answer in time is hung: started again, as one that ended is.
      if (timedOut(error) && member.restart)
        member.restart(`did not list its ${capability} within ${options.listMs / 1000} s`)
      else
        options.log(`flatmcp proxy: server "${member.name}" did not list its ${capability} (${(error as Error).message}); serving the others`)
      return undefined
    }
  }))
  return lists.filter(list => list !== undefined)
}

/** The members' lists as one, each item under the name the name map serves it by (one it leaves out, left out); the routes from served name back to the member. */
function merge(lists: Gathered[], options: MergedOptions & NameMapOptions): { items: Record<string, unknown>[], routes: Map<string, Route> } {
  const names = nameMap(lists.map(({ member, items }) => ({ server: member.name, names: items.map(item => item.name as string) })), options)
  const routes = new Map<string, Route>()
  const items = lists.flatMap(({ member, items, replicas }) => firstOfEach(items, item => item.name as string).flatMap((item) => {
    const served = names.served(member.name, item.name as string)
    if (served === undefined)
      return []
    routes.set(served, { server: member.name, name: item.name as string, member, ...(replicas ? { replicas } : {}) })
    return [{ ...item, name: served }]
  }))
  return { items, routes }
}

/**
 * The gathered lists with each group of replicas folded into one (its tools taking `target`); the
 * replicas' own lists leave it. A group none of whose replicas answered lists nothing.
 */
function foldReplicas(lists: Gathered[], members: readonly Member[], options: MergedOptions): Gathered[] {
  const groups = Object.entries(options.replicas ?? {})
  const inGroup = new Set(groups.flatMap(([, names]) => names))
  const folded = groups.flatMap(([group, names]): Gathered[] => {
    const answered = lists.filter(list => names.includes(list.member.name))
    const items = foldedList(group, names, answered.map(list => ({ server: list.member.name, items: list.items })))
    const replicas = members.filter(member => names.includes(member.name))
    return answered.length === 0 ? [] : [{ member: { name: group, started: Promise.resolve() }, items, replicas }]
  })
  return [...lists.filter(list => !inGroup.has(list.member.name)), ...folded]
}

/** What the merged client knows between requests: where each served name, prompt and resource goes. */
interface Routes {
  tools: Map<string, Route>
  prompts: Map<string, Route>
  resources: ResourceRoutes
  /** Whether the first tools/list (which waits for servers still starting) is still to come. */
  first: boolean
  /** Whether a tools/list has taken which members are up: a change before then is in the first list read. */
  taken: boolean
}

/** The names whose prefixes claim names: each group of replicas, and each member in none. */
function prefixed(members: readonly Member[], options: MergedOptions): string[] {
  const groups = Object.entries(options.replicas ?? {})
  const grouped = new Set(groups.flatMap(([, names]) => names))
  return [...groups.map(([group]) => group), ...members.filter(member => !grouped.has(member.name)).map(member => member.name)]
}

const liveOf = (members: readonly Member[]): Member[] => members.filter(member => member.client !== undefined)

/**
 * The server a request goes to, by what it names (a tool, a prompt, a resource's URI; a name under
 * the prefix of one that is down, that one): its calls take slots of their own, and it is the
 * upstream its audit line names.
 */
function laneOf(members: readonly Member[], routes: Routes, message: Message, claimant: (name: unknown) => string | undefined): string | undefined {
  const { name, uri } = message.params ?? {}
  if (message.method === 'tools/call' || message.method === 'prompts/get')
    return (message.method === 'tools/call' ? routes.tools : routes.prompts).get(name as string)?.member.name ?? claimant(name)
  return message.method.startsWith('resources/') ? knownMemberOfUri(members, routes.resources, uri)?.name : undefined
}

type Handle = (message: Message, schema: unknown, requestOptions?: RequestOptions) => Promise<unknown>

/** What the merged client does with each method it sends on: lists merged, names routed, the rest refused. */
function requestTable(members: readonly Member[], routes: Routes, options: MergedOptions): Record<string, Handle> {
  const live = (): Member[] => liveOf(members)
  // What the name map leaves out is said once, however often the lists are read; the members are read when a list is (they join after this is made).
  const tell = onceEach(options.log)
  const naming = (what: string): MergedOptions & NameMapOptions => ({ ...options, tell, servers: prefixed(members, options), what })
  const table: Record<string, Handle> = {
    'tools/list': async () => {
      if (routes.first) {
        routes.first = false
        await within(Promise.allSettled(members.map(member => member.started)), options.listMs)
      }
      routes.taken = true
      const merged = merge(foldReplicas(await gathered(live(), 'tools/list', options), members, options), naming('tool'))
      routes.tools = merged.routes
      return { tools: merged.items }
    },
    'tools/call': (message, schema, requestOptions) => routed(routes.tools.get(message.params?.name as string) ?? downRoute(members, nameMap([], naming('tool')), message.params?.name), message, schema, requestOptions),
    'prompts/list': async () => {
      const merged = merge(await gathered(live(), 'prompts/list', options), naming('prompt'))
      routes.prompts = merged.routes
      return { prompts: merged.items }
    },
    // A prompt got before the client listed them (or since listed anew) is found by the members' lists, read now.
    'prompts/get': async (message, schema, requestOptions) => {
      const name = message.params?.name as string
      if (!routes.prompts.has(name)) {
        await startedOf(members, options.listMs)
        await table['prompts/list']!({ method: 'prompts/list' }, ANY_RESULT)
      }
      return routed(routes.prompts.get(name), message, schema, requestOptions)
    },
    'resources/list': () => listResources(members, routes.resources, 'resources', options),
    'resources/templates/list': () => listResources(members, routes.resources, 'resourceTemplates', options),
    'ping': async () => ({}),
    'logging/setLevel': async (message) => {
      await Promise.allSettled(live().filter(m => m.client!.getServerCapabilities()?.logging !== undefined).map(m => m.client!.request(message, ANY_RESULT)))
      return {}
    },
  }
  for (const method of ['resources/read', 'resources/subscribe', 'resources/unsubscribe']) {
    table[method] = async (message, schema, requestOptions) => {
      const member = await memberOfUri(members, routes.resources, message.params?.uri, options)
      if (!member?.client)
        throw rpcError(-32002, `Resource not found: no server behind this proxy lists ${JSON.stringify(String(message.params?.uri).slice(0, 200))}.`)
      return member.client.request(message, schema, requestOptions)
    }
  }
  return table
}

/**
 * What the members can do, as one server: tools, prompts, resources and logging always, for a member
 * that comes up after the client connected brings its own (their lists change as members come and
 * go, and are empty where none has them); subscriptions where a member up now takes them.
 */
function capabilitiesOf(members: readonly Member[]): Record<string, unknown> {
  const each = liveOf(members).map(member => member.client!.getServerCapabilities() ?? {})
  const subscribe = each.some(capabilities => (capabilities.resources as { subscribe?: boolean } | undefined)?.subscribe)
  return {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { listChanged: true, ...(subscribe ? { subscribe: true } : {}) },
    logging: {},
  }
}

/** The client of `members`, served as one upstream. */
export function mergedClient(members: readonly Member[], options: MergedOptions): MergedClient {
  const routes: Routes = { tools: new Map(), prompts: new Map(), resources: resourceRoutes(), first: true, taken: false }
  // Made again only when a list replaces the routes: a traced or audited call names its server from them.
  const originsOf = lastMade((tools: Routes['tools']): ReadonlyMap<string, ToolOrigin> => new Map([...tools].map(([served, route]) => [served, { server: route.server, name: route.name, ...(route.replicas ? { replicas: route.replicas.map(replica => replica.name) } : {}) }])))
  const requests = requestTable(members, routes, options)
  let listChanged: (() => void | Promise<void>) | undefined
  // The list read since the last server came or went: a list is served once it is.
  let settled: Promise<void> = Promise.resolve()
  const requestHandler = opening<NonNullable<UpstreamClient['fallbackRequestHandler']>>()
  let notificationHandler: UpstreamClient['fallbackNotificationHandler']
  // Members come up in a burst at start: clients hear of it once or twice, not per member.
  const othersChanged = throttled(() => {
    for (const method of ['notifications/prompts/list_changed', 'notifications/resources/list_changed'])
      void notificationHandler?.({ method })?.catch(() => {})
  }, 250)
  return {
    request: async (message, schema, requestOptions) => {
      const handle = Object.hasOwn(requests, message.method) ? requests[message.method]! : undefined
      if (!handle)
        throw rpcError(-32601, `${message.method} is not something this proxy sends to one of the servers behind it`)
      return handle(message, schema, requestOptions)
    },
    notification: async (notification) => {
      await Promise.allSettled(liveOf(members).map(member => member.client!.notification(notification)))
    },
    getServerCapabilities: () => capabilitiesOf(members),
    getServerVersion: () => options.info,
    getInstructions: () => {
      const said = members.map(member => [member.name, member.client?.getInstructions()] as const).filter(([, text]) => typeof text === 'string' && text !== '')
      return said.length === 0 ? undefined : said.map(([name, text]) => `${name}: ${text}`).join('\n\n')
    },
    setNotificationHandler: (_method, handler) => {
      listChanged = handler
    },
    get fallbackNotificationHandler() {
      return notificationHandler
    },
    set fallbackNotificationHandler(handler) {
      notificationHandler = handler
    },
    get fallbackRequestHandler() {
      return undefined
    },
    set fallbackRequestHandler(handler) {
      if (handler)
        requestHandler.open(handler)
    },
    lane: message => laneOf(members, routes, message, name => downRoute(members, nameMap([], { ...options, servers: prefixed(members, options) }), name)?.server),
    // Before the first list has taken which members are up, it reads this change too: nothing is
    // read anew (at start, each member coming up read every list again, twice, before a client's first).
    changed: () => routes.taken ? listChanged?.() : undefined,
    origins: () => originsOf(routes.tools),
    membersChanged: () => {
      if (routes.taken)
        settled = Promise.resolve(listChanged?.()).catch(() => {})
      othersChanged()
    },
    settled: () => settled,
    handlers: {
      notification: async notification => notificationHandler?.(notification),
      request: async (request, ctx) => (await requestHandler.opened)(request, ctx),
    },
  }
}
