// Where a resource's URI goes behind a gateway: to the member that lists it, else to the member one of
// whose templates makes it, else to the only member that serves resources. A URI two members list, or
// two members' templates make, is read from neither and said: no order of arrival chooses. A URI no
// list read so far places has the members' lists read anew (one reading at a time, each list within
// the list timeout) before it is refused, so a client may read before it lists.
import type { Member } from './member'
import { within } from '../../../util/wait'
import { ANY_RESULT } from '../forward'
import { rpcError } from './route-call'
import { templateMatcher } from './uri-template'

/** What a resource's URI goes by: the members that list it, the templates they list. */
export interface ResourceRoutes {
  uris: Map<string, Member[]>
  templates: { member: Member, template: string, makes: (uri: string) => boolean }[]
  /** The lists read anew for a URI none placed: one reading at a time. */
  reading?: Promise<void>
  /** The clashes said already (by the URI or templates they are between). */
  said: Set<string>
}

export interface ResourceOptions {
  /** How long each member's list may take. */
  listMs: number
  log: (line: string) => void
}

/** The most clashes said: past it, the rest are refused all the same, unsaid. */
const MAX_SAID = 1000

export const resourceRoutes = (): ResourceRoutes => ({ uris: new Map(), templates: [], said: new Set() })

/** Members still starting, waited for (at most `ms`): what a client asks first may need one that is not up yet, as the first list does. */
export const startedOf = (members: readonly Member[], ms: number): Promise<unknown> => within(Promise.allSettled(members.map(member => member.started)), ms)

const serving = (members: readonly Member[]): Member[] => members.filter(member => member.client?.getServerCapabilities()?.resources !== undefined)

const quoted = (text: string): string => JSON.stringify(text.slice(0, 200))

/** Says `line` once (by `key`). */
function sayOnce(routes: ResourceRoutes, key: string, line: string, options: ResourceOptions): void {
  if (routes.said.has(key) || routes.said.size >= MAX_SAID)
    return
  routes.said.add(key)
  options.log(`flatmcp proxy: ${line}`)
}

/** Every member's resources (or templates) as one list, each member's read at once; what each lists becomes its routes. */
export async function listResources(members: readonly Member[], routes: ResourceRoutes, key: 'resources' | 'resourceTemplates', options: ResourceOptions): Promise<unknown> {
  const method = key === 'resources' ? 'resources/list' : 'resources/templates/list'
  const lists = await Promise.all(serving(members).map(async (member) => {
    const result = await member.client!.request({ method }, ANY_RESULT, { timeout: options.listMs }).catch(() => undefined) as Record<string, unknown> | undefined
    const items = Array.isArray(result?.[key]) ? result[key] as unknown[] : []
    return { member, items }
  }))
  const uris = new Map<string, Member[]>()
  const templates: ResourceRoutes['templates'] = []
  for (const { member, items } of lists) {
    for (const item of items) {
      const { uri, uriTemplate } = (item ?? {}) as { uri?: unknown, uriTemplate?: unknown }
      if (key === 'resources' && typeof uri === 'string')
        uris.set(uri, [...new Set([...uris.get(uri) ?? [], member])])
      const makes = key === 'resourceTemplates' && typeof uriTemplate === 'string' ? templateMatcher(uriTemplate) : undefined
      if (makes)
        templates.push({ member, template: uriTemplate as string, makes })
    }
  }
  if (key === 'resources') {
    routes.uris = uris
    for (const [uri, holders] of uris) {
      if (holders.length > 1)
        sayOnce(routes, uri, twiceListed(uri, holders), options)
    }
  }
  else {
    routes.templates = templates
  }
  // A URI two servers list is read from neither: it is not listed either (said above).
  const readable = (item: unknown): boolean => key !== 'resources' || (uris.get((item as { uri?: unknown } | null)?.uri as string)?.length ?? 0) <= 1
  return { [key]: lists.flatMap(list => list.items.filter(readable)) }
}

const twiceListed = (uri: string, holders: readonly Member[]): string => `servers ${holders.map(member => `"${member.name}"`).join(' and ')} both list resource ${quoted(uri)}: it is read from neither`

/** The member `uri` goes to by the routes known, undefined where none places it; a clash throws, said. */
function placed(routes: ResourceRoutes, uri: string, options: ResourceOptions): Member | undefined {
  const listed = routes.uris.get(uri)
  const clash = (key: string, line: string): Error => {
    sayOnce(routes, key, line, options)
    return rpcError(-32002, line)
  }
  if (listed && listed.length > 1)
    throw clash(uri, twiceListed(uri, listed))
  if (listed)
    return listed[0]
  const made = routes.templates.filter(route => route.makes(uri))
  const makers = [...new Set(made.map(route => route.member))]
  if (makers.length > 1) {
    const [a, b] = makers.map(member => made.find(route => route.member === member)!)
    throw clash(`${a!.template}\n${b!.template}`, `the templates of servers "${a!.member.name}" (${a!.template}) and "${b!.member.name}" (${b!.template}) both make ${quoted(uri)}: it is read from neither`)
  }
  return makers[0]
}

/** The member a URI is known to go to now, without reading a list (a request's slots are chosen by it); undefined where none is, or two clash. */
export function knownMemberOfUri(members: readonly Member[], routes: ResourceRoutes, uri: unknown): Member | undefined {
  if (typeof uri !== 'string')
    return undefined
  const listed = routes.uris.get(uri)
  const made = listed ? listed : [...new Set(routes.templates.filter(route => route.makes(uri)).map(route => route.member))]
  const servingNow = serving(members)
  return made.length === 1 ? made[0] : made.length === 0 && servingNow.length === 1 ? servingNow[0] : undefined
}

/**
 * The member a resource's URI goes to: by the routes known, else by the members' lists read anew,
 * else the only member that serves resources; undefined where none is.
 */
export async function memberOfUri(members: readonly Member[], routes: ResourceRoutes, uri: unknown, options: ResourceOptions): Promise<Member | undefined> {
  if (typeof uri !== 'string')
    return undefined
  const known = placed(routes, uri, options)
  if (known)
    return known
  await startedOf(members, options.listMs)
  const servingNow = serving(members)
  if (servingNow.length <= 1)
    return servingNow[0]
  routes.reading ??= Promise.all([listResources(members, routes, 'resources', options), listResources(members, routes, 'resourceTemplates', options)])
    .then(() => {}, () => {})
    .finally(() => {
      routes.reading = undefined
    })
  await routes.reading
  return placed(routes, uri, options)
}
