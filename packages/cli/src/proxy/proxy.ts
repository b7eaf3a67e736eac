// `flatmcp proxy`: any MCP server behind flatmcp. The upstream is a child process over stdio or a
// Streamable HTTP endpoint; its tools are served flat (compiled at start-up, or from a snapshot),
// everything else passes through unchanged. Downstream is stdio, or stateless HTTP in both protocol
// eras with `--http`, where `/mcp/<profile>` serves each compiled profile beside `/mcp`.
import type { PresetName, ProfileName } from '@flatmcp/core'
import type { Proxy } from '@flatmcp/runtime/proxy'
import type { UpstreamOptions } from './upstream'
import { readFileSync } from 'node:fs'
import { createProxy, describeDrift, readSnapshot } from '@flatmcp/runtime/proxy'
import { StdioTransport } from '@flatmcp/runtime/server'
import { createMcpHandler } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { serveHttp } from './serve-http'
import { ProxySetupError } from './setup-error'
import { connectUpstream } from './upstream'

export interface ProxyCommandOptions extends UpstreamOptions {
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

const TARGETS: ProfileName[] = ['openai-strict', 'anthropic-strict', 'gemini']

/** What the proxy serves, in one line: how many tools, from where, which came as they were. */
function summary(proxy: Proxy, where: string): string {
  const tools = [...proxy.tools()]
  const asIs = tools.filter(([, tool]) => tool.served === 'as-is').map(([name]) => name)
  const cached = tools.filter(([, tool]) => tool.fromSnapshot).length
  const from = cached > 0 ? `, ${cached === tools.length ? 'all' : cached} from the snapshot` : ''
  return `flatmcp proxy: serving ${tools.length} tool${tools.length === 1 ? '' : 's'} of ${where}${from}${asIs.length > 0 ? ` (${asIs.join(', ')} as it came)` : ''}`
}

/** Starts the upstream, compiles its tools (or reads the snapshot), and serves them until either side ends. */
export async function runProxy(options: ProxyCommandOptions): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const snapshot = options.artifact === undefined ? undefined : readSnapshotFile(options.artifact)
  const base = options.profile ?? 'portable'
  // Over HTTP each compiled profile has a route of its own: the snapshot's, or every one.
  const profiles = options.profiles ?? (options.http ? (snapshot ? [...(readSnapshot(snapshot).snapshot.options.profiles)] : TARGETS) : undefined)
  const routed = new Set<string>(profiles ?? [])
  const upstream = await connectUpstream({ ...options, asks: options.http === undefined }, log)
  let handler: ReturnType<typeof createMcpHandler> | undefined
  let proxy: Proxy
  try {
    proxy = await createProxy(upstream.client, {
      profile: options.http ? ({ url }) => url?.pathname.match(/^\/mcp\/([^/]+)\/?$/)?.[1] ?? base : base,
      ...(profiles ? { profiles: [...new Set([...profiles, ...(base === 'portable' ? [] : [base])])] } : {}),
      ...(options.preset ? { preset: options.preset } : {}),
      ...(options.onInvalid ? { onInvalid: options.onInvalid } : {}),
      ...(snapshot ? { snapshot, frozen: options.frozen === true } : {}),
      validator: ajvChooser(),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.compileTimeoutMs === undefined ? {} : { compile: { timeoutMs: options.compileTimeoutMs } }),
      // Stateless HTTP clients hear of changes on their subscriptions/listen streams.
      notify: (notification) => {
        const uri = (notification.params as { uri?: unknown } | undefined)?.uri
        if (notification.method === 'notifications/tools/list_changed')
          handler?.notify.toolsChanged()
        else if (notification.method === 'notifications/prompts/list_changed')
          handler?.notify.promptsChanged()
        else if (notification.method === 'notifications/resources/list_changed')
          handler?.notify.resourcesChanged()
        else if (notification.method === 'notifications/resources/updated' && typeof uri === 'string')
          handler?.notify.resourceUpdated(uri)
      },
      log,
    })
  }
  catch (error) {
    await upstream.close().catch(() => {})
    throw new ProxySetupError(error instanceof TypeError ? error.message : `the tools of ${upstream.where} could not be read: ${(error as Error).message}`, { cause: error })
  }
  const drift = describeDrift(proxy.drift())
  if (options.frozen && drift !== '') {
    log(`flatmcp proxy: the upstream no longer matches ${options.artifact} (${drift}); not serving it (--frozen). Refresh the snapshot: flatmcp snapshot --out ${options.artifact} …`)
    await upstream.close().catch(() => {})
    process.exit(1)
  }
  upstream.onEnd(() => {
    log('flatmcp proxy: the upstream server ended; stopping')
    process.exit(1)
  })
  log(summary(proxy, upstream.where))
  const stop = (): void => {
    void upstream.close().catch(() => {}).finally(() => process.exit(0))
  }
  if (options.http) {
    handler = createMcpHandler(request => proxy.server(request))
    const server = await serveHttp(request => handler!.fetch(request), {
      ...options.http,
      route: path => path === '/mcp' || path === '/mcp/' || routed.has(path.replace(/^\/mcp\/|\/$/g, '')),
      log,
    })
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : options.http.port
    const host = options.http.host.includes(':') ? `[${options.http.host}]` : options.http.host
    log(`flatmcp proxy: listening on http://${host}:${port}/mcp${routed.size > 0 ? ` (and /mcp/${[...routed].join(', /mcp/')})` : ''}`)
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    return
  }
  serveStdio(request => proxy.server(request), { transport: new StdioTransport() })
  // The client closed its end: so does the proxy, and the upstream with it.
  process.stdin.once('end', stop)
}
