// One upstream's tools under names every client takes: a name outside `SERVED_NAME` (a dot, a space,
// a leading digit, past 64 characters) is refused by Copilot in Visual Studio, Kimi and Gemini, so it
// is served fitted (the name map's rule: deterministic; where two fit to one, with a digest) and a call
// to the fitted name reaches the upstream's own. Only a served name is called: the upstream's own
// `files.delete` beside the `files_delete` served is no tool's (so what the overrides hide or fix by
// the served name holds). Each renaming is said once. Names that fit pass as they are.
import type { ToolOrigin } from '../../artifact/format'
import type { NameMap } from './name-map'
import type { Message, RequestOptions, UpstreamClient } from './upstream'
import { shown } from '../../util/log'
import { lastMade } from '../../util/last-made'
import { isObject } from '../../util/object'
import { listAll } from './list-pages'
import { SERVED_NAME } from './gateway/served-names'
import { firstOfEach, nameMap, onceEach } from './name-map'

/** An error a client reads as a name no tool has. */
const unknownTool = (name: unknown): Error => Object.assign(new Error(`Unknown tool ${JSON.stringify(typeof name === 'string' ? name.slice(0, 200) : name)}.`), { code: -32602 })

/** The client, its tools listed under fitted names (every page read at once, so a name is fitted knowing the whole list) and called back under their own. */
export function withFittedNames(client: UpstreamClient, log: (line: string) => void): UpstreamClient {
  // A gateway keeps its own name map (their origins): their names are served already.
  if (client.origins !== undefined)
    return client
  const server = (): string => client.getServerVersion()?.name ?? 'upstream'
  const tell = onceEach(log)
  // The map of the list served, swapped whole once the list is read (calls meanwhile use the one before).
  let names: NameMap | undefined
  const list = async (message: Message, resultSchema: unknown, options?: RequestOptions): Promise<unknown> => {
    let first: Record<string, unknown> | undefined
    const { tools } = await listAll(async (page) => {
      const result = await client.request({ ...message, params: { ...message.params, ...page.params } }, resultSchema, options)
      first ??= isObject(result) ? result : undefined
      return result
    }, log)
    const nameOf = (tool: unknown): string | undefined => isObject(tool) && typeof tool.name === 'string' ? tool.name : undefined
    const own = server()
    const map = nameMap([{ server: own, names: tools.map(nameOf).filter(name => name !== undefined) }], { naming: { prefixes: { [own]: '' } }, tell })
    names = map
    // A tool without a name goes on as it came: the list's reader says what is wrong with it.
    const served = firstOfEach(tools, nameOf).flatMap((tool) => {
      const name = nameOf(tool) === undefined ? undefined : map.served(own, nameOf(tool)!)
      if (name === undefined)
        return nameOf(tool) === undefined ? [tool] : []
      if (name !== nameOf(tool))
        tell(`flatmcp proxy: tool ${shown(nameOf(tool))} is served as ${JSON.stringify(name)} (clients refuse a name outside ${SERVED_NAME.source}); a call to it reaches ${shown(nameOf(tool))}`)
      return [{ ...tool as object, name }]
    })
    const { nextCursor: _, ...rest } = first ?? {}
    return { ...rest, tools: served }
  }
  const request = async (message: Message, resultSchema: unknown, options?: RequestOptions): Promise<unknown> => {
    if (message.method === 'tools/list')
      return list(message, resultSchema, options)
    if (message.method !== 'tools/call')
      return client.request(message, resultSchema, options)
    const name = message.params?.name
    const origin = typeof name === 'string' ? names?.origin(name) : undefined
    if (!origin)
      throw unknownTool(name)
    return client.request({ ...message, params: { ...message.params, name: origin.name } }, resultSchema, options)
  }
  // Where a renamed tool comes from, for a snapshot to record (a fetch handler calls it by its own name); many servers' origins are their own.
  // Made again only when a list replaces the map: each traced or audited call asks for it.
  const renamed = lastMade((map: NameMap | undefined): ReadonlyMap<string, ToolOrigin> => new Map([...map?.entries() ?? []].filter(([served, origin]) => served !== origin.name)))
  const origins = (): ReadonlyMap<string, ToolOrigin> => renamed(names)
  // Everything else is the client's own, read and set on it (handlers the proxy sets later included).
  return new Proxy(client, {
    get(target, property) {
      if (property === 'request')
        return request
      if (property === 'origins' && origins().size > 0)
        return origins
      const value = Reflect.get(target, property, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
    set: (target, property, value) => Reflect.set(target, property, value, target),
  })
}
