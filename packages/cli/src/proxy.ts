// `flatmcp proxy`: any MCP server behind flatmcp, over stdio on both sides. The upstream is started
// as a child process; its tools are served flat, everything else passes through unchanged.
import type { PresetName, ProfileName } from '@flatmcp/core'
import { Client } from '@modelcontextprotocol/client'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { createProxy } from '@flatmcp/runtime/proxy'
import { StdioTransport } from '@flatmcp/runtime/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { Ajv2020 } from 'ajv/dist/2020.js'

export interface ProxyCommandOptions {
  /** The upstream server's command and its arguments (over stdio), or its Streamable HTTP URL. */
  command?: string[]
  url?: string
  /** Headers sent with every HTTP request to the upstream (`Authorization` and the like); never logged. */
  headers?: Record<string, string>
  /** How long one request may wait for the upstream, in milliseconds. */
  timeoutMs?: number
  profile?: ProfileName
  preset?: PresetName | 'auto'
  onInvalid?: 'serve' | 'drop'
  /** Where operator lines go. Default: stderr. */
  log?: (line: string) => void
}

/** The upstream's own schema as a chooser of readings: a validator built once per schema, formats as annotations. */
function chooser(): (schema: object) => (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false, logger: false })
  return (schema) => {
    const { $schema: _dialect, ...rest } = schema as Record<string, unknown>
    const validate = ajv.compile(rest)
    ajv.removeSchema(rest)
    return value => validate(value) as boolean
  }
}

/** A URL as a log line may show it: no user, password, query or fragment. */
function redacted(url: string): string {
  const parsed = new URL(url)
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
}

/** Starts the upstream, compiles its tools, and serves them on this process's stdio until either side ends. */
export async function runProxy(options: ProxyCommandOptions): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const [command, ...args] = options.command ?? []
  const transport = options.url !== undefined
    ? new StreamableHTTPClientTransport(new URL(options.url), { requestInit: { headers: options.headers ?? {} } })
    : new StdioClientTransport({ command: command!, args, stderr: 'inherit' })
  // What the log may say of the upstream: its command, or its URL without credentials or query.
  const where = options.url !== undefined ? redacted(options.url) : command!
  const upstream = new Client({ name: 'flatmcp-proxy', version: '1' }, { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } }, versionNegotiation: { mode: 'legacy' } })
  let stopping = false
  upstream.onclose = () => {
    if (stopping)
      return
    log('flatmcp proxy: the upstream server ended; stopping')
    process.exit(1)
  }
  await upstream.connect(transport)
  const proxy = await createProxy(upstream as never, {
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.preset ? { preset: options.preset } : {}),
    ...(options.onInvalid ? { onInvalid: options.onInvalid } : {}),
    validator: chooser(),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    log,
  })
  const tools = proxy.tools()
  const asIs = [...tools.entries()].filter(([, tool]) => tool.served === 'as-is').map(([name]) => name)
  log(`flatmcp proxy: serving ${tools.size} tool${tools.size === 1 ? '' : 's'} of ${where}${asIs.length > 0 ? ` (${asIs.join(', ')} as it came)` : ''}`)
  serveStdio(request => proxy.server(request), { transport: new StdioTransport() })
  // The client closed its end: so does the proxy, and the upstream with it.
  process.stdin.once('end', () => {
    stopping = true
    void upstream.close().finally(() => process.exit(0))
  })
}
