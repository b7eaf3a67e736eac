// `--callers FILE`: the named callers of a proxy served over HTTP, each with its token and its limits,
// and the tools' limits: all callers' together at the top, a caller's own inside its entry.
//   {"callers": {"ci": {"token": "${CI_TOKEN}", "callsPerMinute": 120, "inFlight": 4,
//                       "tools": {"github_create_issue": {"callsPerMinute": 5}}}},
//    "tools": {"github_create_issue": {"callsPerMinute": 10}}}
// A name is what the audit log and the limits say, never the token. An entry named `token` with no
// token of its own sets the limits of the unnamed tokens (`--auth-token`, `--auth-token-file`,
// FLATMCP_PROXY_TOKEN), and one named `stdio` those of the client over stdio. Anything off is an
// error naming the file and the JSON path.
import type { CallerCredential, CallerLimits, RateLimits } from '@flatmcp/runtime/proxy'
import { readFileSync } from 'node:fs'
import { expandVariables, ProxySetupError } from '@flatmcp/runtime/proxy'

export interface Callers {
  callers: CallerCredential[]
  limits: Record<string, CallerLimits>
  /** Each tool's limits, all callers together (the file's top-level `tools`). */
  tools?: Record<string, RateLimits>
}

const NAME = /^[\w.@-]{1,64}$/
const KEYS = ['token', 'callsPerMinute', 'inFlight', 'tools']
/** A tool's limit's keys. */
const RATE_KEYS = ['callsPerMinute', 'inFlight'] as const
/** The file's own keys. */
const TOP = ['callers', 'tools']
/** The entries that name no credential of their own: the unnamed tokens', and the stdio client's. */
const UNNAMED = ['token', 'stdio']

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A limit: a positive whole number, or absent. */
function limitOf(entry: Record<string, unknown>, key: 'callsPerMinute' | 'inFlight', where: string): number | undefined {
  const value = entry[key]
  if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0))
    throw new Error(`${where}.${key}: must be a positive whole number (it was ${JSON.stringify(value)})`)
  return value as number | undefined
}

/** A caller's or a tool's limits: each a positive whole number, or absent. */
function ratesOf(entry: Record<string, unknown>, where: string): RateLimits {
  return Object.fromEntries(RATE_KEYS.map(key => [key, limitOf(entry, key, where)]).filter(([, value]) => value !== undefined)) as RateLimits
}

/** A `tools` object: each tool's name, as the caller calls it, and its limits. */
function toolsOf(value: unknown, where: string): Record<string, RateLimits> {
  if (!isObject(value))
    throw new Error(`${where}: must be an object ({"TOOL": {"callsPerMinute": n, "inFlight": n}})`)
  const tools: Record<string, RateLimits> = {}
  for (const [tool, entry] of Object.entries(value)) {
    const at = `${where}[${JSON.stringify(tool)}]`
    if (!isObject(entry))
      throw new Error(`${at}: must be an object ({"callsPerMinute": n, "inFlight": n})`)
    const stray = Object.keys(entry).find(key => !(RATE_KEYS as readonly string[]).includes(key))
    if (stray !== undefined)
      throw new Error(`${at}.${stray}: is not a tool limit's key ("callsPerMinute", "inFlight")`)
    const rates = ratesOf(entry, at)
    if (Object.keys(rates).length === 0)
      throw new Error(`${at}: sets no limit (give "callsPerMinute" or "inFlight")`)
    tools[tool] = rates
  }
  return tools
}

/** Whether `token` names a variable the environment does not set (a caller no one can be, over stdio). */
const namesUnset = (token: string): boolean => [...token.matchAll(/\$\{([A-Za-z_]\w*)\}/g)].some(([, name]) => process.env[name!] === undefined)

/** One entry: its credential (where it has a token; over stdio, where its variables are set) and its limits. */
function entryOf(name: string, entry: unknown, into: Callers, transport: 'http' | 'stdio'): void {
  const where = `.callers[${JSON.stringify(name)}]`
  if (!NAME.test(name))
    throw new Error(`${where}: a caller's name is 1 to 64 letters, digits, "_", ".", "@" or "-"`)
  if (!isObject(entry))
    throw new Error(`${where}: must be an object ({"token": "…", "callsPerMinute": n, "inFlight": n, "tools": {…}})`)
  const stray = Object.keys(entry).find(key => !KEYS.includes(key))
  if (stray !== undefined)
    throw new Error(`${where}.${stray}: is not a caller's key (${KEYS.map(key => `"${key}"`).join(', ')})`)
  if (entry.token === undefined && !UNNAMED.includes(name))
    throw new Error(`${where}.token: is missing (only the entries named "token", the unnamed tokens' limits, and "stdio", the stdio client's, have none)`)
  if (entry.token !== undefined && name === 'stdio')
    throw new Error(`${where}.token: the stdio client presents no token (this entry holds its limits only)`)
  if (entry.token !== undefined) {
    if (typeof entry.token !== 'string' || entry.token.trim() === '')
      throw new Error(`${where}.token: must be a non-empty string (\${NAME} reads a variable)`)
    // Over stdio the tokens are unused, and withheld from the servers only where they are set.
    if (transport === 'http' || !namesUnset(entry.token))
      into.callers.push({ name, token: expandVariables(entry.token, `${where}.token`) })
  }
  const limits: CallerLimits = { ...ratesOf(entry, where), ...(entry.tools === undefined ? {} : { tools: toolsOf(entry.tools, `${where}.tools`) }) }
  if (Object.keys(limits).length > 0)
    into.limits[name] = limits
}

/**
 * The callers file, read and checked; two callers with one token are refused (the log could not tell
 * them apart). Over stdio (`transport`) a token whose variable is not set is left out, not an error.
 */
export function readCallersFile(file: string, transport: 'http' | 'stdio' = 'http'): Callers {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown
    if (!isObject(parsed) || !isObject(parsed.callers) || Object.keys(parsed).some(key => !TOP.includes(key)))
      throw new Error('must be {"callers": {"NAME": {"token": "…", "callsPerMinute": n, "inFlight": n, "tools": {…}}}, "tools": {"TOOL": {"callsPerMinute": n, "inFlight": n}}}')
    const read: Callers = { callers: [], limits: {}, ...(parsed.tools === undefined ? {} : { tools: toolsOf(parsed.tools, '.tools') }) }
    for (const [name, entry] of Object.entries(parsed.callers))
      entryOf(name, entry, read, transport)
    const tokens = read.callers.map(caller => caller.token)
    const twice = read.callers.find((caller, at) => tokens.indexOf(caller.token) !== at)
    if (twice)
      throw new Error(`.callers[${JSON.stringify(twice.name)}].token: is another caller's token too`)
    return read
  }
  catch (error) {
    throw new ProxySetupError(`--callers ${file}: ${(error as Error).message}`)
  }
}
