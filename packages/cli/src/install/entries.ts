// A client's own entry for a server and the entry flatmcp's `--config` reads, each made from the
// other: Goose's `cmd`/`envs`, opencode's command as one list, Zed's `source`, Continue's list of
// named entries. A key with no counterpart is carried as it is, so the proxy refuses it by name and
// the server stays in the client's config, said: nothing a client starts a server with is dropped.
import { isDeepStrictEqual } from 'node:util'
import { isObject } from '../util'

/** How a client's entry differs from flatmcp's, where it does. */
export interface EntryShape {
  /** Its keys, each for flatmcp's: Goose's `cmd` for `command`, `envs` for `env`. */
  keys?: Readonly<Record<string, string>>
  /** Its transport names (`type`), each for flatmcp's: Goose's `streamable_http`, opencode's `local`. */
  types?: Readonly<Record<string, string>>
  /** Its command and arguments are one list (opencode's `command`). */
  commandList?: boolean
  /** Keys it writes with a value that says nothing (Goose's `bundled: null`): left out of flatmcp's entry. */
  idle?: Readonly<Record<string, unknown>>
  /** A key and value that mark a server the client runs itself (Zed's `"source": "extension"`), and what it is: that server stays. */
  own?: { key: string, value: unknown, what: string }
}

type Entry = Record<string, unknown>

const inverted = (table: Readonly<Record<string, string>> = {}): Record<string, string> => Object.fromEntries(Object.entries(table).map(([a, b]) => [b, a]))

/** A client's entry as flatmcp's `--config` reads it (one that is no object is left for the reader to refuse). */
export function toFlatmcp(shape: EntryShape | undefined, entry: unknown): unknown {
  if (shape === undefined || !isObject(entry))
    return entry
  const out: Entry = {}
  for (const [key, value] of Object.entries(entry)) {
    if (shape.idle && Object.hasOwn(shape.idle, key) && isDeepStrictEqual(shape.idle[key], value))
      continue
    if (key === 'type' && typeof value === 'string' && shape.types?.[value] !== undefined)
      out.type = shape.types[value]
    else if (key === 'command' && shape.commandList && Array.isArray(value) && value.length > 0)
      Object.assign(out, { command: value[0], ...(value.length > 1 ? { args: value.slice(1) } : {}) })
    else
      out[shape.keys?.[key] ?? key] = value
  }
  return out
}

/** Why a client's entry is a server the client runs itself, where it is one. */
export function runByClient(shape: EntryShape | undefined, entry: unknown): string | undefined {
  const own = shape?.own
  if (own === undefined || !isObject(entry) || !isDeepStrictEqual(entry[own.key], own.value))
    return undefined
  return `is ${own.what} (${JSON.stringify(own.key)}: ${JSON.stringify(own.value)}), not a command flatmcp starts`
}

/** flatmcp's entry as the client writes it. */
export function fromFlatmcp(shape: EntryShape | undefined, entry: Entry): Entry {
  if (shape === undefined)
    return entry
  const keys = inverted(shape.keys)
  const types = inverted(shape.types)
  const out: Entry = {}
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'type' && typeof value === 'string' && types[value] !== undefined)
      out.type = types[value]
    else if (key === 'command' && shape.commandList)
      out.command = [value, ...((entry.args as unknown[] | undefined) ?? [])]
    else if (!(key === 'args' && shape.commandList))
      out[keys[key] ?? key] = value
  }
  return out
}

/**
 * A client's servers by name: the object under its key, or (`list`, Continue's) its list of entries,
 * each named by its own `name` (an entry with none, a hub block's `uses`, is not a server install
 * moves: it stays as it is). Undefined where the key holds neither; a name given twice is `twice`.
 */
export function serversTable(parsed: Entry, key: string, list: boolean | undefined): { table?: Record<string, unknown>, twice?: string } {
  const servers = parsed[key]
  if (!list)
    return isObject(servers) ? { table: servers } : {}
  if (!Array.isArray(servers))
    return {}
  const table: Record<string, unknown> = {}
  for (const item of servers) {
    const name = isObject(item) ? item.name : undefined
    if (typeof name !== 'string')
      continue
    if (Object.hasOwn(table, name))
      return { table, twice: name }
    table[name] = item
  }
  return { table }
}
