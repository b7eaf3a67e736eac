// `--callers FILE`: the named callers of a proxy served over HTTP, each with its token, its limits and
// the tools it is served (its `allow` and `deny` patterns, its pinned `view`; `default` for the rest),
// and the tools' limits: all callers' together at the top, a caller's own inside its entry.
//   {"default": "deny", "callers": {"ci": {"token": "${CI_TOKEN}", "callsPerMinute": 120, "allow": ["github__*"],
//                                          "tools": {"github__create_issue": {"callsPerMinute": 5}}}},
//    "tools": {"github__create_issue": {"callsPerMinute": 10}}}
// A name is what the audit log and the limits say, never the token. An entry named `token` with no
// token of its own sets the limits of the unnamed tokens (`--auth-token`, `--auth-token-file`,
// FLATMCP_PROXY_TOKEN), and one named `stdio` those of the client over stdio. Anything off is an
// error naming the file and the JSON path.
import type { CallerCredential, CallerLimits, CallerRule, CallerRules, RateLimits } from '@flatmcp/runtime/proxy'
import { readFileSync } from 'node:fs'
import { checkRules, expandVariables, ProxySetupError } from '@flatmcp/runtime/proxy'
import { isObject } from '../util'
import { parseJson } from './parse-json'

export interface Callers {
  callers: CallerCredential[]
  limits: Record<string, CallerLimits>
  /** Each tool's limits, all callers together (the file's top-level `tools`). */
  tools?: Record<string, RateLimits>
  /** Which caller is served which tools: each entry's `allow`, `deny` and `view`, and the file's `default`. */
  rules: CallerRules & { callers: Record<string, CallerRule> }
}

const NAME = /^[\w.@-]{1,64}$/
const KEYS = ['token', 'callsPerMinute', 'inFlight', 'tools', 'allow', 'deny', 'view']
/** A tool's limit's keys. */
const RATE_KEYS = ['callsPerMinute', 'inFlight'] as const
/** The file's own keys. */
const TOP = ['callers', 'tools', 'default']
/** The entries that name no credential of their own: the unnamed tokens', and the stdio client's. */
const UNNAMED = ['token', 'stdio']

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

/** A list of tool names or patterns (`*` any run of characters), or absent. */
function patternsOf(entry: Record<string, unknown>, key: 'allow' | 'deny', where: string): string[] | undefined {
  const value = entry[key]
  if (value === undefined)
    return undefined
  if (!Array.isArray(value))
    throw new Error(`${where}.${key}: must be a list of tool names (as served; "*" matches any run of characters)`)
  const bad = value.findIndex(pattern => typeof pattern !== 'string' || pattern === '')
  if (bad >= 0)
    throw new Error(`${where}.${key}[${bad}]: must be a non-empty tool name or pattern (it was ${JSON.stringify(value[bad])})`)
  return value as string[]
}

/** An entry's row of the rules: its patterns and its pinned view, where it has any. */
function ruleOf(entry: Record<string, unknown>, where: string): CallerRule | undefined {
  const allow = patternsOf(entry, 'allow', where)
  const deny = patternsOf(entry, 'deny', where)
  if (entry.view !== undefined && (typeof entry.view !== 'string' || entry.view === ''))
    throw new Error(`${where}.view: must name a view of the overrides file (it was ${JSON.stringify(entry.view)})`)
  const view = entry.view as string | undefined
  const rule = { ...(allow ? { allow } : {}), ...(deny ? { deny } : {}), ...(view === undefined ? {} : { view }) }
  return Object.keys(rule).length > 0 ? rule : undefined
}

/** Whether `token` names a variable the environment does not set (a caller no one can be, over stdio). */
const namesUnset = (token: string): boolean => [...token.matchAll(/\$\{([A-Za-z_]\w*)\}/g)].some(([, name]) => process.env[name!] === undefined)

/** One entry: its credential (where it has a token; over stdio, where its variables are set) and its limits. */
function entryOf(name: string, entry: unknown, into: Callers, transport: 'http' | 'stdio'): void {
  const where = `.callers[${JSON.stringify(name)}]`
  if (!NAME.test(name))
    throw new Error(`${where}: a caller's name is 1 to 64 letters, digits, "_", ".", "@" or "-"`)
  if (!isObject(entry))
    throw new Error(`${where}: must be an object ({"token": "…", "callsPerMinute": n, "inFlight": n, "tools": {…}, "allow": ["…"]})`)
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
  const rule = ruleOf(entry, where)
  if (rule)
    into.rules.callers[name] = rule
}

/** The file's top level: its callers, and what a caller with no `allow` of its own is served. */
function checkTop(parsed: unknown): asserts parsed is { callers: Record<string, unknown>, tools?: unknown, default?: 'allow' | 'deny' } {
  if (!isObject(parsed) || !isObject(parsed.callers) || Object.keys(parsed).some(key => !TOP.includes(key)))
    throw new Error('must be {"callers": {"NAME": {"token": "…", "callsPerMinute": n, "inFlight": n, "tools": {…}, "allow": ["…"], "deny": ["…"], "view": "…"}}, "tools": {"TOOL": {"callsPerMinute": n, "inFlight": n}}, "default": "allow" | "deny"}')
  if (parsed.default !== undefined && parsed.default !== 'allow' && parsed.default !== 'deny')
    throw new Error(`.default: must be "allow" (a caller with no "allow" of its own is served every tool) or "deny" (none) (it was ${JSON.stringify(parsed.default)})`)
}

/**
 * The callers file, read and checked; two callers with one token are refused (the log could not tell
 * them apart). Over stdio (`transport`) a token whose variable is not set is left out, not an error.
 */
export function readCallersFile(file: string, transport: 'http' | 'stdio' = 'http'): Callers {
  try {
    const parsed = parseJson(readFileSync(file, 'utf8'))
    checkTop(parsed)
    const read: Callers = { callers: [], limits: {}, ...(parsed.tools === undefined ? {} : { tools: toolsOf(parsed.tools, '.tools') }), rules: { ...(parsed.default ? { default: parsed.default } : {}), callers: {} } }
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

/**
 * The rules of `file` against the tools served (by name) and the overrides' views, once the list is
 * known: each problem a line naming the file and its JSON path, `errors` (an exact name no tool has,
 * a view that does not exist) apart from `warnings` (a pattern no tool matches now).
 */
export function rulesProblems(file: string, rules: CallerRules, served: readonly string[], views: readonly string[]): { errors: string[], warnings: string[] } {
  const problems = checkRules(rules, served, views)
  const line = (problem: { path: string, message: string }): string => `--callers ${file}: ${problem.path}: ${problem.message}`
  return { errors: problems.filter(problem => problem.fatal).map(line), warnings: problems.filter(problem => !problem.fatal).map(line) }
}
