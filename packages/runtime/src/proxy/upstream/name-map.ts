// The one name map: which served name each server's own name (a tool's, a prompt's) has, and which
// server and own name each served name reaches. Listing, calls, prompts, the fetch handler and a
// snapshot's origins all read it; nothing else turns one kind of name into the other, so a name no
// list serves (an upstream's own `files.delete` beside the `files_delete` served) reaches nobody.
// A server's bad list (a name twice, two names that fit to one) costs that server the names at fault;
// a name under another server's prefix is left out; each said once. Never decided by arrival order.
import type { ToolOrigin } from '../../artifact/format'
import type { NamingOptions } from './gateway/served-names'
import { closestName } from '../../util/closest-name'
import { digest8, servedName } from './gateway/served-names'

/** One server's list of names (its tools, or its prompts), as it gave them. */
export interface OwnList { server: string, names: readonly string[] }

/** Served names both ways. */
export interface NameMap {
  /** Where a served name goes: its server and that server's own name; undefined for a name nobody serves. */
  origin: (served: string) => ToolOrigin | undefined
  /** The name a server's own name is served by; undefined where it is left out. */
  served: (server: string, own: string) => string | undefined
  /** Every served name and its origin, in the lists' order. */
  entries: () => IterableIterator<[string, ToolOrigin]>
  /** The server whose prefix a name is under, where one has a prefix: a call to a name no list holds is told that server is not running. */
  claimant: (name: string) => string | undefined
}

/** The longest a prefix and its separator may be, fitted: a name cut to 64 (55 and a digest) still starts with it. */
const MAX_NAMESPACE = 55

/** A server's prefix: its entry name unless the naming gives another (`''`: none). */
function prefixOf(server: string, naming: NamingOptions): string {
  return naming.prefixes && Object.hasOwn(naming.prefixes, server) ? naming.prefixes[server]! : server
}

/** The start of every name a server's prefix claims (`github__`); undefined for an empty prefix. */
export function namespaceOf(server: string, naming: NamingOptions): string | undefined {
  return prefixOf(server, naming) === '' ? undefined : servedName(server, '', naming)
}

/**
 * Why servers cannot be named apart, before any lists: two prefixes one of which starts the other
 * (`a__` and `a__b__`: `a__b__x` could be either's), two servers by their own names (a name both list
 * would be either's), a prefix too long to start a cut name, a prefix given to a server the config
 * does not have (a typo that would drop it). Undefined where they can.
 */
export function namespaceClash(servers: readonly string[], naming: NamingOptions): string | undefined {
  const stray = Object.keys(naming.prefixes ?? {}).find(server => !servers.includes(server))
  if (stray !== undefined) {
    const meant = closestName(stray, servers)
    return `the overrides give server ${JSON.stringify(stray)} a prefix, and no server of the config is called so${meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`}`
  }
  const bare = servers.filter(server => prefixOf(server, naming) === '')
  if (bare.length > 1)
    return `servers "${bare[0]}" and "${bare[1]}" both serve their tools by their own names (prefix ""): a name both list would be either's; give one of them a prefix`
  const spaces = servers.flatMap(server => prefixOf(server, naming) === '' ? [] : [[server, servedName(server, '', naming)] as const])
  const long = spaces.find(([, space]) => space.length > MAX_NAMESPACE)
  if (long)
    return `server "${long[0]}": its prefix and separator are ${long[1].length} characters, over the ${MAX_NAMESPACE} a tool name of 64 leaves them; give it a shorter prefix`
  for (const [i, [server, space]] of spaces.entries()) {
    const j = spaces.findIndex(([name, claimed]) => name !== server && space.startsWith(claimed))
    if (j < 0)
      continue
    // Named in the config's order, the longer prefix's namespace the one a name could be either's.
    const [first, second] = [spaces[Math.min(i, j)]!, spaces[Math.max(i, j)]!]
    if (first[1] === second[1])
      return `servers "${first[0]}" and "${second[0]}" would serve their tools under one prefix ("${space}"): give one of them another prefix`
    return `servers "${first[0]}" and "${second[0]}" serve their tools under prefixes that overlap ("${first[1]}" and "${second[1]}"): a name under "${space}" could be either's; give one of them another prefix`
  }
  return undefined
}

/** Said once each (a list read again and again does not say it again); past the first thousand, nothing more, said once. */
export function onceEach(log: (line: string) => void, max = 1000): (line: string) => void {
  const said = new Set<string>()
  return (line) => {
    if (said.has(line) || said.size > max)
      return
    said.add(line)
    log(said.size > max ? `flatmcp proxy: more than ${max} lines about names said; the rest are not` : line)
  }
}

/** The most lines one list of one server has said of its names: a list of thousands of bad names is a few lines, and a count. */
const MAX_SAID = 10

/** What is said of one server's list: its first lines, then how many more there were. */
function fewLines(server: string, tell: (line: string) => void): { say: (line: string) => void, done: () => void } {
  let count = 0
  return {
    say: (line) => {
      if (++count <= MAX_SAID)
        tell(line)
    },
    done: () => {
      if (count > MAX_SAID)
        tell(`flatmcp proxy: server ${JSON.stringify(server)}: ${count - MAX_SAID} more of its names left out or told apart, not said one by one`)
    },
  }
}

/** Each item whose name comes first in its list: a server that lists a name twice has its first served (its own list's order, not another's). */
export function firstOfEach<T>(items: readonly T[], nameOf: (item: T) => string | undefined): T[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const name = nameOf(item)
    if (name !== undefined && seen.has(name))
      return false
    if (name !== undefined)
      seen.add(name)
    return true
  })
}

/**
 * One server's own names, each with the name it is served by: a name it lists twice served once (the
 * first, said); where two fit to one, each that is not that name as it stands takes the digest of its
 * own (`a.b` → `a_b_1c2d…` beside `a_b`); names that still come out the same left out, said.
 */
function fitOne(list: OwnList, naming: NamingOptions, what: string, tell: (line: string) => void): Map<string, string> {
  const times = new Map<string, number>()
  for (const name of list.names)
    times.set(name, (times.get(name) ?? 0) + 1)
  const quoted = (text: string): string => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)
  for (const [name, count] of times) {
    if (count > 1)
      tell(`flatmcp proxy: server ${quoted(list.server)} lists ${what} ${quoted(name)} ${count} times; the first is served, the others left out`)
  }
  const own = [...times.keys()]
  const prefix = prefixOf(list.server, naming)
  const whole = (name: string): string => prefix === '' ? name : `${prefix}${naming.separator ?? '__'}${name}`
  const first = new Map(own.map(name => [name, servedName(list.server, name, naming)]))
  const takers = new Map<string, number>()
  for (const served of first.values())
    takers.set(served, (takers.get(served) ?? 0) + 1)
  const fitted = new Map(own.map((name) => {
    const served = first.get(name)!
    return [name, takers.get(served)! > 1 && whole(name) !== served ? `${served.slice(0, 55)}_${digest8(whole(name))}` : served]
  }))
  const owners = new Map<string, string[]>()
  for (const [name, served] of fitted) {
    if (!owners.has(served))
      owners.set(served, [])
    owners.get(served)!.push(name)
  }
  for (const [served, names] of owners) {
    if (names.length < 2)
      continue
    tell(`flatmcp proxy: server ${quoted(list.server)} lists ${what}s ${names.map(quoted).join(' and ')}, which would all be served as ${quoted(served)}; they are left out`)
    for (const name of names)
      fitted.delete(name)
  }
  return fitted
}

export interface NameMapOptions {
  naming: NamingOptions
  /** Every server whose prefix claims names, listed now or not (one down still claims its own). Default: the lists'. */
  servers?: readonly string[]
  /** What the names are of, as lines say it. Default: `tool`. */
  what?: string
  /** Where what is left out is said. */
  tell?: (line: string) => void
}

/**
 * The served names of every server's list: its prefix, the separator and its own name, fitted to
 * `SERVED_NAME` (each server on its own: what one lists never moves another's names); a name under
 * another server's prefix, or one two servers would serve, left out of each.
 */
export function nameMap(lists: readonly OwnList[], options: NameMapOptions): NameMap {
  const { naming, what = 'tool', tell = () => {} } = options
  const spaces = (options.servers ?? lists.map(list => list.server)).flatMap((server) => {
    const space = namespaceOf(server, naming)
    return space === undefined ? [] : [[server, space] as const]
  })
  const claimants = (name: string): string[] => spaces.filter(([, space]) => name.startsWith(space)).map(([server]) => server)
  // A name under another server's prefix is that server's to serve: left out first, so it takes nothing from its owner.
  const said = new Map(lists.map(list => [list.server, fewLines(list.server, tell)]))
  const fitted = lists.map(list => [list.server, new Map([...fitOne(list, naming, what, said.get(list.server)!.say)].filter(([own, served]) => {
    const other = claimants(served).find(claimant => claimant !== list.server)
    if (other !== undefined)
      said.get(list.server)!.say(`flatmcp proxy: server ${JSON.stringify(list.server)} lists ${what} ${JSON.stringify(own.slice(0, 200))}, which would be served as ${JSON.stringify(served)}, under the prefix of server ${JSON.stringify(other)}; it is left out`)
    return other === undefined
  }))] as const)
  const holders = new Map<string, Set<string>>()
  for (const [server, names] of fitted) {
    for (const served of names.values())
      holders.set(served, (holders.get(served) ?? new Set()).add(server))
  }
  const origins = new Map<string, ToolOrigin>()
  const byServer = new Map<string, Map<string, string>>()
  for (const [server, names] of fitted) {
    const kept = new Map<string, string>()
    for (const [own, served] of names) {
      const also = [...holders.get(served)!].find(holder => holder !== server)
      if (also !== undefined) {
        said.get(server)!.say(`flatmcp proxy: servers "${[...holders.get(served)!].join('" and "')}" both list a ${what} that would be served as ${JSON.stringify(served)}; it is left out of each (give one of them a prefix)`)
        continue
      }
      kept.set(own, served)
      origins.set(served, { server, name: own })
    }
    byServer.set(server, kept)
  }
  for (const lines of said.values())
    lines.done()
  return {
    origin: served => origins.get(served),
    served: (server, own) => byServer.get(server)?.get(own),
    entries: () => origins.entries(),
    claimant: name => claimants(name)[0],
  }
}

/** The name map a snapshot recorded: each tool's `origin`, else the tool is its server's own name. */
export function recordedNames(tools: readonly { name: string, origin?: ToolOrigin }[], server: string): NameMap {
  const origins = new Map(tools.map(tool => [tool.name, tool.origin ?? { server, name: tool.name }]))
  const back = new Map([...origins].map(([served, origin]) => [`${origin.server}\u0000${origin.name}`, served]))
  return {
    origin: served => origins.get(served),
    served: (owner, own) => back.get(`${owner}\u0000${own}`),
    entries: () => origins.entries(),
    claimant: () => undefined,
  }
}
