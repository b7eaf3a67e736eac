// A client's config rewritten so its servers run behind one `flatmcp proxy --config`: each entry
// flatmcp can start as the client would moved out (as the client had it, env and all, its own
// variables resolved: client-variables.ts), one entry that runs flatmcp in
// their place, everything else in the file as it was (the edits are made in the text: json-text.ts,
// toml-text.ts, yaml-text.ts; a client's own entry shape is translated by entries.ts). The result is read back before anything is written, and must hold exactly what it
// should; an undo puts back what the install took out.
import type { ServerEntry } from '../proxy/servers-config'
import type { Place } from './client-variables'
import type { ConfigFormat, InstallClient } from './clients'
import { asFlatmcpReads, placeOf } from './client-variables'
import { carriedKeys, here } from './clients'
import { isDeepStrictEqual } from 'node:util'
import { parseJSONC, parseTOML } from 'confbox'
import type { ParseError } from 'jsonc-parser'
import { parse, printParseErrorCode } from 'jsonc-parser'
import { parseDocument } from 'yaml'
import { readServerEntry, ServersConfigError } from '../proxy/servers-config'
import { fromFlatmcp, runByClient, serversTable, toFlatmcp } from './entries'
import { rewriteJson, twiceGiven, withFirstProperties, withoutProperties } from './json-text'
import { rewriteToml, tomlJoin, tomlSplit, tomlTable } from './toml-text'
import { rewriteYaml, yamlWithFirst, yamlWithout } from './yaml-text'

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
  /** The entries moved into flatmcp's config, by name, as the client had them (its own variables resolved). */
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
  if (format === 'yaml')
    return parseYaml(text, file)
  const errors: ParseError[] = []
  const parsed = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown
  if (errors.length > 0 || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InstallError(`${file}: not a JSON object${errors[0] ? ` (${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset})` : ''}; fix it, then install again`)
  // The value as `--config` reads it (`__proto__` a key, as JSON.parse has it); jsonc-parser's made it the prototype.
  return parseJSONC(text, { allowTrailingComma: true }) as Record<string, unknown>
}

/** A YAML config, parsed: a mapping at its top, each key once (a key given twice is an error, as which one the client reads is unsure). */
function parseYaml(text: string, file: string): Record<string, unknown> {
  const document = parseDocument(text, { uniqueKeys: true })
  const error = document.errors[0]
  const parsed = error ? undefined : document.toJS() as unknown
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InstallError(`${file}: not a YAML mapping${error ? ` (${error.message.split('\n')[0]})` : ''}; fix it, then install again`)
  return parsed as Record<string, unknown>
}

/** A text's byte order mark (or nothing) and the text after it. */
export function splitBom(text: string): [string, string] {
  return text.startsWith('\uFEFF') ? ['\uFEFF', text.slice(1)] : ['', text]
}

/** A client's config, parsed, where its edits are sure: a JSON config's top key or server given twice is refused (which one the client reads is unsure). */
function parseClientConfig(text: string, client: InstallClient, file: string): Record<string, unknown> {
  const parsed = parseConfig(text, client.format, file)
  const twice = client.format === 'json' ? twiceGiven(text, client.key) : undefined
  if (twice !== undefined)
    throw new InstallError(`${file}: ${twice} is given twice, so which one the client reads is unsure; keep one, then install again`)
  return parsed
}

/** The client's servers by name, as it writes them; undefined where its key holds none. */
export function clientServers(parsed: Record<string, unknown>, client: InstallClient, file: string): Record<string, unknown> | undefined {
  const { table, twice } = serversTable(parsed, client.key, client.list)
  if (twice !== undefined)
    throw new InstallError(`${file}: "${client.key}" lists "${twice}" twice, so which one the client reads is unsure; keep one, then install again`)
  return table
}

/** Whether an entry is one that runs flatmcp over a config: the client is installed already. */
export function runsFlatmcp(entry: unknown): boolean {
  const { args } = (typeof entry === 'object' && entry !== null ? entry : {}) as { args?: unknown }
  return Array.isArray(args) && args.includes('proxy') && args.includes('--config')
}

/** A client's entry as flatmcp's config holds it once moved: in flatmcp's shape, its variables resolved for its place and as flatmcp reads them; or why it cannot be. */
function movedForm(client: InstallClient, entry: unknown, place: Place): { entry: unknown } | { why: string } {
  const own = runByClient(client.entry, entry)
  return own === undefined ? asFlatmcpReads(toFlatmcp(client.entry, entry), client, place) : { why: own }
}

/** Which of the client's servers move behind flatmcp (as flatmcp reads them), and which stay (switched off, or not a server flatmcp starts as the client would). */
function sortServers(servers: Record<string, unknown>, client: InstallClient, file: string, place: Place): Omit<Rewritten, 'text'> & { read: ServerEntry[] } {
  // No prototype: a server named `__proto__` is a key like any other, not the object's prototype (which left it unmoved and unsaid).
  const moved: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  const read: ServerEntry[] = []
  const kept: Rewritten['kept'] = []
  for (const [name, entry] of Object.entries(servers)) {
    const resolved = movedForm(client, entry, place)
    if ('why' in resolved) {
      kept.push({ name, why: resolved.why })
      continue
    }
    try {
      const server = readServerEntry(name, resolved.entry, client.key, file, ANY_VALUE)
      if ('off' in server) {
        kept.push({ name, why: server.off })
        continue
      }
      moved[name] = resolved.entry
      read.push(server)
    }
    catch (error) {
      if (!(error instanceof ServersConfigError))
        throw error
      // The key it stops at, as the proxy's own error names it: "env_vars: must be a list of variable names".
      kept.push({ name, why: error.key === undefined ? error.reason : `${error.key}: ${error.reason}` })
    }
  }
  return { moved, kept, read }
}

/**
 * Every variable the moved servers read from flatmcp's environment (`${NAME}` anywhere in them, and
 * what they pass through or name): for a client that passes a server only those its entry names.
 */
function variablesRead(moved: Record<string, unknown>, read: readonly ServerEntry[]): string[] {
  const names = new Set<string>()
  const found = (text: string): void => {
    for (const match of text.matchAll(/\$\{(?:env:)?([A-Za-z_]\w*)(?::-[^}]*)?\}/g))
      names.add(match[1]!)
  }
  found(JSON.stringify(moved))
  for (const { target } of read)
    found(JSON.stringify('command' in target ? target.env ?? {} : target.headers ?? {}))
  return [...names].sort()
}

/** What flatmcp's entry passes on of the client's: its keys of how it starts and trusts a server, and the variables it must be handed. */
function entryKeys(client: InstallClient, moved: Record<string, unknown>, read: readonly ServerEntry[]): Record<string, unknown> {
  const passed = client.passes === undefined ? [] : variablesRead(moved, read)
  return { ...carriedKeys(client, Object.values(moved)), ...(passed.length > 0 ? { [client.passes!]: passed } : {}) }
}

/** The client's config with its servable entries moved out and flatmcp's entry in their place. */
export function rewriteConfig(read: string, client: InstallClient, file: string, flatmcp: FlatmcpEntry, place: Place = placeOf(client, file, here())): Rewritten {
  // A byte order mark (as some Windows editors write) is kept, and read past.
  const [bom, text] = splitBom(read)
  const parsed = parseClientConfig(text, client, file)
  const table = clientServers(parsed, client, file)
  if (table === undefined)
    throw new InstallError(`${file}: lists no MCP servers (no "${client.key}"), so there is nothing to put behind flatmcp`)
  if (Object.values(table).some(entry => runsFlatmcp(toFlatmcp(client.entry, entry))))
    throw new InstallError(`${file}: its servers run behind flatmcp already; \`flatmcp install ${client.name} --undo\` restores the config it had`)
  if (ENTRY_NAME in table)
    throw new InstallError(`${file}: a server is named "${ENTRY_NAME}" already; rename it, then install again`)
  if (Object.keys(table).length === 0)
    throw new InstallError(`${file}: lists no MCP servers ("${client.key}" is empty), so there is nothing to put behind flatmcp`)
  const { moved, kept, read: entries } = sortServers(table, client, file, place)
  if (Object.keys(moved).length === 0)
    throw new InstallError(`${file}: no server flatmcp can serve (${kept.map(entry => `${entry.name}: ${entry.why}`).join('; ')})`)
  const flat = { command: flatmcp.command, args: flatmcp.args, ...entryKeys(client, moved, entries) }
  const entry = { ...(client.named ? { name: ENTRY_NAME } : {}), ...client.stdio, ...fromFlatmcp(client.entry, flat) }
  const written = writtenText(text, client, Object.keys(moved), entry, file)
  checkRewritten(written, client, file, kept, entry)
  checkOutside(parsed, written, client, file)
  return { text: `${bom}${written}`, moved, kept }
}

/** The client's text with the servers `moved` taken out and flatmcp's `entry` in, in its format. */
function writtenText(text: string, client: InstallClient, moved: string[], entry: Record<string, unknown>, file: string): string {
  if (client.format === 'toml')
    return rewriteToml(text, moved, ENTRY_NAME, entry)
  if (client.format === 'json')
    return rewriteJson(text, client.key, moved, ENTRY_NAME, entry)
  try {
    return rewriteYaml(text, client.key, moved, ENTRY_NAME, entry, client.list)
  }
  catch (error) {
    throw new InstallError(`${file}: could not be rewritten in place (${(error as Error).message}); move its servers into a flatmcp config by hand (docs/proxy.md, "Many servers behind one endpoint")`)
  }
}

/** The rewritten text, read back: the servers kept and flatmcp's entry (as plain JSON: a TOML parser's objects have no prototype), nothing else under the key. */
function checkRewritten(text: string, client: InstallClient, file: string, kept: Rewritten['kept'], entry: Record<string, unknown>): void {
  const servers = clientServers(parseConfig(text, client.format, file), client, file)
  const names = Object.keys(servers ?? {}).sort()
  const expected = [...kept.map(k => k.name), ENTRY_NAME].sort()
  if (!isDeepStrictEqual(names, expected) || !isDeepStrictEqual(JSON.parse(JSON.stringify(servers?.[ENTRY_NAME] ?? null)), entry))
    throw new InstallError(`${file}: could not be rewritten in place (it would list ${names.join(', ')}); move its servers into a flatmcp config by hand (docs/proxy.md, "Many servers behind one endpoint")`)
}

/** A config's values, outside its servers' key, as plain JSON. */
function outside(parsed: Record<string, unknown>, key: string): unknown {
  return JSON.parse(JSON.stringify({ ...parsed, [key]: undefined }))
}

/** The rewritten text, read back: everything outside the servers' key as it was (an edit never reaches what it does not own). */
function checkOutside(before: Record<string, unknown>, text: string, client: InstallClient, file: string): void {
  if (!isDeepStrictEqual(outside(before, client.key), outside(parseConfig(text, client.format, file), client.key)))
    throw new InstallError(`${file}: could not be rewritten in place (the edit would change what is outside "${client.key}"); move its servers into a flatmcp config by hand (docs/proxy.md, "Many servers behind one endpoint")`)
}

/**
 * The servers of flatmcp's config as the client writes them: as the original had each where
 * flatmcp's config holds it unchanged, else translated back (entries.ts).
 */
function nativeEntries(names: readonly string[], servers: Record<string, unknown>, before: Record<string, unknown>, client: InstallClient, same: (name: string) => boolean): [string, unknown][] {
  return names.map((name) => {
    if (same(name))
      return [name, before[name]]
    const native = fromFlatmcp(client.entry, servers[name] as Record<string, unknown>)
    return [name, client.list ? { name, ...native } : native]
  })
}

/**
 * A config the client changed since the install, undone by meaning: flatmcp's entry taken out, each
 * server of flatmcp's config put back (as the original had it, where it is unchanged), and the rest
 * of the file as it is now. A server the config lists again (the client added it back since) is left
 * as it is now, not written twice: those are `again`.
 */
export function restoreConfig(read: string, originalRead: string, servers: Record<string, unknown>, client: InstallClient, file: string, place: Place = placeOf(client, file, here())): { text: string, again: string[] } {
  const [bom, now] = splitBom(read)
  const original = splitBom(originalRead)[1]
  const parsed = parseClientConfig(now, client, file)
  const table = clientServers(parsed, client, file)
  if (!table || !runsFlatmcp(toFlatmcp(client.entry, table[ENTRY_NAME])))
    throw new InstallError(`${file}: flatmcp's entry is no longer in it, so there is nothing to take out; \`--undo --force\` writes the file as it was before the install`)
  const again = Object.keys(servers).filter(name => Object.hasOwn(table, name))
  const checked = (restored: { text: string, again: string[] }): { text: string, again: string[] } => {
    checkOutside(parsed, restored.text, client, file)
    return { ...restored, text: `${bom}${restored.text}` }
  }
  const names = Object.keys(servers).filter(name => !Object.hasOwn(table, name))
  const eol = now.includes('\r\n') ? '\r\n' : '\n'
  // A server unchanged since the install is put back as the original had it, its variables unresolved.
  const before = clientServers(parseConfig(original, client.format, file), client, file) ?? {}
  const same = (name: string): boolean => {
    const moved = Object.hasOwn(before, name) ? movedForm(client, before[name], place) : { why: 'not in the original' }
    return 'entry' in moved && isDeepStrictEqual(JSON.parse(JSON.stringify(moved.entry)), servers[name])
  }
  if (client.format !== 'toml') {
    const entries = nativeEntries(names, servers, before, client, same)
    if (client.format === 'yaml')
      return checked({ text: yamlWithout(yamlWithFirst(now, client.key, entries, client.list, eol), client.key, new Set([ENTRY_NAME])), again })
    const without = withoutProperties(now, client.key, new Set([ENTRY_NAME]))
    return checked({ text: withFirstProperties(without, client.key, entries, eol), again })
  }
  const originalTables = tomlSplit(original, names).tables
  const tables = names.map(name => same(name) && originalTables.has(name) ? originalTables.get(name)! : tomlTable(name, servers[name] as Record<string, unknown>))
  return checked({ text: tomlJoin(tomlSplit(now, [ENTRY_NAME]).kept, tables, eol), again })
}
