// `flatmcp proxy`: any MCP server behind flatmcp, from the command line. The proxy itself is the
// runtime's (`@flatmcp/runtime/proxy`: the upstream connection, the list compiler, serving); the
// command turns argv into its options, says what it serves, and exits with a code.
import type { PresetName, ProfileName } from '@flatmcp/core'
import type { Proxy, UpstreamTarget } from '@flatmcp/runtime/proxy'
import { readFileSync } from 'node:fs'
import { TARGET_NAMES } from '@flatmcp/core'
import { createProxy, describeDrift, ProxySetupError, readSnapshot, routedProfile, serveProxy } from '@flatmcp/runtime/proxy'
import { Ajv2020 } from 'ajv/dist/2020.js'

export interface ProxyCommandOptions {
  /** The upstream: its command (over stdio), or its URL and the headers sent with every request. */
  upstream: UpstreamTarget
  /** How long one request may wait for the upstream, in milliseconds. */
  timeoutMs?: number
  /** How long compiling one upstream tool may take, in milliseconds (past it, the tool is served as it came). */
  compileTimeoutMs?: number
  profile?: ProfileName
  /** The profiles compiled (a snapshot's, or every target profile for `--http`'s routes). */
  profiles?: ProfileName[]
  preset?: PresetName | 'auto'
  onInvalid?: 'serve' | 'drop'
  /** A snapshot file (`flatmcp snapshot`'s) to serve from, and whether to serve only what it holds. */
  artifact?: string
  frozen?: boolean
  /** Serve stateless HTTP on this address instead of stdio. */
  http?: { host: string, port: number }
  /** Where operator lines go. Default: stderr. */
  log?: (line: string) => void
}

/** The upstream's own schema as a chooser of readings: ajv, formats as annotations (the runtime cuts the costly keywords first). */
export function ajvChooser(): (schema: object) => (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false, logger: false })
  return (schema) => {
    const validate = ajv.compile(schema)
    ajv.removeSchema(schema)
    return value => validate(value) as boolean
  }
}

/** A snapshot file, parsed and checked; anything off is a setup error naming the file. */
export function readSnapshotFile(file: string): unknown {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
    readSnapshot(parsed)
  }
  catch (error) {
    throw new ProxySetupError(`${file}: ${(error as Error).message}`)
  }
  return parsed
}

/** What the proxy serves, in one line: how many tools, from where, which came as they were. */
function summary(proxy: Proxy): string {
  const tools = [...proxy.tools()]
  const asIs = tools.filter(([, tool]) => tool.served === 'as-is').map(([name]) => name)
  const cached = tools.filter(([, tool]) => tool.fromSnapshot).length
  const from = cached > 0 ? `, ${cached === tools.length ? 'all' : cached} from the snapshot` : ''
  return `flatmcp proxy: serving ${tools.length} tool${tools.length === 1 ? '' : 's'} of ${proxy.where}${from}${asIs.length > 0 ? ` (${asIs.join(', ')} as it came)` : ''}`
}

/** Starts the upstream, compiles its tools (or reads the snapshot), and serves them until either side ends. */
export async function runProxy(options: ProxyCommandOptions): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const snapshot = options.artifact === undefined ? undefined : readSnapshotFile(options.artifact)
  const base = options.profile ?? 'portable'
  // Over HTTP each compiled profile has a route of its own: the snapshot's, or every one.
  const profiles = options.profiles ?? (options.http ? (snapshot ? [...(readSnapshot(snapshot).snapshot.options.profiles)] : [...TARGET_NAMES]) : undefined)
  const proxy = await createProxy(options.upstream, {
    profile: options.http ? routedProfile(base) : base,
    ...(profiles ? { profiles: [...new Set([...profiles, ...(base === 'portable' ? [] : [base])])] } : {}),
    ...(options.preset ? { preset: options.preset } : {}),
    ...(options.onInvalid ? { onInvalid: options.onInvalid } : {}),
    ...(snapshot ? { snapshot, frozen: options.frozen === true } : {}),
    validator: ajvChooser(),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.compileTimeoutMs === undefined ? {} : { compile: { timeoutMs: options.compileTimeoutMs } }),
    asks: options.http === undefined,
    log,
  })
  const drift = describeDrift(proxy.drift())
  if (options.frozen && drift !== '') {
    log(`flatmcp proxy: the upstream no longer matches ${options.artifact} (${drift}); not serving it (--frozen). Refresh the snapshot: flatmcp snapshot --out ${options.artifact} …`)
    await proxy.close().catch(() => {})
    process.exit(1)
  }
  proxy.onUpstreamEnd(() => {
    log('flatmcp proxy: the upstream server ended; stopping')
    process.exit(1)
  })
  log(summary(proxy))
  const stop = (): void => {
    void proxy.close().catch(() => {}).finally(() => process.exit(0))
  }
  const routes = profiles ?? []
  const served = await serveProxy(proxy, { ...(options.http ? { http: options.http, routes } : {}), log })
  if (served.url !== undefined) {
    log(`flatmcp proxy: listening on ${served.url}${routes.length > 0 ? ` (and /mcp/${routes.join(', /mcp/')})` : ''}`)
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    return
  }
  // The client closed its end: so does the proxy, and the upstream with it.
  void served.closed.then(stop)
}
