// `flatmcp install CLIENT` on disk: the client's config rewritten (rewrite.ts), the servers it moved
// written into flatmcp's own config beside it (`.flatmcp/CLIENT.servers.json`, the client's entries as
// they were, env and all, the client's own variables resolved), and the original kept byte for byte (`.flatmcp/CLIENT.install.json`) for
// `--undo`, each with the config's own mode (write-through.ts). Nothing is written by `--dry-run`
// (whose output shows no secret), and nothing half: the record first, the client's file last, and
// only over the bytes that were read.
import type { InstallClient } from './clients'
import type { FlatmcpEntry } from './rewrite'
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { escapeControl, redacted, redactedArgs } from '@flatmcp/runtime/proxy'
import { lineDiff } from '../probe/diff'
import { parseJson } from '../proxy/parse-json'
import { redactedText } from './redact-text'
import { InstallError, restoreConfig, rewriteConfig } from './rewrite'
import { FLATMCP_SHAPE } from './shapes'
import type { Owner } from './write-through'
import { ChangedSinceRead, checkFolder, GITIGNORE, MAX_CONFIG_BYTES, ownerOf, ownFolder, readOwnFile, replaceFile, targetOf } from './write-through'

export interface InstallRun {
  client: InstallClient
  /** The client's config file. */
  file: string
  /** The words that run flatmcp (`proxy --config …` and the proxy's flags follow). */
  flatmcp: string[]
  /** Flags for the proxy, after `proxy --config FILE`. */
  proxyArgs: readonly string[]
  dryRun: boolean
  /** With `--undo`: restore even a config changed since the install. */
  force?: boolean
  log: (line: string) => void
  /** Where a dry run's diff goes. */
  out: (text: string) => void
}

/** What an install records, to be undone. */
interface InstallRecord {
  client: string
  file: string
  /** The client's config before the install, base64 (byte for byte). */
  original: string
  /** The SHA-256 of the config as the install wrote it: one changed since is not overwritten unasked. */
  written: string
  /** The config's permission bits before the install. */
  mode?: number
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex')

/** Where flatmcp keeps what an install made: beside the client's config. */
function placesOf(run: Pick<InstallRun, 'client' | 'file'>): { folder: string, servers: string, record: string } {
  const folder = path.join(path.dirname(run.file), '.flatmcp')
  return { folder, servers: path.join(folder, `${run.client.name}.servers.json`), record: path.join(folder, `${run.client.name}.install.json`) }
}

/**
 * A client's config as it is now: a file no larger than `MAX_CONFIG_BYTES` (a link to a device, a
 * pipe or a folder is refused before it is read), or none (`missing`, where a missing file is so).
 */
function readConfig(file: string, client: InstallClient, missing?: Buffer): Buffer {
  try {
    const stat = statSync(file)
    if (!stat.isFile())
      throw new InstallError(`${file}: is not a file, so not a config flatmcp install edits`)
    if (stat.size > MAX_CONFIG_BYTES)
      throw new InstallError(`${file}: is ${stat.size} bytes, over the ${MAX_CONFIG_BYTES / 2 ** 20} MiB flatmcp install reads; edit it by hand (docs/proxy.md, "Many servers behind one endpoint")`)
    return readFileSync(file)
  }
  catch (error) {
    if (error instanceof InstallError)
      throw error
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && missing)
      return missing
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new InstallError(`${file}: no such file, so ${client.title} lists no servers there (give --file, or --scope ${Object.keys(client.files).join(' or ')})`)
    throw new InstallError(`${file}: ${(error as Error).message}`)
  }
}

/** A config's text and flatmcp's servers as a dry run shows them: no secret's value. */
function shown(text: string, client: InstallClient): string {
  return redactedText(text, client.format)
}

/** The run, what it says shown as text: a name or a line from a config someone else wrote (a cloned project's) cannot move the cursor or retitle the terminal. */
const escaping = (run: InstallRun): InstallRun => ({ ...run, log: line => run.log(escapeControl(line, true)), out: text => run.out(escapeControl(text, true)) })

/** Moves the client's servers behind one `flatmcp proxy --config`; returns the exit code. */
export function install(given: InstallRun): number {
  const run = escaping(given)
  const places = placesOf(run)
  const original = readConfig(run.file, run.client)
  const owner = ownerOf(run.file)
  const earlier = checkFolder(places.folder, owner) ? readRecord(places.record, owner) : undefined
  if (earlier !== undefined && !sameFile(earlier.file, run.file))
    throw new InstallError(`${run.file}: ${places.record} holds the install into ${earlier.file}, which keeps its files in the same folder; \`flatmcp install ${run.client.name} --file ${earlier.file} --undo\` first, or install this one by hand (docs/proxy.md, "Many servers behind one endpoint")`)
  if (earlier !== undefined)
    throw new InstallError(`${run.file}: installed already (${places.record}); \`flatmcp install ${run.client.name} --undo\` first`)
  // Claude Code defers MCP tools behind its own tool search: it gets the full list, not --config's auto.
  const surface = run.client.surface && !run.proxyArgs.includes('--surface') ? ['--surface', run.client.surface] : []
  const entry: FlatmcpEntry = { command: run.flatmcp[0]!, args: [...run.flatmcp.slice(1), 'proxy', ...surface, ...run.proxyArgs, '--config', places.servers] }
  const rewritten = rewriteConfig(original.toString('utf8'), run.client, run.file, entry)
  const servers = (moved: Record<string, unknown>): string => `${JSON.stringify({ [FLATMCP_SHAPE]: moved }, null, 2)}\n`
  const names = Object.keys(rewritten.moved)
  for (const { name, why } of rewritten.kept)
    run.log(`flatmcp install: ${name} stays in ${run.client.title}'s config: ${why}`)
  if (run.dryRun) {
    run.out(`${lineDiff(shown(original.toString('utf8'), run.client), shown(rewritten.text, run.client), run.file, `${run.file} (installed)`)}\n\n${places.servers} (new):\n${servers(redacted(rewritten.moved))}`)
    run.log(`flatmcp install: would move ${names.join(', ')} behind flatmcp (--dry-run: nothing written; secrets shown as [redacted])`)
    return 0
  }
  ownFolder(places.folder, [places.record, places.servers], owner)
  const record: InstallRecord = { client: run.client.name, file: run.file, original: original.toString('base64'), written: sha256(rewritten.text), mode: owner.mode }
  try {
    replaceFile(places.record, `${JSON.stringify(record, null, 2)}\n`, owner)
    replaceFile(places.servers, servers(rewritten.moved), owner)
  }
  catch (error) {
    removeMade(places)
    throw new InstallError(`${places.folder}: could not be written (${(error as Error).message}); nothing changed`)
  }
  writeConfig(run, rewritten.text, owner, original, () => removeMade(places))
  run.log(`flatmcp install: ${names.join(', ')} now run behind flatmcp (${names.length} server${names.length === 1 ? '' : 's'}, their tools served as NAME__tool): ${run.file} runs \`${redactedArgs([entry.command, ...entry.args]).join(' ')}\`; the servers are in ${places.servers}. Restart ${run.client.title}; \`flatmcp install ${run.client.name} --undo\` restores the config`)
  return 0
}

/**
 * The client's config written anew over the bytes `read` (through a link, as `owner`'s); where it
 * holds others now (the client wrote it meanwhile) or cannot be written, `undone` and an error.
 */
function writeConfig(run: InstallRun, contents: string | Buffer, owner: Owner, read: Buffer, undone: () => void): void {
  try {
    replaceFile(run.file, contents, owner, read)
  }
  catch (error) {
    undone()
    if (error instanceof ChangedSinceRead)
      throw new InstallError(`${run.file}: changed while flatmcp install was working (${run.client.title}, or another program, wrote it since it was read); nothing written, so that change is kept: run the command again`)
    throw new InstallError(`${run.file}: could not be written (${(error as Error).message}); nothing changed`)
  }
}

/** What an install made, removed (and its folder, once it holds nothing else): as much as can be. */
function removeMade(places: ReturnType<typeof placesOf>): void {
  const ignore = path.join(places.folder, '.gitignore')
  for (const file of [places.servers, places.record]) {
    if (lstatSync(file, { throwIfNoEntry: false })?.isFile())
      rmSync(file)
  }
  const left = readdirSync(places.folder)
  const onlyOurs = left.length === 0 || (left.length === 1 && left[0] === '.gitignore' && readFileSync(ignore, 'utf8') === GITIGNORE)
  if (onlyOurs) {
    rmSync(ignore, { force: true })
    rmdirSync(places.folder)
  }
}

/** Restores the client's config as it was before the install, byte for byte; returns the exit code. */
export function undo(given: InstallRun): number {
  const run = escaping(given)
  const places = placesOf(run)
  const now = readConfig(run.file, run.client, Buffer.alloc(0))
  const owner = existsSync(run.file) ? ownerOf(run.file) : undefined
  const trusted = owner ?? { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, mode: 0o600 }
  const record = checkFolder(places.folder, trusted) ? readRecord(places.record, trusted) : undefined
  if (record === undefined)
    throw new InstallError(`${run.file}: flatmcp is not installed there (no ${places.record})`)
  // Two configs in one folder (Claude Code's ~/.claude.json and ~/.mcp.json) would share the record: never the other's.
  if (!sameFile(record.file, run.file))
    throw new InstallError(`${run.file}: flatmcp is not installed there: ${places.record} is the install into ${record.file} (\`flatmcp install ${run.client.name} --file ${record.file} --undo\` undoes that one)`)
  const original = Buffer.from(record.original, 'base64')
  // Unchanged since the install (or --force): the original, byte for byte. Changed (a client keeps
  // its own state in it, as Claude Code does in ~/.claude.json): undone by meaning, its changes kept.
  const exact = sha256(now) === record.written || run.force === true
  const restored = exact ? { text: original, again: [] } : restoreConfig(now.toString('utf8'), original.toString('utf8'), readServers(places.servers, trusted), run.client, run.file)
  if (run.dryRun) {
    run.out(lineDiff(shown(now.toString('utf8'), run.client), shown(restored.text.toString(), run.client), `${run.file} (now)`, `${run.file} (restored)`))
    run.log('flatmcp install: --undo --dry-run: nothing written')
    return 0
  }
  writeConfig(run, restored.text, owner ?? { ...trusted, mode: record.mode ?? 0o600 }, now, () => {})
  removeMade(places)
  const again = restored.again.length === 0 ? '' : ` ${restored.again.join(', ')} ${restored.again.length === 1 ? 'was' : 'were'} in it again, so ${restored.again.length === 1 ? 'it was' : 'they were'} kept as ${restored.again.length === 1 ? 'it is' : 'they are'} now, not put back twice;`
  run.log(exact
    ? `flatmcp install: ${run.file} restored as it was before the install; restart ${run.client.title}`
    : `flatmcp install: ${run.file} changed since the install, so flatmcp's entry was taken out and its servers put back, the rest kept as it is now;${again} (\`--undo --force\` would have written the file as it was before the install); restart ${run.client.title}`)
  return 0
}

/** The record of an install in this folder, or undefined where there is none. */
function readRecord(file: string, owner: Owner): InstallRecord | undefined {
  const text = readOwnFile(file, owner)
  if (text === undefined)
    return undefined
  try {
    const record = parseJson(text) as InstallRecord
    if (typeof record.file !== 'string' || typeof record.original !== 'string' || typeof record.written !== 'string')
      throw new Error('it is not an install\'s record')
    return record
  }
  catch (error) {
    throw new InstallError(`${file}: ${(error as Error).message}; remove it, then run the command again`)
  }
}

/** Whether two paths name one file (through links). */
const sameFile = (a: string, b: string): boolean => targetOf(path.resolve(a)) === targetOf(path.resolve(b))

/** The servers flatmcp's config holds now (the operator may have changed them since the install). */
function readServers(file: string, owner: Owner): Record<string, unknown> {
  try {
    const text = readOwnFile(file, owner)
    if (text === undefined)
      throw new Error('no such file')
    const servers = (parseJson(text) as Record<string, unknown>)[FLATMCP_SHAPE]
    if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
      throw new Error(`lists no "${FLATMCP_SHAPE}"`)
    return servers as Record<string, unknown>
  }
  catch (error) {
    if (error instanceof InstallError)
      throw error
    throw new InstallError(`${file}: ${(error as Error).message}; \`--undo --force\` writes the client's config as it was before the install`)
  }
}
