// A client's config rewritten so its servers run behind one `flatmcp proxy --config`: each entry
// flatmcp can serve moved out (as the client had it, env and all), one entry that runs flatmcp in
// their place, everything else in the file as it was (its comments, order and indentation: the
// edits are made in the text, JSON property by property where jsonc-parser finds them, TOML table by
// table). The result is read back
// before anything is written, and must hold exactly what it should.
import type { ConfigFormat, InstallClient } from './clients'
import { carriedKeys } from './clients'
import { isDeepStrictEqual } from 'node:util'
import { parseTOML } from 'confbox'
import type { Node, ParseError } from 'jsonc-parser'
import { findNodeAtLocation, parse, parseTree, printParseErrorCode } from 'jsonc-parser'
import { readServerEntry } from '../proxy/servers-config'

/** The name of the entry that runs flatmcp in the client's config. */
export const ENTRY_NAME = 'flatmcp'

/** A config that cannot be rewritten: the file and why, with what to do. */
export class InstallError extends Error {
  override name = 'InstallError'
}

/** The command and arguments of the entry that runs flatmcp. */
export interface FlatmcpEntry {
  command: string
  args: string[]
}

export interface Rewritten {
  /** The client's config as it is to be written. */
  text: string
  /** The entries moved into flatmcp's config, by name, as the client had them. */
  moved: Record<string, unknown>
  /** The entries left in the client's config, and why. */
  kept: { name: string, why: string }[]
}

/** Every variable set, for reading an entry's shape alone (its values are the proxy's to read later). */
const ANY_VALUE = new Proxy({}, { get: () => 'set' }) as Record<string, string>

/** The client's config, parsed as the client parses it. */
export function parseConfig(text: string, format: ConfigFormat, file: string): Record<string, unknown> {
  if (text.trim() === '')
    return {}
  if (format === 'toml') {
    try {
      return parseTOML(text) as Record<string, unknown>
    }
    catch (error) {
      throw new InstallError(`${file}: not TOML (${(error as Error).message.split('\n')[0]}); fix it, then install again`)
    }
  }
  const errors: ParseError[] = []
  const parsed = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown
  if (errors.length > 0 || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InstallError(`${file}: not a JSON object${errors[0] ? ` (${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset})` : ''}; fix it, then install again`)
  return parsed as Record<string, unknown>
}

/** Whether an entry is one that runs flatmcp over a config: the client is installed already. */
export function runsFlatmcp(entry: unknown): boolean {
  const { args } = (typeof entry === 'object' && entry !== null ? entry : {}) as { args?: unknown }
  return Array.isArray(args) && args.includes('proxy') && args.includes('--config')
}

/** An entry whose `env` values say `$NAME` as `${NAME}`: the variable the client read, as flatmcp reads it. */
function bracedVariables(entry: Record<string, unknown>): Record<string, unknown> {
  const env = entry.env
  if (typeof env !== 'object' || env === null)
    return entry
  const braced = Object.entries(env).map(([key, value]) => [key, typeof value === 'string' ? value.replace(/\$(?!\{)([A-Z_]\w*)/gi, '${$1}') : value])
  return { ...entry, env: Object.fromEntries(braced) }
}

/** Which of the client's servers move behind flatmcp, and which stay (switched off, or not a server flatmcp reaches). */
function sortServers(servers: Record<string, unknown>, client: InstallClient, file: string): Omit<Rewritten, 'text'> {
  const moved: Record<string, unknown> = {}
  const kept: Rewritten['kept'] = []
  for (const [name, entry] of Object.entries(servers)) {
    try {
      const read = readServerEntry(name, entry, client.key, file, ANY_VALUE)
      if ('off' in read)
        kept.push({ name, why: read.off })
      else
        moved[name] = client.bareVariables ? bracedVariables(entry as Record<string, unknown>) : entry
    }
    catch (error) {
      kept.push({ name, why: (error as Error).message.slice(file.length).replace(/^\.\S+ /, '') })
    }
  }
  return { moved, kept }
}

/** The client's config with its servable entries moved out and flatmcp's entry in their place. */
export function rewriteConfig(text: string, client: InstallClient, file: string, flatmcp: FlatmcpEntry): Rewritten {
  const parsed = parseConfig(text, client.format, file)
  const servers = parsed[client.key]
  if (servers === undefined || typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw new InstallError(`${file}: lists no MCP servers (no "${client.key}"), so there is nothing to put behind flatmcp`)
  const table = servers as Record<string, unknown>
  if (Object.values(table).some(runsFlatmcp))
    throw new InstallError(`${file}: its servers run behind flatmcp already; \`flatmcp install ${client.name} --undo\` restores the config it had`)
  if (ENTRY_NAME in table)
    throw new InstallError(`${file}: a server is named "${ENTRY_NAME}" already; rename it, then install again`)
  const { moved, kept } = sortServers(table, client, file)
  if (Object.keys(moved).length === 0)
    throw new InstallError(`${file}: no server flatmcp can serve (${kept.map(entry => `${entry.name}: ${entry.why}`).join('; ')})`)
  const entry = { ...client.stdio, command: flatmcp.command, args: flatmcp.args, ...carriedKeys(client, Object.values(moved)) }
  const written = client.format === 'toml' ? rewriteToml(text, Object.keys(moved), entry) : rewriteJson(text, client.key, Object.keys(moved), entry)
  checkRewritten(written, client, file, kept, entry)
  return { text: written, moved, kept }
}

/** The rewritten text, read back: the servers kept and flatmcp's entry (as plain JSON: a TOML parser's objects have no prototype), nothing else under the key. */
function checkRewritten(text: string, client: InstallClient, file: string, kept: Rewritten['kept'], entry: Record<string, unknown>): void {
  const servers = parseConfig(text, client.format, file)[client.key] as Record<string, unknown> | undefined
  const names = Object.keys(servers ?? {}).sort()
  const expected = [...kept.map(k => k.name), ENTRY_NAME].sort()
  if (!isDeepStrictEqual(names, expected) || !isDeepStrictEqual(JSON.parse(JSON.stringify(servers?.[ENTRY_NAME] ?? null)), entry))
    throw new InstallError(`${file}: could not be rewritten in place (it would list ${names.join(', ')}); move its servers into a flatmcp config by hand (docs/proxy.md, "Many servers behind one endpoint")`)
}

/** The indentation one level of a JSON text takes (its first indented line's). */
function indentUnit(text: string): string {
  return /^([ \t]+)\S/m.exec(text)?.[1] ?? '  '
}

/** Where a line starts, and the whitespace it starts with. */
function lineOf(text: string, offset: number): { start: number, indent: string } {
  const start = text.lastIndexOf('\n', offset - 1) + 1
  return { start, indent: /^[ \t]*/.exec(text.slice(start))![0] }
}

/** The servers object of a JSON text, as jsonc-parser reads its tree. */
function serversNode(text: string, key: string): Node {
  return findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, [key])!
}

/**
 * The text without one property of the servers object: its own lines (and the comment lines just
 * above it) where it has them, else its text alone; with the comma that joined it to the others.
 */
function withoutProperty(text: string, key: string, name: string): string {
  const properties = serversNode(text, key).children ?? []
  const index = properties.findIndex(property => property.children?.[0]?.value === name)
  const property = properties[index]!
  let start = property.offset
  let end = property.offset + property.length
  const comma = /^\s*,/.exec(text.slice(end))
  if (comma)
    end += comma[0].length
  else if (index > 0)
    start = properties[index - 1]!.offset + properties[index - 1]!.length
  const line = lineOf(text, start)
  const rest = /^[ \t]*(?:\/\/[^\n]*)?\r?\n/.exec(text.slice(end))
  // Its own lines go where it stands alone on them (with the comma after it, or as the only one).
  if ((comma || index === 0) && text.slice(line.start, start).trim() === '' && rest) {
    start = line.start
    end += rest[0].length
    // The comment lines just above it are its own.
    while (/(^|\n)[ \t]*\/\/[^\n]*\r?\n$/.test(text.slice(0, start)))
      start = text.lastIndexOf('\n', start - 2) + 1
  }
  return text.slice(0, start) + text.slice(end)
}

/** The text with one property first in the servers object, indented as the properties there are. */
function withFirstProperty(text: string, key: string, name: string, value: unknown, eol: string): string {
  const object = serversNode(text, key)
  const first = object.children?.[0]
  const unit = indentUnit(text)
  const outer = lineOf(text, object.offset).indent
  const indent = first ? lineOf(text, first.offset).indent : `${outer}${unit}`
  const body = JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`)
  const open = object.offset + 1
  // An empty object on its own lines keeps its closing line; `{}` gets one.
  const closed = first ? ',' : /^[ \t]*\r?\n/.test(text.slice(open)) ? '' : `${eol}${outer}`
  return `${text.slice(0, open)}${eol}${indent}${JSON.stringify(name)}: ${body}${closed}${text.slice(open)}`
}

function rewriteJson(text: string, key: string, moved: readonly string[], entry: Record<string, unknown>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const without = moved.reduce((out, name) => withoutProperty(out, key, name), text)
  return withFirstProperty(without, key, ENTRY_NAME, entry, eol)
}

/** A TOML table header's key path (`[mcp_servers."my server".env]`), or undefined for a line that is none. */
function tableKey(line: string): string[] | undefined {
  const header = /^\s*\[(?!\[)(.*)\]\s*(?:#.*)?$/.exec(line)?.[1]
  if (header === undefined)
    return undefined
  return [...header.matchAll(/\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([\w-]+))\s*(?:\.|$)/g)].map(m => m[1] ?? m[2] ?? m[3]!)
}

/** A TOML string, as TOML writes one (its JSON form is one). */
const tomlString = (value: string): string => JSON.stringify(value)

/** The text's lines without the tables of the servers named (each `[mcp_servers.NAME]` and its sub-tables), and those tables' lines by server. */
function tomlSplit(text: string, names: readonly string[]): { kept: string[], tables: Map<string, string[]> } {
  const kept: string[] = []
  const tables = new Map<string, string[]>()
  let table: string[] | undefined
  for (const line of text.split(/\r?\n/)) {
    const key = tableKey(line)
    if (key !== undefined) {
      const name = key[0] === 'mcp_servers' && names.includes(key[1]!) ? key[1]! : undefined
      table = name === undefined ? undefined : tables.get(name) ?? tables.set(name, []).get(name)
    }
    ;(table ?? kept).push(line)
  }
  while (kept.length > 0 && kept.at(-1)!.trim() === '')
    kept.pop()
  return { kept, tables }
}

/** A TOML value as TOML writes it: JSON's strings, numbers, booleans and arrays; an object as an inline table. */
function tomlValue(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return `{ ${Object.entries(value).map(([key, item]) => `${tomlString(key)} = ${tomlValue(item)}`).join(', ')} }`
  return Array.isArray(value) ? `[${value.map(tomlValue).join(', ')}]` : JSON.stringify(value)
}

/** One server's table. */
function tomlTable(name: string, entry: Record<string, unknown>): string[] {
  const key = /^[\w-]+$/.test(name) ? name : tomlString(name)
  return [`[mcp_servers.${key}]`, ...Object.entries(entry).map(([field, value]) => `${field} = ${tomlValue(value)}`)]
}

/** The lines kept, then each table, a blank line between. */
function tomlJoin(kept: readonly string[], tables: readonly string[][], eol: string): string {
  const blocks = tables.map(lines => lines.join(eol).replace(/\s+$/, ''))
  return `${[kept.join(eol), ...blocks].filter(block => block !== '').join(`${eol}${eol}`)}${eol}`
}

function rewriteToml(text: string, moved: readonly string[], entry: Record<string, unknown>): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  return tomlJoin(tomlSplit(text, moved).kept, [tomlTable(ENTRY_NAME, entry)], eol)
}

/**
 * A config the client changed since the install, undone by meaning: flatmcp's entry taken out, each
 * server of flatmcp's config put back (as the original had it, where it is unchanged), and the rest
 * of the file as it is now.
 */
export function restoreConfig(now: string, original: string, servers: Record<string, unknown>, client: InstallClient, file: string): string {
  const table = parseConfig(now, client.format, file)[client.key] as Record<string, unknown> | undefined
  if (!table || !runsFlatmcp(table[ENTRY_NAME]))
    throw new InstallError(`${file}: flatmcp's entry is no longer in it, so there is nothing to take out; \`--undo --force\` writes the file as it was before the install`)
  const names = Object.keys(servers)
  const eol = now.includes('\r\n') ? '\r\n' : '\n'
  if (client.format === 'json') {
    const without = withoutProperty(now, client.key, ENTRY_NAME)
    return [...names].reverse().reduce((out, name) => withFirstProperty(out, client.key, name, servers[name], eol), without)
  }
  const before = (parseConfig(original, 'toml', file)[client.key] ?? {}) as Record<string, unknown>
  const originalTables = tomlSplit(original, names).tables
  const same = (name: string): boolean => isDeepStrictEqual(JSON.parse(JSON.stringify(before[name] ?? null)), servers[name])
  const tables = names.map(name => same(name) && originalTables.has(name) ? originalTables.get(name)! : tomlTable(name, servers[name] as Record<string, unknown>))
  return tomlJoin(tomlSplit(now, [ENTRY_NAME]).kept, tables, eol)
}
