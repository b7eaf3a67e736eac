// `flatmcp snapshot`: an upstream's tool list compiled ahead of time into an `*.mcp.json` artifact,
// which `flatmcp proxy --artifact` serves without compiling at start-up and the fetch handler serves
// statelessly; `flatmcp probe` checks it. The list is compiled by the runtime's `compileUpstreamList`,
// as the proxy compiles it.
import type { JsonSchemaObject, PresetName, ProfileName } from '@flatmcp/core'
import type { GatewayEntry, OperatorLog, Overrides, Upstream, UpstreamTarget } from '@flatmcp/runtime/proxy'
import type { LogLevel } from './operator-log'
import path from 'node:path'
import { TARGET_NAMES } from '@flatmcp/core/names'
import { checkFixed, compileUpstreamList, connectGateway, connectUpstream, namingOf, replicasOf, describeOverrides, fallbacksOf, handshakeOf, isServed, listSetupError, logLine, readUpstream, shown, withFittedNames } from '@flatmcp/runtime/proxy'
import { artifactText, toSnapshot } from '@flatmcp/runtime/artifact'
import { writeFileAtomic } from 'unplugin-flatmcp/internal/shared'
import { operatorLog } from './operator-log'
import { ajvValidator } from './validator'

export interface SnapshotCommandOptions {
  /** The upstream: its command (over stdio), or its URL and the headers sent with every request. */
  upstream?: UpstreamTarget
  /** Or a gateway (`--config`): the file, and its entries. */
  gateway?: { config: string, entries: GatewayEntry[] }
  /** The file written. Default: the upstream's name, `.mcp.json`, in the working folder. */
  out?: string
  /** The target profiles compiled besides `portable`. Default: every one. */
  profiles?: ProfileName[]
  preset?: PresetName | 'auto'
  onInvalid?: 'serve' | 'drop'
  timeoutMs?: number
  compileTimeoutMs?: number
  /** Points of Anthropic's strict grammar the anthropic-strict tools may spend together (`--strict-budget`). */
  strictBudget?: number
  /** What made the snapshot, as its `generator` field says: `flatmcp@1.0.0`. */
  generator: string
  /** The operator's overrides (`--overrides file`), applied to the list and recorded in the snapshot. */
  overrides?: Overrides
  /** `flatmcp proxy --check`: everything but the file, said as the proxy's check. */
  check?: boolean
  /** Which lines reach stderr (`--log-level`). Default: info. */
  logLevel?: LogLevel
  log?: OperatorLog
}

/** What a snapshot run made: the file written (none for a check), and how many tools the overrides name that the upstream does not list. */
export interface SnapshotRun { file?: string, unmatched: number }

/** A word as a POSIX shell reads it back: quoted where it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll('\'', '\'\\\'\'')}'`
}

/**
 * The whole command that snapshots an upstream again into `file`, with the profiles and preset it
 * had: a header's or an added variable's value is left for the operator to give (never shown).
 */
export function snapshotCommand(target: UpstreamTarget | { config: string }, file: string, made: { profiles?: readonly string[], preset?: string, strictBudget?: number } = {}): string {
  const flags = [
    ...(made.profiles ?? []).flatMap(profile => ['--profile', profile]),
    ...(made.preset === undefined || made.preset === 'json-schema' ? [] : ['--preset', made.preset]),
    ...(made.strictBudget === undefined ? [] : ['--strict-budget', String(made.strictBudget)]),
  ]
  const upstream = 'config' in target
    ? ['--config', target.config]
    : 'url' in target
    ? [
        ...Object.keys(target.headers ?? {}).flatMap(name => ['--header', `${name}: …`]),
        // The secret is the operator's to give again (a file, or FLATMCP_OAUTH_CLIENT_SECRET).
        ...(target.oauth ? ['--oauth-client-id', target.oauth.clientId, '--oauth-issuer', target.oauth.issuer, ...(target.oauth.scope === undefined ? [] : ['--oauth-scope', target.oauth.scope])] : []),
        target.url,
      ]
    : [...Object.keys(target.env ?? {}).flatMap(name => ['--env', `${name}=…`]), '--', ...target.command]
  return ['flatmcp', 'snapshot', '--out', file, ...flags, ...upstream].map(shellWord).join(' ')
}

/** A server's name as a file name: letters, digits, dots, dashes and underscores. */
function fileNameOf(name: string): string {
  return `${name.replace(/[^\w.-]+/g, '-').replace(/^[.-]+|-+$/g, '') || 'upstream'}.mcp.json`
}

/** Connects to the upstream, compiles its list and writes the snapshot (or, checking, only says what it would serve). */
/** Why the list was read with its preset: as asked, or the fingerprints its schemas show (core is loaded already: it compiled them). */
async function presetWhy(snapshot: ReturnType<typeof toSnapshot>, asked: SnapshotCommandOptions['preset']): Promise<string> {
  if (asked !== undefined && asked !== 'auto')
    return 'as asked'
  const { detectPreset, presetReason } = await import('@flatmcp/core')
  return presetReason(detectPreset(Object.values(snapshot.runtime).flatMap(entry => entry.upstream ? [entry.upstream.tool.inputSchema as JsonSchemaObject] : [])))
}

export async function runSnapshot(options: SnapshotCommandOptions): Promise<SnapshotRun> {
  const write = options.log ?? operatorLog(options.logLevel, logLine)
  const prefix = options.check ? 'flatmcp proxy --check:' : 'flatmcp snapshot:'
  let unmatched = 0
  // The runtime's lines are the proxy's; here they are this command's.
  const log: OperatorLog = (line, level) => write(line.replace('flatmcp proxy:', prefix), level)
  const upstream: Upstream = options.gateway ? connectGateway(options.gateway.entries, { asks: false, log, naming: namingOf(options.overrides), replicas: replicasOf(options.overrides) }) : await connectUpstream(options.upstream!, { asks: false, log })
  try {
    const profiles = options.profiles ?? [...TARGET_NAMES]
    // Named as the proxy serves them: a name some clients refuse, fitted and said.
    const named = withFittedNames(upstream.client, log)
    const list = await (async () => {
      const read = await readUpstream(named, { ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), log, ...(options.overrides ? { overrides: options.overrides } : {}) })
      const { entries, fixed } = read
      unmatched = read.unmatched.length
      // Said once they held against the list: a parameter the tool lacks was an error above instead.
      for (const line of options.overrides ? describeOverrides(options.overrides, read.unmatched) : [])
        log(line, 'info')
      checkFixed(fixed, ajvValidator())
      return Object.assign(await compileUpstreamList(entries, {
        profiles,
        ...(options.preset ? { preset: options.preset } : {}),
        ...(options.compileTimeoutMs === undefined ? {} : { compile: { timeoutMs: options.compileTimeoutMs } }),
        ...(options.strictBudget === undefined ? {} : { strictBudget: options.strictBudget }),
        // A gateway's members share the strict budget by member, as the proxy does.
        ...(named.origins ? { originOf: (name: string) => named.origins!().get(name) } : {}),
      }), { fixed })
    })().catch((error: unknown) => {
      throw listSetupError(error, upstream.where)
    })
    const kept = list.tools.filter((tool) => {
      for (const fallback of fallbacksOf(tool, options.onInvalid))
        log(`${prefix} tool ${shown(tool.name)} ${fallback}`)
      // Never one a client refuses: the snapshot's reader refuses it too.
      return isServed(tool, options.onInvalid)
    })
    const snapshot = toSnapshot(kept, { generator: options.generator, upstream: upstream.client.getServerVersion() ?? { name: 'unknown', version: '0' }, handshake: handshakeOf(upstream.client), preset: list.preset, profiles, ...(options.strictBudget === undefined ? {} : { strictBudget: options.strictBudget }), ...(named.origins ? { origins: named.origins() } : {}), ...(options.overrides ? { overrides: options.overrides, fixed: list.fixed } : {}) })
    const file = options.check ? undefined : path.resolve(options.out ?? fileNameOf(snapshot.upstream.name))
    if (file !== undefined)
      writeFileAtomic(file, artifactText(snapshot))
    const asIs = Object.entries(snapshot.runtime).filter(([, entry]) => entry.served === 'as-is').map(([name]) => name)
    log(`${prefix} ${snapshot.tools.length} tool${snapshot.tools.length === 1 ? '' : 's'} of ${upstream.where}${options.check ? ' would be served' : ''}, read as ${snapshot.options.preset} (${await presetWhy(snapshot, options.preset)}), in ${['portable', ...snapshot.options.profiles].join(', ')}${asIs.length > 0 ? ` (${asIs.join(', ')} as it came)` : ''}${options.check && unmatched > 0 ? `; the overrides name ${unmatched} tool${unmatched === 1 ? '' : 's'} it does not list` : ''}`, 'info')
    return { ...(file === undefined ? {} : { file }), unmatched }
  }
  finally {
    await upstream.close().catch(() => {})
  }
}
