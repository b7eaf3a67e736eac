// `flatmcp proxy`: an MCP server's tools served flat, over stdio or stateless HTTP.
import type { CallerLimits, HttpServing, Overrides, UpstreamTarget } from '@flatmcp/runtime/proxy'
import type { Command } from './command'
import type { UpstreamCommandLine } from './upstream-args'
import { readFileSync } from 'node:fs'
import { PRESET_NAMES } from '@flatmcp/core/names'
import { count, oneOf, parseOnly, profilesOf, UsageError } from './command'
import { gatewayEntries } from './gateway-entries'
import { readUpstreamCommand, SERVING_FLAGS } from './upstream-args'

export const proxy: Command = {
  usage: `  flatmcp proxy [options] [--env NAME=value]… [--] <command> [args…]
  flatmcp proxy [options] [--header 'Name: value']… [--oauth-client-id id --oauth-issuer url [--oauth-scope s]] <url>
  flatmcp proxy [options] --config FILE
      (--config: every server a client's config lists, as one: Claude Desktop's, Claude Code's,
      Cursor's and Gemini CLI's mcpServers, VS Code's servers, Codex's config.toml; each tool
      served as NAME__tool)
      serve an MCP server's tools flat: the upstream runs as a child process with the proxy's whole
      environment and --env added (or is reached over Streamable HTTP, the headers sent with every
      request and never logged; \${NAME} in a value is read from the environment; an upstream
      protected by OAuth is reached with the proxy's client credentials, the secret from
      --oauth-client-secret-file or FLATMCP_OAUTH_CLIENT_SECRET, sent only to --oauth-issuer), its tools and
      output schemas are compiled as the plugin compiles a module's, calls are repaired and mapped
      back, everything else passes through unchanged. Options: --profile name; --preset (auto, ${PRESET_NAMES.join(', ')});
      --on-invalid serve|drop; --timeout ms (per upstream request, 60000); --compile-timeout ms
      (per tool, 10000: a tool past it is served as it came); --http port [--host
      address] to serve stateless HTTP (both protocol eras) at /mcp and /mcp/<profile> instead of
      stdio, callers presenting a bearer token (--auth-token-file file, FLATMCP_PROXY_TOKEN,
      --auth-token, or --callers file of named tokens with calls a minute and at once; needed
      beyond loopback unless --no-auth), /healthz and /readyz for balancers, browser origins beyond loopback and
      host names by --allow-origin and --allow-host; --artifact file to serve a snapshot without compiling (--frozen: only what it holds);
      --outputs unlisted lists no output schema (for a server whose results miss its own);
      --surface search lists three tools that find, describe and call the others instead of every
      schema (--always-load name lists a tool beside them), --surface auto whichever costs a session
      fewer tokens (the default with --config), --surface full every schema; --overrides file hides tools or
      parameters, fixes a parameter's value, replaces descriptions, marks alwaysLoad or searchHint;
      --audit-log file writes one JSON line per call (caller, tool, outcome, time, repaired paths);
      over stdio, --callers file's entry named stdio limits the client's calls a minute and at once;
      --check connects, reads the list, applies the overrides, compiles every profile, says what it
      would serve and exits (0, or 1 where the overrides name what the upstream does not list)`,
  async run(args) {
    const { values, common: { overridesFile, upstream: named, ...common } } = readUpstreamCommand('proxy', args)
    const overrides = overridesFile === undefined ? undefined : (await import('../proxy/files')).readOverridesFile(overridesFile)
    const served = await servingOf(values)
    // The callers' tokens are the proxy's own: no variable or header of any upstream's carries them.
    const withheld = served.http && served.http.every.length > 0 ? { withheld: served.http.every } : {}
    if (parseOnly())
      return 0
    if (values.check)
      return checkProxy(named, common, overrides, values.profile)
    if ('config' in named) {
      const gateway = await gatewayEntries(named.config, withheld, 'proxy')
      const { runProxy } = await import('../proxy/run-proxy')
      await runProxy({ ...common, gateway, config: named.config, ...served, ...(overrides ? { overrides } : {}) })
      return new Promise<number>(() => {})
    }
    const upstream: UpstreamTarget = { ...named, ...withheld }
    // The upstream command starts first, and boots while the proxy's own modules load (a few hundred
    // milliseconds of one core): the proxy's start-up overlaps the server's instead of adding to it.
    const started = 'command' in upstream ? (await import('@flatmcp/runtime/proxy/spawn')).startCommand(upstream) : undefined
    const { runProxy } = await import('../proxy/run-proxy')
    await runProxy({ ...common, upstream, ...served, ...(overrides ? { overrides } : {}), ...(started ? { started } : {}) })
    return new Promise<number>(() => {})
  },
}

/**
 * `--check`: the list read, the overrides applied and every profile compiled as the proxy would,
 * said, and nothing served: an operator's try of a file before a client is wired to it.
 */
async function checkProxy(named: UpstreamCommandLine['upstream'], common: Omit<UpstreamCommandLine['common'], 'upstream' | 'overridesFile'>, overrides: Overrides | undefined, profile: string[] | undefined): Promise<number> {
  const { runSnapshot } = await import('../proxy/run-snapshot')
  const upstream = 'config' in named ? { gateway: { config: named.config, entries: await gatewayEntries(named.config, {}, 'proxy') } } : { upstream: named }
  const profiles = profilesOf(profile)?.filter(name => name !== 'portable')
  const { unmatched } = await runSnapshot({ ...common, ...upstream, ...(overrides ? { overrides } : {}), ...(profiles ? { profiles } : {}), generator: 'flatmcp proxy --check', check: true })
  return unmatched > 0 ? 1 : 0
}

/** What the proxy serves and how: one profile, the snapshot, the outputs, the surface, and HTTP's callers. */
export async function servingOf(values: UpstreamCommandLine['values']) {
  const profiles = profilesOf(values.profile)
  if ((profiles?.length ?? 0) > 1)
    throw new UsageError('proxy serves one --profile (with --http, every compiled profile has its own /mcp/<profile> route too)')
  if (values.frozen && values.artifact === undefined)
    throw new UsageError('--frozen serves only what a snapshot holds: give it with --artifact file')
  if (values.host !== undefined && values.http === undefined)
    throw new UsageError('--host is where --http listens: give --http port too')
  const outputs = oneOf(values.outputs, '--outputs', ['compiled', 'unlisted'] as const)
  // In front of many servers (--config) the list is what grows: served as whichever costs a session less, unless told.
  const surface = oneOf(values.surface, '--surface', ['full', 'search', 'auto'] as const) ?? (values.config === undefined ? undefined : 'auto')
  const alwaysLoad = values['always-load']?.flatMap(value => value.split(',')).filter(name => name !== '')
  if (alwaysLoad && surface !== 'search' && surface !== 'auto')
    throw new UsageError('--always-load names tools listed beside the search surface: give --surface search (or auto, the default with --config) too')
  const port = count(values.http, '--http')
  const servingFlag = SERVING_FLAGS.find(flag => values[flag] !== undefined)
  if (servingFlag !== undefined && port === undefined)
    throw new UsageError(`--${servingFlag} is for the proxy served over HTTP: give --http port too`)
  const http = port === undefined ? undefined : await httpServing(values.host ?? '127.0.0.1', port, values)
  const limits = port === undefined && values.callers !== undefined ? await stdioLimits(values.callers) : undefined
  return {
    ...(values['audit-log'] ? { auditLog: values['audit-log'] } : {}),
    ...(limits ? { limits } : {}),
    ...(outputs ? { outputs } : {}),
    ...(surface ? { surface } : {}),
    ...(alwaysLoad ? { alwaysLoad } : {}),
    ...(profiles?.[0] ? { profile: profiles[0] } : {}),
    ...(values.artifact ? { artifact: values.artifact, frozen: values.frozen === true } : {}),
    ...(http ? { http } : {}),
  }
}

/** Over stdio the one client's limits: the callers file's entry named `stdio` (the tokens are HTTP's). */
async function stdioLimits(file: string): Promise<CallerLimits> {
  const { limits } = (await import('../proxy/callers-file')).readCallersFile(file)
  if (!Object.hasOwn(limits, 'stdio'))
    throw new UsageError(`--callers ${file}: over stdio only the entry named "stdio" applies (the client's limits: {"stdio": {"callsPerMinute": n, "inFlight": n}}), and the file has none; its tokens are for --http`)
  return limits.stdio!
}

/**
 * Who may use the proxy over HTTP: the caller tokens (`--auth-token`, `--auth-token-file`, one per
 * line, `FLATMCP_PROXY_TOKEN`), `--no-auth`, the origins and host names allowed. Beyond loopback a
 * token is needed unless `--no-auth` says otherwise (the runtime's rule, as serving checks it).
 */
async function httpServing(host: string, port: number, values: UpstreamCommandLine['values']): Promise<HttpServing & { tokens: string[], every: string[], open: boolean }> {
  const tokens = [...(values['auth-token'] ?? []), ...tokensInFile(values['auth-token-file']), ...(process.env.FLATMCP_PROXY_TOKEN ? [process.env.FLATMCP_PROXY_TOKEN] : [])]
  const named = values.callers === undefined ? undefined : (await import('../proxy/callers-file')).readCallersFile(values.callers)
  const every = [...tokens, ...(named?.callers ?? []).map(caller => caller.token)]
  if (values['no-auth'] && every.length > 0)
    throw new UsageError('--no-auth serves without a caller credential, and a token was given: choose one')
  const { needsCallerCredential } = await import('@flatmcp/runtime/proxy')
  if (needsCallerCredential(host, every) && !values['no-auth'])
    throw new UsageError(`--host ${host} serves beyond loopback: give a caller credential (--auth-token-file file, FLATMCP_PROXY_TOKEN, --auth-token or --callers file), or --no-auth to let anyone who reaches the port use the upstream with your credentials`)
  return { host, port, tokens, ...(named ? { callers: named.callers, limits: named.limits } : {}), every, origins: values['allow-origin'] ?? [], hosts: values['allow-host'] ?? [], open: values['no-auth'] === true }
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
