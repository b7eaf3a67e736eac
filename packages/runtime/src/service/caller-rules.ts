// Which caller is served which tools: one row per caller (its `allow` and `deny` patterns over the
// served tool names, and the view it is pinned to) and a `default` for callers with no `allow`. A
// tool is served to a caller when an `allow` pattern matches it (with none, when the default is
// `allow` or the caller is pinned to a view), no `deny` pattern does (deny wins, as a Cedar `forbid`
// does), and its pinned view holds it. A tool a caller is not served is no tool to it: not listed, not found or described by the
// search surface, and a call by its name is answered as a name no tool has.
import type { ProfileRequest } from './profile-choice'
import { isObject } from '../util/object'

/** One caller's row: the tools it is served (`*` matches any run of characters) and the view it is held to. */
export interface CallerRule {
  allow?: readonly string[]
  deny?: readonly string[]
  view?: string
}

export interface CallerRules {
  /** What a caller with no `allow` of its own (or no row) is served: every tool (`allow`, the default) or none (`deny`). */
  default?: 'allow' | 'deny'
  /** Each caller's row, by its name (`authInfo.clientId`; `stdio` for the client of a stdio connection). */
  callers: Readonly<Record<string, CallerRule>>
}

/** The caller of a request that is no HTTP request: the client of the stdio connection. */
export const STDIO_CALLER = 'stdio'

/** Whether `name` matches `pattern`: `*` any run of characters, everything else itself. */
export function matchesPattern(pattern: string, name: string): boolean {
  const parts = pattern.split('*')
  if (parts.length === 1)
    return pattern === name
  if (!name.startsWith(parts[0]!) || !name.endsWith(parts.at(-1)!) || name.length < parts[0]!.length + parts.at(-1)!.length)
    return false
  let at = parts[0]!.length
  const end = name.length - parts.at(-1)!.length
  for (const part of parts.slice(1, -1)) {
    const found = name.indexOf(part, at)
    if (found < 0 || found + part.length > end)
      return false
    at = found + part.length
  }
  return true
}

const anyMatches = (patterns: readonly string[] | undefined, name: string): boolean => patterns?.some(pattern => matchesPattern(pattern, name)) ?? false

/** What the rules hold a caller to: which tools it is served, and its pinned view; none where it is served every tool. */
export function ruleFor(rules: CallerRules, caller: string | undefined): { admits: (name: string) => boolean, view?: string } | undefined {
  const row = caller !== undefined && Object.hasOwn(rules.callers, caller) ? rules.callers[caller]! : {}
  // A pinned view with no `allow` is what the caller is served, whatever the default.
  const open = row.allow === undefined && (rules.default !== 'deny' || row.view !== undefined)
  if (open && (row.deny?.length ?? 0) === 0 && row.view === undefined)
    return undefined
  const admits = (name: string): boolean => (row.allow === undefined ? open : anyMatches(row.allow, name)) && !anyMatches(row.deny, name)
  return { admits, ...(row.view === undefined ? {} : { view: row.view }) }
}

/** The caller a request comes from: the name its credential gave (`authInfo.clientId`), else over stdio `stdio`. */
export function callerOf(request: Pick<ProfileRequest, 'authInfo' | 'url' | 'headers'>): string | undefined {
  const id = isObject(request.authInfo) ? request.authInfo.clientId : undefined
  if (typeof id === 'string' && id !== '')
    return id
  return request.url === undefined && request.headers === undefined ? STDIO_CALLER : undefined
}

/** One thing wrong with the rules, at its JSON path in the callers file. */
export interface RuleProblem {
  path: string
  message: string
}

/**
 * What is off in the rules against the tools served (`served`, by name) and the views the overrides
 * name: a name without `*` that no tool has, a pattern no tool matches, a view that does not exist.
 * `fatal` problems name what cannot be meant (an exact name, a view); a pattern that matches nothing
 * now may be written for tools to come.
 */
export function checkRules(rules: CallerRules, served: readonly string[], views: readonly string[]): (RuleProblem & { fatal: boolean })[] {
  const problems: (RuleProblem & { fatal: boolean })[] = []
  for (const [caller, row] of Object.entries(rules.callers)) {
    const at = `.callers[${JSON.stringify(caller)}]`
    for (const key of ['allow', 'deny'] as const) {
      for (const [index, pattern] of (row[key] ?? []).entries()) {
        if (served.some(name => matchesPattern(pattern, name)))
          continue
        const exact = !pattern.includes('*')
        problems.push({ path: `${at}.${key}[${index}]`, message: exact ? `no tool served is named ${JSON.stringify(pattern)}` : `${JSON.stringify(pattern)} matches no tool served now`, fatal: exact })
      }
    }
    if (row.view !== undefined && !views.includes(row.view))
      problems.push({ path: `${at}.view`, message: `the overrides name no view ${JSON.stringify(row.view)}${views.length > 0 ? ` (their views: ${views.join(', ')})` : ' (they name none)'}`, fatal: true })
  }
  return problems
}
