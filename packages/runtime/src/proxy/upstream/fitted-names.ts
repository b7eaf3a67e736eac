// One upstream's tools under names every client takes: a name outside `SERVED_NAME` (a dot, a space,
// a leading digit, past 64 characters) is refused by Copilot in Visual Studio, Kimi and Gemini, so it
// is served fitted (`fittedName`, deterministic; where that is taken, with its digest) and a call to
// the fitted name reaches the upstream's own. Each renaming is said once. Names that fit pass as they are.
import type { ToolOrigin } from '../../artifact/format'
import type { Message, RequestOptions, UpstreamClient } from './upstream'
import { isObject } from '../../util/object'
import { digest8, fittedName, SERVED_NAME } from './many/served-names'

/** The names a list's tools are served by, and the way back from each renamed one. */
function fitList(tools: unknown[], back: Map<string, string>, said: Set<string>, log: (line: string) => void): unknown[] {
  const names = new Set(tools.map(tool => isObject(tool) ? tool.name : undefined).filter(name => typeof name === 'string'))
  return tools.map((tool) => {
    if (!isObject(tool) || typeof tool.name !== 'string' || SERVED_NAME.test(tool.name))
      return tool
    const own = tool.name
    let served = fittedName(own)
    if (names.has(served) || (back.has(served) && back.get(served) !== own))
      served = `${served.slice(0, 55)}_${digest8(own)}`
    back.set(served, own)
    if (!said.has(own))
      log(`flatmcp proxy: tool ${JSON.stringify(own)} is served as ${JSON.stringify(served)} (clients refuse a name outside ${SERVED_NAME.source}); a call to it reaches ${JSON.stringify(own)}`)
    said.add(own)
    return { ...tool, name: served }
  })
}

/** The client, its tools listed under fitted names and called back under their own. */
export function withFittedNames(client: UpstreamClient, log: (line: string) => void): UpstreamClient {
  // The way back of the list served, swapped whole once a list's last page is read (calls meanwhile use the one before).
  let back = new Map<string, string>()
  let reading = new Map<string, string>()
  const said = new Set<string>()
  const request = async (message: Message, resultSchema: unknown, options?: RequestOptions): Promise<unknown> => {
    const params = isObject(message.params) ? message.params : undefined
    const name = params?.name
    const sent = message.method === 'tools/call' && typeof name === 'string' && back.has(name) ? { ...message, params: { ...params, name: back.get(name) } } : message
    const result = await client.request(sent, resultSchema, options)
    if (message.method !== 'tools/list' || !isObject(result) || !Array.isArray(result.tools))
      return result
    // A first page starts the list anew.
    if (params?.cursor === undefined)
      reading = new Map()
    const tools = fitList(result.tools, reading, said, log)
    if (result.nextCursor === undefined)
      back = reading
    return { ...result, tools }
  }
  // Where a renamed tool comes from, for a snapshot to record (a fetch handler calls it by its own name); many servers' origins are their own.
  const origins = (): ReadonlyMap<string, ToolOrigin> => new Map([...back].map(([served, own]) => [served, { server: client.getServerVersion()?.name ?? 'upstream', name: own }]))
  // Everything else is the client's own, read and set on it (handlers the proxy sets later included).
  return new Proxy(client, {
    get(target, property) {
      if (property === 'request')
        return request
      if (property === 'origins' && target.origins === undefined && back.size > 0)
        return origins
      const value = Reflect.get(target, property, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
    set: (target, property, value) => Reflect.set(target, property, value, target),
  })
}
