// `flatmcp install CLIENT` on disk: the client's config rewritten (rewrite.ts), the servers it moved
// written into flatmcp's own config beside it (`.flatmcp/CLIENT.servers.json`, the client's entries as
// they were, env and all), and the original kept byte for byte (`.flatmcp/CLIENT.install.json`) for
// `--undo`, each with the config's own mode (write-through.ts). Nothing is written by `--dry-run`
// (whose output shows no secret), and nothing half: the record first, the client's file last, and
// only over the bytes that were read.
import type { InstallClient } from './clients'
import type { FlatmcpEntry } from './rewrite'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { redacted, redactedArgs } from '@flatmcp/runtime/proxy'
import { lineDiff } from '../probe/diff'
import { redactedText } from './redact-text'
import { InstallError, restoreConfig, rewriteConfig } from './rewrite'
import { ChangedSinceRead, modeOf, ownFolder, replaceFile } from './write-through'

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

function readConfig(file: string, client: InstallClient): Buffer {
  try {
    return readFileSync(file)
  }
  catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new InstallError(`${file}: no such file, so ${client.title} lists no servers there (give --file, or --scope ${Object.keys(client.files).join(' or ')})`)
    throw new InstallError(`${file}: ${(error as Error).message}`)
  }
}

/** A config's text and flatmcp's servers as a dry run shows them: no secret's value. */
function shown(text: string, client: InstallClient): string {
  return redactedText(text, client.format)
}

/** Moves the client's servers behind one `flatmcp proxy --config`; returns the exit code. */
export function install(run: InstallRun): number {
  const places = placesOf(run)
  if (existsSync(places.record))
    throw new InstallError(`${run.file}: installed already (${places.record}); \`flatmcp install ${run.client.name} --undo\` first`)
  const original = readConfig(run.file, run.client)
  // Claude Code defers MCP tools behind its own tool search: it gets the full list, not --config's auto.
  const surface = run.client.surface && !run.proxyArgs.includes('--surface') ? ['--surface', run.client.surface] : []
  const entry: FlatmcpEntry = { command: run.flatmcp[0]!, args: [...run.flatmcp.slice(1), 'proxy', ...surface, ...run.proxyArgs, '--config', places.servers] }
  const rewritten = rewriteConfig(original.toString('utf8'), run.client, run.file, entry)
  const servers = (moved: Record<string, unknown>): string => `${JSON.stringify({ mcpServers: moved }, null, 2)}\n`
  const names = Object.keys(rewritten.moved)
  for (const { name, why } of rewritten.kept)
    run.log(`flatmcp install: ${name} stays in ${run.client.title}'s config: ${why}`)
  if (run.dryRun) {
    run.out(`${lineDiff(shown(original.toString('utf8'), run.client), shown(rewritten.text, run.client), run.file, `${run.file} (installed)`)}\n\n${places.servers} (new):\n${servers(redacted(rewritten.moved))}`)
    run.log(`flatmcp install: would move ${names.join(', ')} behind flatmcp (--dry-run: nothing written; secrets shown as [redacted])`)
    return 0
  }
  const mode = modeOf(run.file)
  ownFolder(places.folder, [places.record, places.servers], mode)
  const record: InstallRecord = { client: run.client.name, file: run.file, original: original.toString('base64'), written: sha256(rewritten.text), mode }
  try {
    replaceFile(places.record, `${JSON.stringify(record, null, 2)}\n`, mode)
    replaceFile(places.servers, servers(rewritten.moved), mode)
  }
  catch (error) {
    removeMade(places)
    throw new InstallError(`${places.folder}: could not be written (${(error as Error).message}); nothing changed`)
  }
  writeConfig(run, rewritten.text, mode, original, () => removeMade(places))
  run.log(`flatmcp install: ${names.join(', ')} now run behind flatmcp (${names.length} server${names.length === 1 ? '' : 's'}, their tools served as NAME__tool): ${run.file} runs \`${redactedArgs([entry.command, ...entry.args]).join(' ')}\`; the servers are in ${places.servers}. Restart ${run.client.title}; \`flatmcp install ${run.client.name} --undo\` restores the config`)
  return 0
}

/**
 * The client's config written anew over the bytes `read` (through a link, with `mode`); where it
 * holds others now (the client wrote it meanwhile) or cannot be written, `undone` and an error.
 */
function writeConfig(run: InstallRun, contents: string | Buffer, mode: number, read: Buffer, undone: () => void): void {
  try {
    replaceFile(run.file, contents, mode, read)
  }
  catch (error) {
    undone()
    if (error instanceof ChangedSinceRead)
      throw new InstallError(`${run.file}: changed while flatmcp install was working (${run.client.title}, or another program, wrote it since it was read); nothing written, so that change is kept: run the command again`)
    throw new InstallError(`${run.file}: could not be written (${(error as Error).message}); nothing changed`)
  }
}

/** What an install made, removed (and its folder, once empty). */
function removeMade(places: ReturnType<typeof placesOf>): void {
  rmSync(places.servers, { force: true })
  rmSync(places.record, { force: true })
  if (existsSync(places.folder) && readdirSync(places.folder).length === 0)
    rmdirSync(places.folder)
}

/** Restores the client's config as it was before the install, byte for byte; returns the exit code. */
export function undo(run: InstallRun): number {
  const places = placesOf(run)
  if (!existsSync(places.record))
    throw new InstallError(`${run.file}: flatmcp is not installed there (no ${places.record})`)
  const record = JSON.parse(readFileSync(places.record, 'utf8')) as InstallRecord
  const original = Buffer.from(record.original, 'base64')
  const now = existsSync(run.file) ? readFileSync(run.file) : Buffer.alloc(0)
  // Unchanged since the install (or --force): the original, byte for byte. Changed (a client keeps
  // its own state in it, as Claude Code does in ~/.claude.json): undone by meaning, its changes kept.
  const exact = sha256(now) === record.written || run.force === true
  const restored = exact ? { text: original, again: [] } : restoreConfig(now.toString('utf8'), original.toString('utf8'), readServers(places.servers), run.client, run.file)
  if (run.dryRun) {
    run.out(lineDiff(shown(now.toString('utf8'), run.client), shown(restored.text.toString(), run.client), `${run.file} (now)`, `${run.file} (restored)`))
    run.log('flatmcp install: --undo --dry-run: nothing written')
    return 0
  }
  writeConfig(run, restored.text, existsSync(run.file) ? modeOf(run.file) : record.mode ?? 0o600, now, () => {})
  removeMade(places)
  const again = restored.again.length === 0 ? '' : ` ${restored.again.join(', ')} ${restored.again.length === 1 ? 'was' : 'were'} in it again, so ${restored.again.length === 1 ? 'it was' : 'they were'} kept as ${restored.again.length === 1 ? 'it is' : 'they are'} now, not put back twice;`
  run.log(exact
    ? `flatmcp install: ${run.file} restored as it was before the install; restart ${run.client.title}`
    : `flatmcp install: ${run.file} changed since the install, so flatmcp's entry was taken out and its servers put back, the rest kept as it is now;${again} (\`--undo --force\` would have written the file as it was before the install); restart ${run.client.title}`)
  return 0
}

/** The servers flatmcp's config holds now (the operator may have changed them since the install). */
function readServers(file: string): Record<string, unknown> {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers
  }
  catch (error) {
    throw new InstallError(`${file}: ${(error as Error).message}; \`--undo --force\` writes the client's config as it was before the install`)
  }
}
