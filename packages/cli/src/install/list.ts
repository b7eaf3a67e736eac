// `flatmcp install --list`: what is installed where, read and nothing written. For each client of the
// table (clients.ts) and each scope it has, its config file here, whether an entry there runs flatmcp,
// the servers behind it (those of the flatmcp config that entry names), and those left in the
// client's config itself.
import type { InstallClient, Scope, Where } from './clients'
import { escapeControl } from '@flatmcp/runtime/proxy'
import { readFileSync } from 'node:fs'
import { INSTALL_CLIENTS } from './clients'
import { toFlatmcp } from './entries'
import { clientServers, ENTRY_NAME, parseConfig, runsFlatmcp, splitBom } from './rewrite'
import { FLATMCP_SHAPE } from './shapes'
import { MAX_CONFIG_BYTES } from './write-through'

export interface InstallPlace {
  client: string
  title: string
  scope: Scope
  file: string
  /** No config file there; flatmcp's entry in it; none; or the file could not be read (`error` says why). */
  state: 'no file' | 'installed' | 'not installed' | 'unreadable'
  /** The servers behind flatmcp: those of the config its entry names. */
  behind: string[]
  /** The servers the client's config lists itself (flatmcp's entry aside). */
  own: string[]
  /** flatmcp's config, where installed. */
  servers?: string
  error?: string
}

/** A file's text, or undefined where there is none (one too large is an error, as install says). */
function readText(file: string): string | undefined {
  try {
    const data = readFileSync(file)
    if (data.length > MAX_CONFIG_BYTES)
      throw new Error(`is over ${MAX_CONFIG_BYTES / 2 ** 20} MiB`)
    return splitBom(data.toString('utf8'))[1]
  }
  catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return undefined
    throw error
  }
}

/** The names of the servers of flatmcp's config at `file`. */
function serversIn(file: string): string[] {
  const text = readText(file)
  if (text === undefined)
    throw new Error(`${file}: no such file (the servers behind flatmcp are missing)`)
  const servers = (parseConfig(text, file.endsWith('.toml') ? 'toml' : 'json', file) as Record<string, unknown>)[FLATMCP_SHAPE]
  return typeof servers === 'object' && servers !== null ? Object.keys(servers) : []
}

/** One client's config in one scope, read. */
function placeOf(base: Omit<InstallPlace, 'state' | 'behind' | 'own'>, client: InstallClient): InstallPlace {
  const place: InstallPlace = { ...base, state: 'no file', behind: [], own: [] }
  try {
    const text = readText(base.file)
    if (text === undefined)
      return place
    // Each client's entries in its own shape (a list, a command array): read as flatmcp's.
    const servers = clientServers(parseConfig(text, client.format, base.file), client, base.file) ?? {}
    const entry = toFlatmcp(client.entry, servers[ENTRY_NAME]) as { args?: string[] } | undefined
    place.own = Object.keys(servers).filter(name => !(name === ENTRY_NAME && runsFlatmcp(entry)))
    if (!runsFlatmcp(entry))
      return { ...place, state: 'not installed' }
    place.state = 'installed'
    place.servers = entry!.args![entry!.args!.lastIndexOf('--config') + 1]
    if (place.servers !== undefined)
      place.behind = serversIn(place.servers)
    return place
  }
  catch (error) {
    return { ...place, state: place.state === 'installed' ? 'installed' : 'unreadable', error: (error as Error).message }
  }
}

/** Every known client's config in each of its scopes, here, as it is now. */
export function listInstalls(where: Where): InstallPlace[] {
  return INSTALL_CLIENTS.flatMap(client => (['project', 'user'] as const).flatMap((scope) => {
    const file = client.files[scope]?.(where)
    return file === undefined ? [] : [placeOf({ client: client.name, title: client.title, scope, file }, client)]
  }))
}

/** The list as plain text: a line a place (its columns as wide as the table's longest name), the servers under it; a name's control characters escaped (a cloned project's config names its own). */
export function renderInstalls(places: readonly InstallPlace[]): string {
  const width = Math.max(...INSTALL_CLIENTS.map(client => client.name.length))
  return places.flatMap(place => [
    `${place.client.padEnd(width)}  ${place.scope.padEnd(7)}  ${place.state.padEnd(13)}  ${place.file}`,
    ...(place.behind.length > 0 ? [`    behind flatmcp (${place.servers}): ${place.behind.join(', ')}`] : []),
    ...(place.own.length > 0 ? [`    in ${place.title}'s config${place.state === 'installed' ? ' beside flatmcp' : ''}: ${place.own.join(', ')}`] : []),
    ...(place.error === undefined ? [] : [`    ${place.error}`]),
  ]).map(line => escapeControl(line)).join('\n')
}
