// `flatmcp proxy`: an MCP server's tools served flat, over stdio or stateless HTTP.
import type { CallerLimits, GatewayEntry, HttpServing, LimitsStore, Overrides, UpstreamTarget } from '@flatmcp/runtime/proxy'
import type { Callers } from '../proxy/callers-file'
import type { Command } from './command'
import type { UpstreamCommandLine } from './upstream-args'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { count, duration, oneOf, parseOnly, profilesOf, UsageError } from './command'
import { limitsStoreOf } from '../proxy/limits-store'
import { gatewayEntries } from './gateway-entries'
import { readUpstreamCommand } from './upstream-args'
import { helpOf, SERVED_PROFILES, unmetNeed, wordsOf } from './upstream-flags'

export const proxy: Command = {
  summary: 'serve any MCP server\'s tools flat, over stdio or HTTP, calls repaired and mapped back',
  usage: `  flatmcp proxy [options] [--env NAME=value]… [--] <command> [args…]
  flatmcp proxy [options] [--header 'Name: value']… <url>
  flatmcp proxy [options] --config FILE`,
  about: 'Runs the upstream (or reaches it over Streamable HTTP), compiles its tools and output schemas as the plugin compiles a module\'s, and serves them flat: a call\'s arguments are repaired and mapped back to what the upstream takes; everything else passes through unchanged. Over stdio by default; --http serves stateless HTTP (both protocol eras) at /mcp and /mcp/<profile>.',
  options: helpOf('proxy'),
  examples: [
    ['flatmcp proxy -- npx -y @modelcontextprotocol/server-filesystem ~/notes', 'a client\'s server, served flat over stdio (the line a client\'s config runs)'],
    ['flatmcp proxy --check --overrides overrides.json -- npx -y @sentry/mcp-server', 'try an overrides file before wiring a client to it'],
    ['flatmcp proxy --http 8080 --artifact github.mcp.json -- npx -y @modelcontextprotocol/server-github', 'HTTP on loopback, from a snapshot'],
    ['FLATMCP_PROXY_TOKEN=… flatmcp proxy --http 8080 --host 0.0.0.0 --config servers.json --surface search', 'many servers behind one endpoint, for callers with the token'],
  ],
  async run(args) {
    const { values, common: { overridesFile, upstream: named, ...common } } = readUpstreamCommand('proxy', args)
    const overrides = overridesFile === undefined ? undefined : (await import('../proxy/files')).readOverridesFile(overridesFile)
    const { withheld: credentials, ...served } = await servingOf(values)
    // The proxy's credentials (its callers' tokens, FLATMCP_PROXY_TOKEN's value), whatever the
    // transport: no server's command line or variable carries them, checked or served alike.
    const withheld = credentials.length > 0 ? { withheld: credentials } : {}
    if (parseOnly())
      return 0
    const target = 'config' in named ? { config: named.config, entries: await gatewayEntries(named.config, withheld, 'proxy') } : { ...named, ...withheld }
    if (values.check)
      return checkProxy(target, common, overrides, values.profile)
    if ('entries' in target) {
      const { runProxy } = await import('#proxy/serve')
      await runProxy({ ...common, gateway: target.entries, config: target.config, ...served, ...(overrides ? { overrides, overridesFile } : {}) })
      return new Promise<number>(() => {})
    }
    const upstream: UpstreamTarget = target
    // The upstream command starts first, and boots while the proxy's own modules load (a few hundred
    // milliseconds of one core): the proxy's start-up overlaps the server's instead of adding to it.
    const { startCommand, warmCompilerThread } = await import('#proxy/start')
    const started = 'command' in upstream ? startCommand(upstream) : undefined
    // With no snapshot the list is compiled (less what an earlier start compiled): the compiler's thread boots beside them both.
    const lists = served.artifact === undefined ? (await import('../proxy/list-cache')).listCache(['proxy', ...args]) : undefined
    if (lists !== undefined && lists.known === undefined)
      warmCompilerThread()
    // Over stdio, answers kept from an earlier start are given before the proxy loads.
    const early = served.http ? undefined : (await import('../proxy/early-answers')).earlyAnswers()
    // Answered early only where the start goes on: an audit log that cannot be opened, or a command
    // that cannot be started, stops it (exit 2) with nothing answered.
    if (early) {
      early.begin((served.auditLog === undefined || canAppend(served.auditLog)) && (started === undefined || await started.spawned.then(() => true, () => false)))
      await early.settled
    }
    const { runProxy } = await import('#proxy/serve')
    await runProxy({ ...common, upstream, ...served, ...(overrides ? { overrides, overridesFile } : {}), ...(started ? { started } : {}), ...(early ? { early } : {}), ...(lists ? { lists } : {}) })
    return new Promise<number>(() => {})
  },
}

/** Whether `file` can be opened to append to (made where missing, as the audit log is). */
function canAppend(file: string): boolean {
  try {
    closeSync(openSync(file, 'a', 0o600))
    return true
  }
  catch {
    return false
  }
}

/**
 * `--check`: the list read, the overrides applied and every profile compiled as the proxy would,
 * said, and nothing served: an operator's try of a file before a client is wired to it.
 */
async function checkProxy(target: UpstreamTarget | { config: string, entries: GatewayEntry[] }, common: Omit<UpstreamCommandLine['common'], 'upstream' | 'overridesFile'>, overrides: Overrides | undefined, profile: string[] | undefined): Promise<number> {
  const { runSnapshot } = await import('../proxy/run-snapshot')
  const upstream = 'entries' in target ? { gateway: target } : { upstream: target }
  const profiles = profilesOf(profile)?.filter(name => name !== 'portable')
  const { unmatched } = await runSnapshot({ ...common, ...upstream, ...(overrides ? { overrides } : {}), ...(profiles ? { profiles } : {}), generator: 'flatmcp proxy --check', check: true })
  return unmatched > 0 ? 1 : 0
}

/** What the proxy serves and how: one profile, the snapshot, the outputs, the surface, and HTTP's callers. */
export async function servingOf(values: UpstreamCommandLine['values']) {
  const profiles = profilesOf(values.profile)
  if ((profiles?.length ?? 0) > 1)
    throw new UsageError('proxy serves one --profile (with --http, every compiled profile has its own /mcp/<profile> route too)')
  const unserved = profiles?.find(profile => !SERVED_PROFILES.includes(profile))
  if (unserved !== undefined)
    throw new UsageError(`proxy serves ${SERVED_PROFILES.slice(0, -1).join(', ')} or ${SERVED_PROFILES.at(-1)}, not "${unserved}"`)
  // A flag that means nothing without another (--frozen without --artifact, a serving flag without --http).
  const unmet = unmetNeed(flag => values[flag] !== undefined)
  if (unmet !== undefined)
    throw new UsageError(unmet)
  const outputs = oneOf(values.outputs, '--outputs', wordsOf('outputs'))
  // In front of many servers (--config) the list is what grows: served as whichever costs a session less, unless told.
  const surface = oneOf(values.surface, '--surface', wordsOf('surface')) ?? (values.config === undefined ? undefined : 'auto')
  const alwaysLoad = values['always-load']?.flatMap(value => value.split(',')).filter(name => name !== '')
  if (alwaysLoad && surface !== 'search' && surface !== 'auto')
    throw new UsageError('--always-load names tools listed beside the search surface: give --surface search (or auto, the default with --config) too')
  const port = count(values.http, '--http')
  const drainTimeoutMs = duration(values['drain-timeout'], '--drain-timeout')
  const named = values.callers === undefined ? undefined : (await import('../proxy/callers-file')).readCallersFile(values.callers, port === undefined ? 'stdio' : 'http')
  const http = port === undefined ? undefined : await httpServing(values.host ?? '127.0.0.1', port, values, named)
  const limits = port === undefined && named !== undefined ? stdioLimits(values.callers!, named) : undefined
  const rules = named && (Object.keys(named.rules.callers).length > 0 || named.rules.default === 'deny') ? { rules: { file: values.callers!, rules: named.rules } } : {}
  return {
    ...(named?.tools ? { toolLimits: named.tools } : {}),
    withheld: http?.every ?? credentialsOf([], named),
    ...(values['audit-log'] ? { auditLog: values['audit-log'] } : {}),
    ...(values.callers === undefined ? {} : { callersFile: values.callers }),
    ...(limits ? { limits } : {}),
    ...rules,
    ...(outputs ? { outputs } : {}),
    ...(surface ? { surface } : {}),
    ...(alwaysLoad ? { alwaysLoad } : {}),
    ...(profiles?.[0] ? { profile: profiles[0] } : {}),
    ...(values.artifact ? { artifact: values.artifact, frozen: values.frozen === true } : {}),
    ...(http ? { http } : {}),
    ...(drainTimeoutMs === undefined ? {} : { drainTimeoutMs }),
  }
}

/** Over stdio the one client's limits: the callers file's entry named `stdio` (the tokens are HTTP's); a file that holds the client to nothing is refused. */
function stdioLimits(file: string, named: Callers): CallerLimits | undefined {
  if (!Object.hasOwn(named.limits, 'stdio') && !named.tools && !Object.hasOwn(named.rules.callers, 'stdio') && named.rules.default === undefined)
    throw new UsageError(`--callers ${file}: over stdio only the entry named "stdio" applies (the client's limits and tools: {"stdio": {"callsPerMinute": n, "inFlight": n, "allow": ["…"]}}), and the file has none; its tokens are for --http`)
  return named.limits.stdio
}

/** Every credential of the proxy's own: the tokens given, FLATMCP_PROXY_TOKEN's value and the named callers'. */
function credentialsOf(tokens: readonly string[], named: Callers | undefined): string[] {
  return [...tokens, ...(process.env.FLATMCP_PROXY_TOKEN ? [process.env.FLATMCP_PROXY_TOKEN] : []), ...(named?.callers ?? []).map(caller => caller.token)]
}

/**
 * Who may use the proxy over HTTP: the caller tokens (`--auth-token`, `--auth-token-file`, one per
 * line, `FLATMCP_PROXY_TOKEN`), `--no-auth`, the origins and host names allowed. Beyond loopback a
 * token is needed unless `--no-auth` says otherwise (the runtime's rule, as serving checks it).
 */
async function httpServing(host: string, port: number, values: UpstreamCommandLine['values'], named: Callers | undefined): Promise<HttpServing & { tokens: string[], every: string[], open: boolean }> {
  const tokens = [...(values['auth-token'] ?? []), ...tokensInFile(values['auth-token-file']), ...(process.env.FLATMCP_PROXY_TOKEN ? [process.env.FLATMCP_PROXY_TOKEN] : [])]
  const every = credentialsOf([...(values['auth-token'] ?? []), ...tokensInFile(values['auth-token-file'])], named)
  if (values['no-auth'] && every.length > 0)
    throw new UsageError('--no-auth serves without a caller credential, and a token was given: choose one')
  const { needsCallerCredential } = await import('#proxy/serve')
  if (needsCallerCredential(host, every) && !values['no-auth'])
    throw new UsageError(`--host ${host} serves beyond loopback: give a caller credential (--auth-token-file file, FLATMCP_PROXY_TOKEN, --auth-token or --callers file), or --no-auth to let anyone who reaches the port use the upstream with your credentials`)
  return { host, port, tokens, ...(named ? { callers: named.callers, limits: named.limits } : {}), ...storeOf(values), every, origins: values['allow-origin'] ?? [], hosts: values['allow-host'] ?? [], open: values['no-auth'] === true }
}

/** `--limits-store` and `--limits-store-down`: where the limits are counted, and what its silence means. */
function storeOf(values: UpstreamCommandLine['values']): { limitsStore?: LimitsStore } {
  const words = wordsOf('limits-store-down')
  const whenDown = oneOf(values['limits-store-down'], '--limits-store-down', words) ?? words[0]
  if (values['limits-store'] === undefined)
    return {}
  try {
    return { limitsStore: limitsStoreOf(values['limits-store'], whenDown) }
  }
  catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** The tokens of `--auth-token-file`: one per line, blank lines and `#` comments left out. */
function tokensInFile(file: string | undefined): string[] {
  if (file === undefined)
    return []
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/).map(line => line.trim()).filter(line => line !== '' && !line.startsWith('#'))
  }
  catch (error) {
    throw new UsageError(`--auth-token-file: ${(error as Error).message}`)
  }
}
