// A client's MCP server config, read as flatmcp serves it, in each shape of install's table
// (install/shapes.ts) that `--config` reads: Claude's, Cursor's and Gemini CLI's `{"mcpServers": {…}}`,
// VS Code's `{"servers": {…}}` and Codex's TOML `[mcp_servers.NAME]`. Each entry becomes an upstream
// target; one flatmcp cannot serve is an error naming the entry and the key, one the client's own
// format switches off is skipped and said.
// Variables are read as the clients read them: `${NAME}`, `${env:NAME}` (VS Code) and
// `${NAME:-default}` (Claude Code), with the variables Codex's `env_vars` passes through and those of
// VS Code's and Cursor's `envFile` (read as the proxy starts); in `env` and `headers` they are left for the proxy to read when it
// connects (so a secret's value is never copied), but one that is not set, or holds a caller's token,
// is refused now: a static error, not one each try to start the server meets again. A variable an entry
// names (`env_vars`, `${NAME}`) is that entry's: the other entries' servers start without it, as in the client. The proxy's own credentials (its callers'
// tokens, `PROXY_VARIABLES`) are refused anywhere in an entry: in a command, its arguments or its
// folder they would be on the server's command line, which any local user reads.
import type { ServedShapeKey } from '../install/shapes'
import type { UpstreamTarget } from '@flatmcp/runtime/proxy'
import { holdsSecret, PROXY_VARIABLES } from '@flatmcp/runtime/proxy'
import { SERVED_SHAPES, servedShapesSpelled } from '../install/shapes'
import { isObject } from '../util'
import { envFileVariables } from './env-file'
import { keptApart, variablesNamed } from './named-variables'

/** One server of the config, as flatmcp will reach it. */
export interface ServerEntry {
  name: string
  target: UpstreamTarget
  /** The tools the client's config keeps (Gemini's `includeTools`, Codex's `enabled_tools`), or leaves out. */
  tools?: { only?: string[], except?: string[] }
}

export interface ServersConfig {
  /** Which client's shape the file has (install/shapes.ts). */
  shape: ServedShapeKey
  entries: ServerEntry[]
  /** Entries the client's own format switches off: not served, and said. */
  skipped: { name: string, why: string }[]
}

/** A config flatmcp cannot serve: the file, the entry and the key it stops at. */
export class ServersConfigError extends Error {
  /** `key`: the entry's key it stops at, where it is one (`env_vars`, `args[0]`). */
  constructor(file: string, where: string, readonly reason: string, readonly key?: string) {
    super(`${file}${where}: ${reason}`)
    this.name = 'ServersConfigError'
  }
}

type Environment = Readonly<Record<string, string | undefined>>
type Entry = Record<string, unknown>

/** Keys a client's entry may carry that say nothing of how to reach the server (timeouts, approvals, labels). */
const IGNORED = new Set(['type', 'transport', 'disabled', 'enabled', 'timeout', 'trust', 'description', 'alwaysAllow', 'autoApprove', 'startup_timeout_sec', 'startup_timeout_ms', 'tool_timeout_sec', 'required', 'gallery', 'version', 'name', 'includeTools', 'excludeTools', 'enabled_tools', 'disabled_tools'])
const COMMAND_KEYS = new Set(['command', 'args', 'env', 'cwd', 'env_vars', 'envFile'])
const URL_KEYS = new Set(['url', 'httpUrl', 'serverUrl', 'headers', 'http_headers', 'env_http_headers', 'bearer_token_env_var'])

/** The servers table of a parsed file, and which shape it is. */
function serversOf(parsed: unknown, file: string): { shape: ServersConfig['shape'], servers: Record<string, unknown> } {
  if (isObject(parsed)) {
    for (const { key: shape } of SERVED_SHAPES) {
      if (shape in parsed) {
        if (!isObject(parsed[shape]))
          throw new ServersConfigError(file, `.${shape}`, 'must be an object of server names, each how to reach that server')
        return { shape, servers: parsed[shape] }
      }
    }
  }
  throw new ServersConfigError(file, '', `holds no servers: give a client's config (${servedShapesSpelled()})`)
}

/** Why the client's own format switches an entry off; undefined where it is on. */
function switchedOff(entry: Entry): string | undefined {
  if (entry.disabled === true)
    return '"disabled": true'
  if (entry.enabled === false)
    return '"enabled": false'
  return undefined
}

const HELD = 'holds a credential of the proxy\'s own (a caller\'s token), which never goes to a server'

/**
 * `${NAME}`, `${env:NAME}` and `${NAME:-default}` read now (`read: 'now'`, a command, its arguments,
 * its folder, a URL), or written as `${NAME}` for the proxy to read when it connects (`read: 'later'`,
 * an environment's or a header's value): either way a variable that is not set (and has no default),
 * or one that holds a credential of `withheld`, is an error now, not at each try to start the server.
 * A variable of another kind (`${input:…}`, `${workspaceFolder}`) is an error: no one is there to answer it.
 */
function variables(value: string, read: 'now' | 'later', env: Environment, withheld: readonly string[], fail: (message: string) => never): string {
  return value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    const match = /^(?:env:)?([A-Za-z_]\w*)(?::-(.*))?$/s.exec(inner)
    if (!match)
      fail(`${whole} is a variable flatmcp cannot read (it reads \${NAME}, \${env:NAME} and \${NAME:-default} from the environment)`)
    const [, name, fallback] = match
    if (PROXY_VARIABLES.includes(name!))
      fail(`names \${${name}}, the proxy's own credential, which never goes to a server`)
    const found = env[name!]
    if (found === undefined && fallback !== undefined)
      return fallback
    if (found === undefined)
      fail(`names \${${name}}, which is not set in the environment`)
    if (read === 'now')
      return found
    if (withheld.some(secret => holdsSecret(found, secret)))
      fail(`names \${${name}}, which ${HELD}`)
    return `\${${name}}`
  })
}

/**
 * A value read now (a command word, an argument, a folder, a URL): its variables read, and refused
 * where it holds one of the proxy's credentials (`withheld`, its callers' tokens).
 */
function readNow(value: string, env: Environment, withheld: readonly string[], fail: (message: string) => never): string {
  const read = variables(value, 'now', env, withheld, fail)
  if (withheld.some(secret => holdsSecret(read, secret)))
    fail(`${HELD}: on its command line any local user would read it`)
  return read
}

/** A string-valued object (`env`, `headers`), each value's variables left for the proxy to read when it connects. */
function strings(value: unknown, env: Environment, withheld: readonly string[], fail: (key: string, message: string) => never, key: string): Record<string, string> {
  if (!isObject(value))
    fail(key, 'must be an object of strings')
  const out: Record<string, string> = {}
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== 'string')
      fail(`${key}.${name}`, 'must be a string')
    out[name] = variables(item, 'later', env, withheld, message => fail(`${key}.${name}`, message))
    if (withheld.some(secret => holdsSecret(out[name]!, secret)))
      fail(`${key}.${name}`, HELD)
  }
  return out
}

/** Codex's `env_http_headers` and `bearer_token_env_var`: names of variables, each read as `${NAME}` is. */
function variableNamed(name: unknown, env: Environment, withheld: readonly string[], fail: (message: string) => never): string {
  if (typeof name !== 'string' || !/^[A-Za-z_]\w*$/.test(name))
    fail('must be the name of a variable')
  return variables(`\${${name}}`, 'later', env, withheld, fail)
}

/**
 * Codex's `env_vars`: variables the client passes from its own environment to the server, each passed
 * from the proxy's as `${NAME}` where it is set (one that is not is not passed, as Codex does).
 */
function passedThrough(names: unknown, env: Environment, withheld: readonly string[], fail: (key: string, message: string) => never): Record<string, string> {
  if (names === undefined)
    return {}
  if (!Array.isArray(names) || names.some(name => typeof name !== 'string' || !/^[A-Za-z_]\w*$/.test(name)))
    fail('env_vars', 'must be a list of variable names')
  const set = (names as string[]).filter(name => env[name] !== undefined)
  return Object.fromEntries(set.map(name => [name, variableNamed(name, env, withheld, message => fail(`env_vars.${name}`, message))]))
}

/** VS Code's and Cursor's `envFile`: a dotenv file's variables, read as the proxy starts (a relative path from the config's folder). */
function envFileOf(entry: Entry, env: Environment, withheld: readonly string[], file: string, fail: (key: string, message: string) => never): Record<string, string> {
  if (entry.envFile === undefined)
    return {}
  if (typeof entry.envFile !== 'string')
    fail('envFile', 'must be the path of a file of variables')
  const read = envFileVariables(readNow(entry.envFile as string, env, withheld, message => fail('envFile', message)), file)
  if ('error' in read)
    fail('envFile', read.error)
  const name = Object.keys(read.variables).find(key => withheld.some(secret => holdsSecret(read.variables[key]!, secret)))
  if (name !== undefined)
    fail(`envFile ${name}`, HELD)
  return read.variables
}

/** An entry that starts a command: its words, environment and folder. */
function commandTarget(entry: Entry, env: Environment, withheld: readonly string[], fail: (key: string, message: string) => never, file: string): UpstreamTarget {
  if (typeof entry.command !== 'string' || entry.command.trim() === '')
    fail('command', 'must be the command that starts the server')
  if (entry.args !== undefined && (!Array.isArray(entry.args) || entry.args.some(arg => typeof arg !== 'string')))
    fail('args', 'must be a list of strings')
  const words = [entry.command, ...((entry.args as string[] | undefined) ?? [])].map((word, i) => readNow(word, env, withheld, message => fail(i === 0 ? 'command' : `args[${i - 1}]`, message)))
  if (entry.cwd !== undefined && typeof entry.cwd !== 'string')
    fail('cwd', 'must be a folder')
  // The client's own order: the file's variables, those passed through, then `env` over both.
  const added = {
    ...envFileOf(entry, env, withheld, file, fail),
    ...passedThrough(entry.env_vars, env, withheld, fail),
    ...(entry.env === undefined ? {} : strings(entry.env, env, withheld, fail, 'env')),
  }
  return {
    command: words,
    ...(Object.keys(added).length === 0 ? {} : { env: added }),
    ...(entry.cwd === undefined ? {} : { cwd: readNow(entry.cwd as string, env, withheld, message => fail('cwd', message)) }),
  }
}

/** An entry reached at a URL (Streamable HTTP): its headers, Codex's bearer token variable among them. */
function urlTarget(entry: Entry, env: Environment, withheld: readonly string[], fail: (key: string, message: string) => never): UpstreamTarget {
  const key = (['httpUrl', 'url', 'serverUrl'] as const).find(name => entry[name] !== undefined)!
  const url = entry[key]
  if (typeof url !== 'string')
    fail(key, 'must be the server\'s URL')
  const expanded = readNow(url, env, withheld, message => fail(key, message))
  if (!/^https?:\/\//.test(expanded))
    fail(key, `must start with http:// or https:// (it is ${JSON.stringify(expanded.slice(0, 80))})`)
  const headers: Record<string, string> = {
    ...(entry.headers === undefined ? {} : strings(entry.headers, env, withheld, fail, 'headers')),
    ...(entry.http_headers === undefined ? {} : strings(entry.http_headers, env, withheld, fail, 'http_headers')),
  }
  if (entry.env_http_headers !== undefined) {
    if (!isObject(entry.env_http_headers))
      fail('env_http_headers', 'must be an object of strings')
    for (const [name, variable] of Object.entries(entry.env_http_headers))
      headers[name] = variableNamed(variable, env, withheld, message => fail(`env_http_headers.${name}`, message))
  }
  if (entry.bearer_token_env_var !== undefined)
    headers.Authorization = `Bearer ${variableNamed(entry.bearer_token_env_var, env, withheld, message => fail('bearer_token_env_var', message))}`
  return { url: expanded, ...(Object.keys(headers).length > 0 ? { headers } : {}) }
}

/** The tools an entry's client keeps or leaves out, where its format says. */
function toolFilter(entry: Entry, fail: (key: string, message: string) => never): ServerEntry['tools'] {
  const list = (key: string): string[] | undefined => {
    const value = entry[key]
    if (value === undefined)
      return undefined
    if (!Array.isArray(value) || value.some(item => typeof item !== 'string'))
      fail(key, 'must be a list of tool names')
    return value as string[]
  }
  const only = list('includeTools') ?? list('enabled_tools')
  const except = list('excludeTools') ?? list('disabled_tools')
  return only === undefined && except === undefined ? undefined : { ...(only ? { only } : {}), ...(except ? { except } : {}) }
}

/** One entry, read: how flatmcp reaches it, or an error naming its key. */
function readEntry(name: string, entry: Entry, at: string, env: Environment, file: string, withheld: readonly string[]): ServerEntry {
  const fail = (key: string, message: string): never => {
    throw new ServersConfigError(file, `${at}.${key}`, message, key)
  }
  const type = entry.type ?? entry.transport
  if (type === 'sse')
    fail('type', '"sse" is the 2024 SSE transport, which flatmcp does not reach: give the server\'s Streamable HTTP URL')
  if (type !== undefined && !['stdio', 'http', 'streamable-http', 'streamableHttp', 'local', 'remote'].includes(type as string))
    fail('type', `${JSON.stringify(type)} is not a transport flatmcp reaches (stdio, or http for Streamable HTTP)`)
  const unknown = Object.keys(entry).find(key => !IGNORED.has(key) && !COMMAND_KEYS.has(key) && !URL_KEYS.has(key))
  if (unknown !== undefined)
    fail(unknown, `is not a key flatmcp reads (${[...COMMAND_KEYS].join(', ')} for a command; url and headers for a URL)`)
  const command = entry.command !== undefined
  const url = ['url', 'httpUrl', 'serverUrl'].some(key => entry[key] !== undefined)
  if (command === url)
    fail(command ? 'url' : 'command', command ? 'an entry is a command or a URL, not both' : 'is missing: give the command that starts the server, or its url')
  const stray = Object.keys(entry).find(key => (command ? URL_KEYS : COMMAND_KEYS).has(key))
  if (stray !== undefined)
    fail(stray, `is for ${command ? 'a server reached at a URL' : 'a command'}, and this entry is ${command ? 'a command' : 'a URL'}`)
  const tools = toolFilter(entry, fail)
  return { name, target: command ? commandTarget(entry, env, withheld, fail, file) : urlTarget(entry, env, withheld, fail), ...(tools ? { tools } : {}) }
}

/**
 * One entry of a client's config under `shape`, read: how flatmcp reaches it, or why the client's own
 * format switches it off; an entry flatmcp cannot serve is a `ServersConfigError` naming the key.
 */
export function readServerEntry(name: string, entry: unknown, shape: string, file: string, env: Environment = process.env, withheld: readonly string[] = []): ServerEntry | { off: string } {
  const at = `.${shape}[${JSON.stringify(name)}]`
  if (!isObject(entry))
    throw new ServersConfigError(file, at, 'must be an object: a command (command, args, env, cwd) or a URL (url, headers)')
  const off = switchedOff(entry)
  return off === undefined ? readEntry(name, entry, at, env, file, withheld) : { off: `switched off in the config (${off})` }
}

/**
 * A client's config, parsed (JSON, with comments where VS Code allows them, or TOML), read entry by
 * entry; `file` names it in errors, `withheld` are the proxy's credentials no entry may hold. Entries switched off are skipped and listed; any entry flatmcp
 * cannot serve is a `ServersConfigError` naming the file, the entry and the key.
 */
export function readServersConfig(parsed: unknown, file: string, env: Environment = process.env, withheld: readonly string[] = []): ServersConfig {
  const { shape, servers } = serversOf(parsed, file)
  const entries: { entry: ServerEntry, named: string[] }[] = []
  const skipped: ServersConfig['skipped'] = []
  for (const [name, entry] of Object.entries(servers)) {
    const read = readServerEntry(name, entry, shape, file, env, withheld)
    if ('off' in read)
      skipped.push({ name, why: read.off })
    else
      entries.push({ entry: read, named: variablesNamed(entry as Entry) })
  }
  if (entries.length === 0)
    throw new ServersConfigError(file, `.${shape}`, skipped.length > 0 ? `every server is switched off (${skipped.map(entry => entry.name).join(', ')})` : 'lists no server')
  return { shape, entries: keptApart(entries), skipped }
}
