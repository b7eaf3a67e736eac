// `flatmcp install CLIENT` on disk: the client's config rewritten (rewrite.ts), the servers it moved
// written into flatmcp's own config beside it (`.flatmcp/CLIENT.servers.json`, the client's entries as
// they were, env and all), and the original kept byte for byte (`.flatmcp/CLIENT.install.json`) for
// `--undo`. Nothing is written by `--dry-run`, and nothing half: the record first, the client's file last.
import type { InstallClient } from './clients'
import type { FlatmcpEntry } from './rewrite'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from 'unplugin-flatmcp/internal/shared'
import { lineDiff } from '../probe/diff'
import { InstallError, restoreConfig, rewriteConfig } from './rewrite'

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
  const servers = `${JSON.stringify({ mcpServers: rewritten.moved }, null, 2)}\n`
  const names = Object.keys(rewritten.moved)
  for (const { name, why } of rewritten.kept)
    run.log(`flatmcp install: ${name} stays in ${run.client.title}'s config: ${why}`)
  if (run.dryRun) {
    run.out(`${lineDiff(original.toString('utf8'), rewritten.text, run.file, `${run.file} (installed)`)}\n\n${places.servers} (new):\n${servers}`)
    run.log(`flatmcp install: would move ${names.join(', ')} behind flatmcp (--dry-run: nothing written)`)
    return 0
  }
  mkdirSync(places.folder, { recursive: true })
  const record: InstallRecord = { client: run.client.name, file: run.file, original: original.toString('base64'), written: sha256(rewritten.text) }
  writeFileAtomic(places.record, `${JSON.stringify(record, null, 2)}\n`)
  writeFileAtomic(places.servers, servers)
  try {
    writeKeepingMode(run.file, rewritten.text)
  }
  catch (error) {
    removeMade(places)
    throw new InstallError(`${run.file}: could not be written (${(error as Error).message}); nothing changed`)
  }
  run.log(`flatmcp install: ${names.join(', ')} now run behind flatmcp (${names.length} server${names.length === 1 ? '' : 's'}, their tools served as NAME__tool): ${run.file} runs \`${[entry.command, ...entry.args].join(' ')}\`; the servers are in ${places.servers}. Restart ${run.client.title}; \`flatmcp install ${run.client.name} --undo\` restores the config`)
  return 0
}

/** The client's config written anew, readable by whom it was before (a file of secrets stays its owner's alone). */
function writeKeepingMode(file: string, contents: string | Buffer): void {
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : undefined
  writeFileAtomic(file, contents)
  if (mode !== undefined)
    chmodSync(file, mode)
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
  const restored = exact ? original : Buffer.from(restoreConfig(now.toString('utf8'), original.toString('utf8'), readServers(places.servers), run.client, run.file))
  if (run.dryRun) {
    run.out(lineDiff(now.toString('utf8'), restored.toString('utf8'), `${run.file} (now)`, `${run.file} (restored)`))
    run.log('flatmcp install: --undo --dry-run: nothing written')
    return 0
  }
  writeKeepingMode(run.file, restored)
  removeMade(places)
  run.log(exact
    ? `flatmcp install: ${run.file} restored as it was before the install; restart ${run.client.title}`
    : `flatmcp install: ${run.file} changed since the install, so flatmcp's entry was taken out and its servers put back, the rest kept as it is now (\`--undo --force\` would have written the file as it was before the install); restart ${run.client.title}`)
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
