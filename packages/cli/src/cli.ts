#!/usr/bin/env node
// The flatmcp command. Exit codes: 0 clean, 1 findings (the probe's; a build's diagnostic at
// --fail-on), 2 usage or load errors. Each command loads what it needs when it runs: the proxy
// starts without the build pipeline.
import type { PresetName, ProfileName } from '@flatmcp/core'
import type { UpstreamOAuth, UpstreamTarget } from '@flatmcp/runtime/proxy'
import { PRESET_NAMES, PROFILE_NAMES } from '@flatmcp/core'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { cliVersion, snapshotGenerator } from './version'

/** Each command's usage, as `flatmcp <command> --help` prints it. */
const COMMANDS: Record<string, string> = {
  build: `  flatmcp build <files or globs…> [--out dir] [--profile name]… [--preset name] [--module-timeout ms]
                [--fail-on error|warning|never] [--quiet] [--root dir]
      write the *.mcp.json artifacts the bundler plugin writes, byte for byte (nothing, if any module
      fails or runs past --module-timeout, 60000 ms); warnings and a summary go to stderr (--quiet:
      none), --fail-on warning makes a warning fail the build; each --profile
      (${PROFILE_NAMES.join(', ')}) is built, the first of portable/minimal as the base;
      --preset (auto, ${PRESET_NAMES.join(', ')}) names the parser JSON Schema inputs were written for`,
  inspect: `  flatmcp inspect <file> [--tool name] [--profile name] [--preset name] [--run] [--root dir]
      original and advertised schema side by side in one profile, tokens per profile, what was cut,
      diagnostics, inverse map, of a tool module's tools or a snapshot's (*.mcp.json: its fallbacks
      too); --run evaluates a module not named *.tools.ts too`,
  proxy: `  flatmcp proxy [options] [--env NAME=value]… [--] <command> [args…]
  flatmcp proxy [options] [--header 'Name: value']… [--oauth-client-id id --oauth-issuer url [--oauth-scope s]] <url>
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
      --auth-token; needed beyond loopback unless --no-auth), browser origins beyond loopback and
      host names by --allow-origin and --allow-host; --artifact file to serve a snapshot without compiling (--frozen: only what it holds);
      --outputs unlisted lists no output schema (for a server whose results miss its own);
      --surface search lists three tools that find, describe and call the others instead of every
      schema (--always-load name lists a tool beside them); --overrides file hides tools or
      parameters, fixes a parameter's value, replaces descriptions, marks alwaysLoad or searchHint`,
  snapshot: `  flatmcp snapshot [--out file] [--profile name]… [--preset name] [--on-invalid serve|drop] [--compile-timeout ms] [--overrides file] [--env NAME=value]… [--] <command> [args…]
  flatmcp snapshot [options] [--header 'Name: value']… <url>
      compile an upstream's tools into an *.mcp.json snapshot (every profile unless --profile) that
      flatmcp proxy --artifact and the fetch handler serve without compiling`,
  probe: `  flatmcp probe [artifacts or folders…] [--source file]… [--samples N] [--seed N] [--max-tokens N]
                [--max-module-tokens N] [--json] [--root dir] [--upstream url [--header 'Name: value']… | [--env NAME=value]… -- <command>]
      check what ships, in every profile it holds: well-formed, valid JSON Schema, profile rules,
      current with its source (a snapshot: with the upstream schemas it holds, and with the live
      upstream given), superset of the original on generated values, within the token budgets
      (o200k_base, per tool and per module); exit 1 on findings`,
}

const EXIT_CODES = 'exit codes: 0 clean, 1 findings (probe; build: a tool that cannot be served, a diagnostic at --fail-on), 2 usage errors or modules that cannot load'

const HELP = `flatmcp — sound flat schemas for MCP tools

usage:
${Object.values(COMMANDS).join('\n')}
  flatmcp <command> --help | flatmcp --version

${EXIT_CODES}`

class UsageError extends Error {}

/**
 * With FLATMCP_PARSE_ONLY=1 a command stops once its command line is read and checked, before it
 * loads, starts or writes anything: how the suite runs the command lines the docs show.
 */
const parseOnly = process.env.FLATMCP_PARSE_ONLY === '1'

function profileOf(value: string): ProfileName {
  if (!(PROFILE_NAMES as string[]).includes(value))
    throw new UsageError(`--profile must be one of ${PROFILE_NAMES.join(', ')}, not "${value}"`)
  return value as ProfileName
}

function presetOf(value: string | undefined): PresetName | 'auto' | undefined {
  if (value !== undefined && value !== 'auto' && !(PRESET_NAMES as string[]).includes(value))
    throw new UsageError(`--preset must be auto or one of ${PRESET_NAMES.join(', ')}, not "${value}"`)
  return value as PresetName | 'auto' | undefined
}

/**
 * The upstream of proxy, snapshot or probe: a command after `--` (with `--env NAME=value` added to
 * the environment it gets, the proxy's whole one), or one URL (with headers). `${NAME}` in a header's
 * or an added variable's value is read from the environment when the upstream is connected.
 */
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

function upstreamOf(command: string, after: string[] | undefined, urls: string[], headerFlags: string[] | undefined, envFlags: string[] | undefined, oauthFlags: OAuthFlags = {}): UpstreamTarget {
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
function commandStart(args: string[], options: Record<string, { type: 'string' | 'boolean' }>): number {
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

/**
 * Who may use the proxy over HTTP: the caller tokens (`--auth-token`, `--auth-token-file`, one per
 * line, `FLATMCP_PROXY_TOKEN`), `--no-auth`, the origins and host names allowed. Beyond loopback a
 * token is needed unless `--no-auth` says otherwise.
 */
function httpServing(host: string, port: number, values: { 'auth-token'?: string[], 'auth-token-file'?: string, 'no-auth'?: boolean, 'allow-origin'?: string[], 'allow-host'?: string[] }): { host: string, port: number, tokens: string[], origins: string[], hosts: string[], open: boolean } {
  const fromFile = values['auth-token-file'] === undefined
    ? []
    : (() => {
        try {
          return readFileSync(values['auth-token-file'], 'utf8').split(/\r?\n/).map(line => line.trim()).filter(line => line !== '' && !line.startsWith('#'))
        }
        catch (error) {
          throw new UsageError(`--auth-token-file: ${(error as Error).message}`)
        }
      })()
  const tokens = [...(values['auth-token'] ?? []), ...fromFile, ...(process.env.FLATMCP_PROXY_TOKEN ? [process.env.FLATMCP_PROXY_TOKEN] : [])]
  if (values['no-auth'] && tokens.length > 0)
    throw new UsageError('--no-auth serves without a caller credential, and a token was given: choose one')
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(host)
  if (!loopback && tokens.length === 0 && !values['no-auth'])
    throw new UsageError(`--host ${host} serves beyond loopback: give a caller credential (--auth-token-file file, FLATMCP_PROXY_TOKEN or --auth-token), or --no-auth to let anyone who reaches the port use the upstream with your credentials`)
  return { host, port, tokens, origins: values['allow-origin'] ?? [], hosts: values['allow-host'] ?? [], open: values['no-auth'] === true }
}

function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined)
    return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`${flag} takes a whole number, not "${value}"`)
  return n
}

/** The longest time a timer holds (about 24.8 days); a longer one fires at once. */
const LONGEST_MS = 2 ** 31 - 1

/** A time limit in milliseconds: a whole number a timer can hold. */
function duration(value: string | undefined, flag: string): number | undefined {
  const n = count(value, flag)
  if (n !== undefined && n > LONGEST_MS)
    throw new UsageError(`${flag} takes at most ${LONGEST_MS} ms (about 24 days), not ${value}`)
  return n
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP)
    return command === undefined ? 2 : 0
  }
  if (command === '--version' || command === '-v') {
    console.log(cliVersion())
    return 0
  }
  if (COMMANDS[command] !== undefined && rest.some(arg => arg === '--help' || arg === '-h')) {
    console.log(`usage:\n${COMMANDS[command]}\n\n${EXIT_CODES}`)
    return 0
  }
  if (rest.includes('--version')) {
    console.log(cliVersion())
    return 0
  }
  const common = { root: { type: 'string' } } as const
  if (command === 'build') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { ...common, 'out': { type: 'string' }, 'profile': { type: 'string', multiple: true }, 'preset': { type: 'string' }, 'module-timeout': { type: 'string' }, 'fail-on': { type: 'string' }, 'quiet': { type: 'boolean' } } })
    if (positionals.length === 0)
      throw new UsageError('build needs tool module files or globs')
    const moduleTimeout = duration(values['module-timeout'], '--module-timeout')
    if (moduleTimeout === 0)
      throw new UsageError('--module-timeout takes a whole number of milliseconds above 0')
    const failOn = values['fail-on']
    if (failOn !== undefined && !['error', 'warning', 'never'].includes(failOn))
      throw new UsageError(`--fail-on must be error, warning or never, not "${failOn}"`)
    if (parseOnly)
      return 0
    const said = values.quiet ? undefined : (line: string): void => console.error(line)
    const { buildArtifacts } = await import('./build')
    const written = await buildArtifacts({
      patterns: positionals,
      out: values.out,
      profiles: values.profile?.flatMap(value => value.split(',')).map(profileOf),
      preset: presetOf(values.preset),
      root: values.root,
      ...(moduleTimeout === undefined ? {} : { moduleTimeout }),
      ...(failOn === undefined ? {} : { failOn: failOn as 'error' | 'warning' | 'never' }),
      ...(said ? { onWarning: message => said(`flatmcp: warning: ${message}`), onSummary: said } : {}),
    })
    for (const file of written)
      console.log(path.relative(process.cwd(), file))
    return 0
  }
  if (command === 'inspect') {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { ...common, tool: { type: 'string' }, profile: { type: 'string' }, preset: { type: 'string' }, run: { type: 'boolean' } } })
    if (positionals.length !== 1)
      throw new UsageError('inspect takes one tool module')
    const profile = values.profile === undefined ? undefined : profileOf(values.profile)
    const preset = presetOf(values.preset)
    if (parseOnly)
      return 0
    const { inspectModule } = await import('./inspect')
    console.log(await inspectModule({ file: positionals[0]!, tool: values.tool, profile, preset, root: values.root, run: values.run, stream: process.stdout }))
    return 0
  }
  if (command === 'proxy' || command === 'snapshot') {
    const options = { 'profile': { type: 'string', multiple: true }, 'preset': { type: 'string' }, 'on-invalid': { type: 'string' }, 'header': { type: 'string', multiple: true }, 'env': { type: 'string', multiple: true }, 'timeout': { type: 'string' }, 'compile-timeout': { type: 'string' }, 'http': { type: 'string' }, 'host': { type: 'string' }, 'artifact': { type: 'string' }, 'frozen': { type: 'boolean' }, 'outputs': { type: 'string' }, 'surface': { type: 'string' }, 'always-load': { type: 'string', multiple: true }, 'out': { type: 'string' }, 'auth-token': { type: 'string', multiple: true }, 'auth-token-file': { type: 'string' }, 'no-auth': { type: 'boolean' }, 'allow-origin': { type: 'string', multiple: true }, 'allow-host': { type: 'string', multiple: true }, 'oauth-client-id': { type: 'string' }, 'oauth-client-secret-file': { type: 'string' }, 'oauth-issuer': { type: 'string' }, 'oauth-scope': { type: 'string' }, 'overrides': { type: 'string' } } as const
    const split = commandStart(rest, options)
    const { values, positionals } = parseArgs({ args: split < 0 ? rest : rest.slice(0, split), allowPositionals: true, options })
    const serving = ['auth-token', 'auth-token-file', 'no-auth', 'allow-origin', 'allow-host']
    const own = command === 'proxy' ? ['http', 'host', 'artifact', 'frozen', 'outputs', 'surface', 'always-load', ...serving] : ['out']
    const foreign = ['http', 'host', 'artifact', 'frozen', 'outputs', 'surface', 'always-load', 'out', ...serving].find(flag => !own.includes(flag) && values[flag as keyof typeof values] !== undefined)
    if (foreign !== undefined)
      throw new UsageError(`${command} takes no --${foreign}`)
    const upstream = upstreamOf(command, split < 0 ? undefined : rest.slice(rest[split] === '--' ? split + 1 : split), positionals, values.header, values.env, values)
    const onInvalid = values['on-invalid']
    if (onInvalid !== undefined && onInvalid !== 'serve' && onInvalid !== 'drop')
      throw new UsageError(`--on-invalid must be serve or drop, not "${onInvalid}"`)
    const profiles = values.profile?.flatMap(value => value.split(',')).map(profileOf)
    const common = {
      upstream,
      ...(values.preset ? { preset: presetOf(values.preset)! } : {}),
      ...(onInvalid ? { onInvalid: onInvalid as 'serve' | 'drop' } : {}),
      ...(values.timeout === undefined ? {} : { timeoutMs: duration(values.timeout, '--timeout')! }),
      ...(values['compile-timeout'] === undefined ? {} : { compileTimeoutMs: duration(values['compile-timeout'], '--compile-timeout')! }),
      ...(values.overrides === undefined ? {} : { overrides: (await import('./proxy/proxy')).readOverridesFile(values.overrides) }),
    }
    if (command === 'snapshot') {
      if (parseOnly)
        return 0
      const { runSnapshot } = await import('./proxy/snapshot')
      const file = await runSnapshot({ ...common, ...(values.out ? { out: values.out } : {}), ...(profiles ? { profiles } : {}), generator: snapshotGenerator() })
      console.log(path.relative(process.cwd(), file))
      return 0
    }
    if ((profiles?.length ?? 0) > 1)
      throw new UsageError('proxy serves one --profile (with --http, every compiled profile has its own /mcp/<profile> route too)')
    if (values.frozen && values.artifact === undefined)
      throw new UsageError('--frozen serves only what a snapshot holds: give it with --artifact file')
    if (values.host !== undefined && values.http === undefined)
      throw new UsageError('--host is where --http listens: give --http port too')
    const outputs = values.outputs
    if (outputs !== undefined && outputs !== 'compiled' && outputs !== 'unlisted')
      throw new UsageError(`--outputs must be compiled or unlisted, not "${outputs}"`)
    const surface = values.surface
    if (surface !== undefined && surface !== 'full' && surface !== 'search')
      throw new UsageError(`--surface must be full or search, not "${surface}"`)
    const alwaysLoad = values['always-load']?.flatMap(value => value.split(',')).filter(name => name !== '')
    if (alwaysLoad && surface !== 'search')
      throw new UsageError('--always-load names tools listed beside the search surface: give --surface search too')
    const port = count(values.http, '--http')
    const servingFlag = serving.find(flag => values[flag as keyof typeof values] !== undefined)
    if (servingFlag !== undefined && port === undefined)
      throw new UsageError(`--${servingFlag} is for the proxy served over HTTP: give --http port too`)
    const http = port === undefined ? undefined : httpServing(values.host ?? '127.0.0.1', port, values)
    if (parseOnly)
      return 0
    // The upstream command starts now, while the proxy's own modules load (a few hundred milliseconds).
    const started = 'command' in upstream ? (await import('@flatmcp/runtime/proxy/spawn')).startCommand(upstream) : undefined
    const { runProxy } = await import('./proxy/proxy')
    await runProxy({
      ...common,
      ...(started ? { started } : {}),
      ...(outputs ? { outputs: outputs as 'compiled' | 'unlisted' } : {}),
      ...(surface ? { surface: surface as 'full' | 'search' } : {}),
      ...(alwaysLoad ? { alwaysLoad } : {}),
      ...(profiles?.[0] ? { profile: profiles[0] } : {}),
      ...(values.artifact ? { artifact: values.artifact, frozen: values.frozen === true } : {}),
      ...(http ? { http } : {}),
    })
    return new Promise<number>(() => {})
  }
  if (command === 'probe') {
    const split = rest.indexOf('--')
    const { values, positionals } = parseArgs({
      args: split < 0 ? rest : rest.slice(0, split),
      allowPositionals: true,
      options: { 'root': { type: 'string' }, 'source': { type: 'string', multiple: true }, 'samples': { type: 'string' }, 'seed': { type: 'string' }, 'json': { type: 'boolean' }, 'max-tokens': { type: 'string' }, 'max-module-tokens': { type: 'string' }, 'upstream': { type: 'string' }, 'header': { type: 'string', multiple: true }, 'env': { type: 'string', multiple: true } },
    })
    const live = split < 0 && values.upstream === undefined && values.header === undefined && values.env === undefined ? undefined : upstreamOf('probe', split < 0 ? undefined : rest.slice(split + 1), values.upstream === undefined ? [] : [values.upstream], values.header, values.env)
    const root = path.resolve(values.root ?? process.cwd())
    const counts = { samples: count(values.samples, '--samples'), seed: count(values.seed, '--seed'), maxTokens: count(values['max-tokens'], '--max-tokens'), maxModuleTokens: count(values['max-module-tokens'], '--max-module-tokens') }
    if (parseOnly)
      return 0
    const progress = process.stderr.isTTY && !values.json
    const { probe } = await import('./probe/probe')
    const { renderReport } = await import('./probe/report')
    const report = await probe({
      paths: positionals,
      root,
      sources: values.source,
      ...counts,
      ...(live ? { upstream: live } : {}),
      onProgress: progress ? (done, total, file) => process.stderr.write(`\rprobing ${done + 1}/${total} ${path.relative(root, file)}\x1B[K`) : undefined,
    })
    if (progress)
      process.stderr.write('\r\x1B[K')
    console.log(values.json ? JSON.stringify(report, null, 2) : renderReport(report, root, process.stdout))
    return report.ok ? 0 : 1
  }
  throw new UsageError(`unknown command "${command}"`)
}

/**
 * Ends the process once what it wrote has reached its reader: to a pipe, stdout is written
 * asynchronously, and exiting at once cut a probe's JSON report at 64 KiB.
 */
function exitWhenWritten(code: number): void {
  process.exitCode = code
  let pending = 2
  const done = (): void => {
    if (--pending === 0)
      process.exit(code)
  }
  process.stdout.write('', done)
  process.stderr.write('', done)
}

/** Edits (insert, delete, replace) from one word to another. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]!
}

/**
 * A usage error in a line or two: what is wrong, the option meant where one was mistyped (Node's
 * parseArgs says only that it is unknown), and where the usage is. Not the whole help.
 */
function usageMessage(error: Error, command: string | undefined): string {
  const usage = command !== undefined && COMMANDS[command] !== undefined ? `flatmcp ${command} --help` : 'flatmcp --help'
  const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(error.message)?.[1]
  if (unknown === undefined)
    return `flatmcp: ${error.message}\n(${usage} shows the usage)`
  const known = [...new Set((command !== undefined ? COMMANDS[command] ?? '' : '').match(/--[a-z][a-z-]*/g) ?? [])]
  const [best] = known.map(option => ({ option, far: distance(unknown, option) })).sort((a, b) => a.far - b.far)
  const meant = best && (best.far <= 3 || unknown.startsWith(best.option) || best.option.startsWith(unknown)) ? ` (did you mean ${best.option}?)` : ''
  return `flatmcp: unknown option ${unknown}${meant}\n(${usage} shows the usage)`
}

main(process.argv.slice(2)).then(exitWhenWritten, (error: unknown) => {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')))
    console.error(usageMessage(error, process.argv[2]))
  // Each command's own errors, said in one line (the commands load lazily: known by name).
  else if (error instanceof Error && ['ProbeLoadError', 'BuildError', 'ProxySetupError'].includes(error.name))
    console.error(`flatmcp: ${error.message}`)
  else
    console.error(`flatmcp: ${error instanceof Error ? error.stack : String(error)}`)
  exitWhenWritten(error instanceof Error && (error as { exitCode?: unknown }).exitCode === 1 ? 1 : 2)
})
