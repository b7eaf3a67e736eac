// The upstream of proxy, snapshot and probe as a command line gives it: a command after `--` (with
// `--env NAME=value` added to the environment it gets, the proxy's whole one), or one URL (with
// headers, or the proxy's OAuth client credentials). `${NAME}` in a header's or an added variable's
// value is read from the environment when the upstream is connected.
import type { UpstreamOAuth, UpstreamTarget } from '@flatmcp/runtime/proxy'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import type { LogLevel } from '../proxy/operator-log'
import { count, duration, oneOf, presetOf, UsageError } from './command'
import { ONE_SERVER_FLAGS, ownFlags, UPSTREAM_OPTIONS, wordsOf } from './upstream-flags'

/** The OAuth flags of proxy and snapshot, as given. */
interface OAuthFlags { 'oauth-client-id'?: string, 'oauth-client-secret-file'?: string, 'oauth-issuer'?: string, 'oauth-scope'?: string }

/**
 * The proxy's client credentials with an OAuth-protected upstream: all of the id, the secret (a file,
 * or FLATMCP_OAUTH_CLIENT_SECRET: never a flag, which any process may read) and the issuer, or none.
 */
function oauthOf(values: OAuthFlags, headers: Record<string, string>): UpstreamOAuth | undefined {
  const given = (['oauth-client-id', 'oauth-client-secret-file', 'oauth-issuer', 'oauth-scope'] as const).filter(flag => values[flag] !== undefined)
  if (given.length === 0)
    return undefined
  const id = values['oauth-client-id']
  const issuer = values['oauth-issuer']
  if (id === undefined || issuer === undefined)
    throw new UsageError(`--${given[0]} is for an OAuth-protected upstream: give --oauth-client-id, --oauth-issuer (the authorization server's issuer URL) and the secret (--oauth-client-secret-file file or FLATMCP_OAUTH_CLIENT_SECRET)`)
  if (!/^https?:\/\//.test(issuer))
    throw new UsageError(`--oauth-issuer takes the authorization server's issuer URL, not "${issuer}"`)
  if (Object.keys(headers).some(name => name.toLowerCase() === 'authorization'))
    throw new UsageError('--header Authorization and --oauth-client-id both say how to reach the upstream: give one')
  let secret = process.env.FLATMCP_OAUTH_CLIENT_SECRET
  const file = values['oauth-client-secret-file']
  if (file !== undefined) {
    try {
      secret = readFileSync(file, 'utf8').trim()
    }
    catch (error) {
      throw new UsageError(`--oauth-client-secret-file: ${(error as Error).message}`)
    }
  }
  if (!secret)
    throw new UsageError('--oauth-client-id needs its secret: --oauth-client-secret-file file, or FLATMCP_OAUTH_CLIENT_SECRET')
  return { clientId: id, clientSecret: secret, issuer, ...(values['oauth-scope'] === undefined ? {} : { scope: values['oauth-scope'] }) }
}

export function upstreamOf(command: string, after: string[] | undefined, urls: string[], headerFlags: string[] | undefined, envFlags: string[] | undefined, oauthFlags: OAuthFlags = {}): UpstreamTarget {
  const url = urls[0]
  if ((after === undefined || after.length === 0) === (url === undefined) || urls.length > 1)
    throw new UsageError(`${command} needs one upstream: its command after -- (flatmcp ${command} -- node server.js), or its URL (flatmcp ${command} ${command === 'probe' ? '--upstream ' : ''}https://example.com/mcp)`)
  if (url !== undefined && !/^https?:\/\//.test(url))
    throw new UsageError(`the upstream URL must start with http:// or https://, not "${url}"`)
  if (url === undefined && headerFlags?.length)
    throw new UsageError('--header is sent to an upstream URL; a command upstream takes none (give it --env NAME=value)')
  if (url !== undefined && envFlags?.length)
    throw new UsageError('--env is for an upstream command, which the proxy starts; an upstream URL takes --header')
  const headers: Record<string, string> = {}
  for (const header of headerFlags ?? []) {
    const colon = header.indexOf(':')
    if (colon <= 0)
      throw new UsageError('--header takes "Name: value"')
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim()
  }
  const env: Record<string, string> = {}
  for (const variable of envFlags ?? []) {
    const equals = variable.indexOf('=')
    if (equals <= 0 || !/^[A-Za-z_]\w*$/.test(variable.slice(0, equals)))
      throw new UsageError(`--env takes NAME=value, not "${variable}"`)
    env[variable.slice(0, equals)] = variable.slice(equals + 1)
  }
  const oauth = oauthOf(oauthFlags, headers)
  if (oauth && url === undefined)
    throw new UsageError('--oauth-client-id is for an upstream URL; a command upstream takes its credentials by --env')
  return url === undefined ? { command: after!, ...(envFlags?.length ? { env } : {}) } : { url, headers, ...(oauth ? { oauth } : {}) }
}

/**
 * Where an upstream command starts among proxy's or snapshot's arguments: at `--`, or, without one,
 * at the first word that is neither an option, an option's value nor a URL of any scheme (a client config's `args`
 * as the MCP Inspector builds them: `["proxy", "npx", "-y", "server"]`); -1 for none.
 */
export function commandStart(args: string[], options: Record<string, { type: 'string' | 'boolean' }>): number {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--')
      return i
    if (arg.startsWith('-')) {
      const name = arg.replace(/^--?/, '').split('=')[0]!
      if (options[name]?.type === 'string' && !arg.includes('='))
        i++
      continue
    }
    if (!/^[a-z][\w+.-]*:\/\//i.test(arg))
      return i
  }
  return -1
}

export { SERVING_FLAGS, UPSTREAM_OPTIONS } from './upstream-flags'

type UpstreamValues = ReturnType<typeof parseArgs<{ args: string[], allowPositionals: true, options: typeof UPSTREAM_OPTIONS }>>['values']

/** The upstream a command line names: one server (a command or a URL), or a client's config of many (`--config`). */
export type CommandUpstream = UpstreamTarget | { config: string }

/** `--config FILE`: the servers its file lists, and nothing else that names an upstream. */
function configOf(values: UpstreamValues, named: boolean): { config: string } {
  if (named)
    throw new UsageError('--config lists the servers to serve: give no command or URL beside it')
  const flag = ONE_SERVER_FLAGS.find(name => values[name] !== undefined)
  if (flag !== undefined)
    throw new UsageError(`--${flag} is for one server; with --config, each server's entry says how to reach it`)
  return { config: values.config! }
}

/** What proxy and snapshot both take: the upstream, and how its list is read and compiled. */
export interface UpstreamCommandLine {
  values: UpstreamValues
  upstream: CommandUpstream
  common: { upstream: CommandUpstream, preset?: ReturnType<typeof presetOf> & string, onInvalid?: 'serve' | 'drop', timeoutMs?: number, compileTimeoutMs?: number, strictBudget?: number, overridesFile?: string, logLevel?: LogLevel }
}

/** Reads the command line of proxy or snapshot: a flag the other command owns is refused. */
export function readUpstreamCommand(command: 'proxy' | 'snapshot', rest: string[]): UpstreamCommandLine {
  const split = commandStart(rest, UPSTREAM_OPTIONS)
  const { values, positionals } = parseArgs({ args: split < 0 ? rest : rest.slice(0, split), allowPositionals: true, options: UPSTREAM_OPTIONS })
  const foreign = ownFlags(command === 'proxy' ? 'snapshot' : 'proxy').find(flag => values[flag] !== undefined)
  if (foreign !== undefined)
    throw new UsageError(`${command} takes no --${foreign}`)
  const upstream = values.config === undefined
    ? upstreamOf(command, split < 0 ? undefined : rest.slice(rest[split] === '--' ? split + 1 : split), positionals, values.header, values.env, values)
    : configOf(values, split >= 0 || positionals.length > 0)
  const onInvalid = oneOf(values['on-invalid'], '--on-invalid', wordsOf('on-invalid'))
  const logLevel = oneOf(values['log-level'], '--log-level', wordsOf('log-level'))
  const common = {
    upstream,
    ...(values.preset ? { preset: presetOf(values.preset)! } : {}),
    ...(onInvalid ? { onInvalid } : {}),
    ...(logLevel ? { logLevel } : {}),
    ...(values.timeout === undefined ? {} : { timeoutMs: duration(values.timeout, '--timeout')! }),
    ...(values['compile-timeout'] === undefined ? {} : { compileTimeoutMs: duration(values['compile-timeout'], '--compile-timeout')! }),
    ...(values['strict-budget'] === undefined ? {} : { strictBudget: count(values['strict-budget'], '--strict-budget')! }),
    ...(values.overrides === undefined ? {} : { overridesFile: values.overrides }),
  }
  return { values, upstream, common }
}
