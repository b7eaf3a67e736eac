// Many upstreams as one: an `UpstreamClient` whose tools are every member's, each served by
// `NAME__tool`, and whose requests go to the member that holds what they name (a tool, a prompt, a
// resource's URI). A member that is down has no tools listed; a call to one it had is a tool error
// naming it. The proxy compiles and serves this one client as it serves any upstream.
import type { ToolOrigin } from '../../../artifact/format'
import type { Message, RequestOptions, UpstreamClient } from '../upstream'
import type { Member, Route } from './member'
import type { NamingOptions } from './served-names'
import { opening, throttled, within } from '../../../util/wait'
import { listAll } from '../list-pages'
import { ANY_RESULT } from '../forward'
import { foldedList } from './replicas'
import { downRoute, routed, rpcError } from './route-call'
import { servedNames } from './served-names'

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
  /** A member changed its list: the proxy reads the list anew. */
  changed: () => void
  origins: () => ReadonlyMap<string, ToolOrigin>
  /** A member came up or went down: the tools read anew, and clients told the prompts and resources changed. */
  membersChanged: () => void
  /** The handlers the proxy set, for a member connected later. */
  handlers: { notification: (notification: Message) => Promise<void>, request: (request: Message, ctx: { mcpReq: { signal: AbortSignal } }) => Promise<unknown> }
}

/** One member's listed items, or a group of replicas' folded into one. */
type Gathered = { member: Member, items: Record<string, unknown>[], replicas?: readonly Member[] }

/** Whether a request failed for want of an answer in time (the MCP SDK's RequestTimeout: 2.x's code, or 1.x's -32001). */
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
      const request = (message: Message): Promise<unknown> => client.request({ ...message, method }, ANY_RESULT, { timeout: options.listMs })
      const listed = method === 'tools/list' ? (await listAll(request, options.log)).tools : ((await request({ method }) as { prompts?: unknown[] }).prompts ?? [])
      const items = listed.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string')
      if (method === 'tools/list')
        member.listed?.()
      return { member, items: method === 'tools/list' ? items.filter(item => kept(member, item.name as string)) : items }
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

/** The members' lists as one, each item renamed; the routes from served name back to the member. */
function merge(lists: Gathered[], options: MergedOptions, what: string): { items: Record<string, unknown>[], routes: Map<string, Route> } {
  const listed = lists.flatMap(({ member, items, replicas }) => items.map(item => ({ member, item, replicas })))
  // In the order of their origins (a collision throws): the i-th served name is the i-th item's.
  const served = [...servedNames(listed.map(({ member, item }) => ({ server: member.name, name: item.name as string })), options.naming, what).keys()]
  const routes = new Map<string, Route>()
  const items = listed.map(({ member, item, replicas }, i) => {
    routes.set(served[i]!, { server: member.name, name: item.name as string, member, ...(replicas ? { replicas } : {}) })
    return { ...item, name: served[i] }
  })
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
  resources: Map<string, Member>
  /** Whether the first tools/list (which waits for servers still starting) is still to come. */
  first: boolean
}

const liveOf = (members: readonly Member[]): Member[] => members.filter(member => member.client !== undefined)

/** Every member's resources (or templates) as one list; a URI two members list is read from the first, said. */
async function listResources(members: readonly Member[], routes: Routes, method: string, key: 'resources' | 'resourceTemplates', options: MergedOptions): Promise<unknown> {
  const all: unknown[] = []
  // Each listing says anew which member holds a URI.
  if (key === 'resources')
    routes.resources.clear()
  for (const member of liveOf(members).filter(m => m.client!.getServerCapabilities()?.resources !== undefined)) {
    const result = await member.client!.request({ method }, ANY_RESULT, { timeout: options.listMs }).catch(() => undefined) as Record<string, unknown[]> | undefined
    for (const item of result?.[key] ?? []) {
      const uri = (item as { uri?: unknown }).uri
      const holder = typeof uri === 'string' ? routes.resources.get(uri) : undefined
      if (key === 'resources' && typeof uri === 'string' && holder && holder !== member)
        options.log(`flatmcp proxy: servers "${holder.name}" and "${member.name}" both list resource ${JSON.stringify(uri.slice(0, 200))}; it is read from "${holder.name}"`)
      else if (key === 'resources' && typeof uri === 'string')
        routes.resources.set(uri, member)
      all.push(item)
    }
  }
  return { [key]: all }
}

/** The member a resource's URI goes to: the one that listed it, else the only one that serves resources. */
function byUri(members: readonly Member[], routes: Routes, uri: unknown): Member | undefined {
  const known = typeof uri === 'string' ? routes.resources.get(uri) : undefined
  if (known)
    return known
  const serving = liveOf(members).filter(member => member.client!.getServerCapabilities()?.resources !== undefined)
  return serving.length === 1 ? serving[0] : undefined
}

/** The server a request goes to, by what it names (a tool, a prompt, a resource's URI): its calls take slots of their own. */
function laneOf(members: readonly Member[], routes: Routes, message: Message): string | undefined {
  const { name, uri } = message.params ?? {}
  if (message.method === 'tools/call' || message.method === 'prompts/get')
    return (message.method === 'tools/call' ? routes.tools : routes.prompts).get(name as string)?.member.name
  return message.method.startsWith('resources/') && uri !== undefined ? byUri(members, routes, uri)?.name : undefined
}

type Handle = (message: Message, schema: unknown, requestOptions?: RequestOptions) => Promise<unknown>

/** What the merged client does with each method it sends on: lists merged, names routed, the rest refused. */
function requestTable(members: readonly Member[], routes: Routes, options: MergedOptions): Record<string, Handle> {
  const live = (): Member[] => liveOf(members)
  const table: Record<string, Handle> = {
    'tools/list': async () => {
      if (routes.first) {
        routes.first = false
        await within(Promise.allSettled(members.map(member => member.started)), options.listMs)
      }
      const merged = merge(foldReplicas(await gathered(live(), 'tools/list', options), members, options), options, 'tool')
      routes.tools = merged.routes
      return { tools: merged.items }
    },
    'tools/call': (message, schema, requestOptions) => routed(routes.tools.get(message.params?.name as string) ?? downRoute(members, message.params?.name, options.naming), message, schema, requestOptions),
    'prompts/list': async () => {
      const merged = merge(await gathered(live(), 'prompts/list', options), options, 'prompt')
      routes.prompts = merged.routes
      return { prompts: merged.items }
    },
    'prompts/get': (message, schema, requestOptions) => routed(routes.prompts.get(message.params?.name as string), message, schema, requestOptions),
    'resources/list': () => listResources(members, routes, 'resources/list', 'resources', options),
    'resources/templates/list': () => listResources(members, routes, 'resources/templates/list', 'resourceTemplates', options),
    'ping': async () => ({}),
    'logging/setLevel': async (message) => {
      await Promise.allSettled(live().filter(m => m.client!.getServerCapabilities()?.logging !== undefined).map(m => m.client!.request(message, ANY_RESULT)))
      return {}
    },
  }
  for (const method of ['resources/read', 'resources/subscribe', 'resources/unsubscribe']) {
    table[method] = async (message, schema, requestOptions) => {
      const member = byUri(members, routes, message.params?.uri)
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
  const routes: Routes = { tools: new Map(), prompts: new Map(), resources: new Map(), first: true }
  const requests = requestTable(members, routes, options)
  let listChanged: (() => void) | undefined
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
    lane: message => laneOf(members, routes, message),
    changed: () => listChanged?.(),
    origins: () => new Map([...routes.tools].map(([served, route]) => [served, { server: route.server, name: route.name, ...(route.replicas ? { replicas: route.replicas.map(replica => replica.name) } : {}) }])),
    membersChanged: () => {
      listChanged?.()
      othersChanged()
    },
    handlers: {
      notification: async notification => notificationHandler?.(notification),
      request: async (request, ctx) => (await requestHandler.opened)(request, ctx),
    },
  }
}
