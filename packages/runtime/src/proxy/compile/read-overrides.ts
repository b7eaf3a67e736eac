// An overrides file read and checked (`--overrides file.json`): anything off is an `OverridesError`
// naming its JSON path; and what it says of many servers' names (a prefix per server, the separator,
// replicas folded).
import type { Overrides } from './overrides'
import { isObject } from '../../util/object'
import { guessed, OverridesError } from './overrides'

const TOOL_KEYS = new Set(['hide', 'description', 'appendDescription', 'alwaysLoad', 'searchHint', 'params'])

/** A parsed overrides file, checked: anything off is an `OverridesError` naming its JSON path. */
export function readOverrides(value: unknown): Overrides {
  if (!isObject(value) || !(isObject(value.tools) || (value.tools === undefined && (value.servers !== undefined || value.separator !== undefined || value.views !== undefined))))
    throw new OverridesError('', 'needs "tools": an object of tool names, each with what to change ({"tools": {"create_issue": {"description": "…"}}})')
  const stray = Object.keys(value).find(key => !['tools', 'servers', 'separator', 'views'].includes(key))
  if (stray !== undefined)
    throw new OverridesError(`.${stray}`, `is not an overrides key${guessed(stray, ['tools', 'servers', 'separator', 'views'])} ("tools", "views"; with --config, "servers" and "separator")`)
  checkNaming(value)
  checkViews(value.views)
  for (const [name, tool] of Object.entries(value.tools ?? {}))
    checkTool(name, tool)
  return { ...value, tools: value.tools ?? {} } as unknown as Overrides
}

/** A view's name: what a header or a query names it by. */
const VIEW_NAME = /^[\w-]{1,64}$/

/** The views (`{"views": {"triage": {"tools": [...], "profile": "…", "surface": "search"}}}`), checked. */
function checkViews(views: unknown): void {
  if (views === undefined)
    return
  if (!isObject(views))
    throw new OverridesError('.views', 'must be an object of view names, each {"tools": [names], "profile": "…", "surface": "full" or "search"}')
  for (const [name, view] of Object.entries(views)) {
    const at = `.views[${JSON.stringify(name)}]`
    if (!VIEW_NAME.test(name))
      throw new OverridesError(at, 'a view\'s name is letters, digits, _ or - (64 at most): a header or a query names it')
    if (!isObject(view) || Object.keys(view).some(key => !['tools', 'profile', 'surface'].includes(key)))
      throw new OverridesError(at, 'must be {"tools": [names], "profile": "…", "surface": "full" or "search"} (each optional)')
    if (view.tools !== undefined && (!Array.isArray(view.tools) || view.tools.some(tool => typeof tool !== 'string')))
      throw new OverridesError(`${at}.tools`, 'must be a list of tool names, as served')
    if (view.profile !== undefined && typeof view.profile !== 'string')
      throw new OverridesError(`${at}.profile`, 'must be a profile\'s name')
    if (view.surface !== undefined && view.surface !== 'full' && view.surface !== 'search')
      throw new OverridesError(`${at}.surface`, 'must be "full" or "search"')
  }
}

/** One tool's overrides, checked. */
function checkTool(name: string, tool: unknown): void {
  const at = `.tools[${JSON.stringify(name)}]`
  if (!isObject(tool))
    throw new OverridesError(at, 'must be an object: hide, description, appendDescription, alwaysLoad, searchHint, params')
  const unknown = Object.keys(tool).find(key => !TOOL_KEYS.has(key))
  if (unknown !== undefined)
    throw new OverridesError(`${at}.${unknown}`, `is not a tool override${guessed(unknown, [...TOOL_KEYS])} (hide, description, appendDescription, alwaysLoad, searchHint, params)`)
  if (tool.hide !== undefined && tool.hide !== true)
    throw new OverridesError(`${at}.hide`, 'must be true (leave it out to keep the tool)')
  for (const key of ['description', 'appendDescription'] as const) {
    if (tool[key] !== undefined && typeof tool[key] !== 'string')
      throw new OverridesError(`${at}.${key}`, 'must be a string')
  }
  if (tool.alwaysLoad !== undefined && typeof tool.alwaysLoad !== 'boolean')
    throw new OverridesError(`${at}.alwaysLoad`, 'must be true or false')
  if (tool.searchHint !== undefined && (typeof tool.searchHint !== 'string' || tool.searchHint.trim() === ''))
    throw new OverridesError(`${at}.searchHint`, 'must be words, as a string')
  if (tool.params !== undefined && !isObject(tool.params))
    throw new OverridesError(`${at}.params`, `must be an object of parameter names, each ${PARAMETER_FORMS}`)
  for (const [key, param] of Object.entries(tool.params ?? {})) {
    const where = `${at}.params[${JSON.stringify(key)}]`
    const ok = isObject(param) && Object.keys(param).length === 1 && (param.hide === true || param.optional === true || 'fix' in param || 'default' in param)
    if (!ok)
      throw new OverridesError(where, `must be ${PARAMETER_FORMS}`)
  }
}

/** What a parameter's override may be, as its errors say. */
const PARAMETER_FORMS = '{"hide": true}, {"fix": value}, {"default": value} or {"optional": true}'

/** A name part that fits a tool name: letters, digits, `_` and `-`. */
const NAME_PART = /^[\w-]*$/

/** The naming of many servers' tools (`servers`, `separator`), checked. */
function checkNaming(value: Record<string, unknown>): void {
  if (value.separator !== undefined && (typeof value.separator !== 'string' || value.separator === '' || !NAME_PART.test(value.separator)))
    throw new OverridesError('.separator', 'must be letters, digits, _ or - (a tool name keeps no other character): "__", "_", "-"')
  if (value.servers === undefined)
    return
  if (!isObject(value.servers))
    throw new OverridesError('.servers', 'must be an object of server names (as the config names them), each {"prefix": "…"}')
  for (const [name, server] of Object.entries(value.servers)) {
    const at = `.servers[${JSON.stringify(name)}]`
    if (!isObject(server) || Object.keys(server).some(key => key !== 'prefix' && key !== 'replicas'))
      throw new OverridesError(at, 'must be {"prefix": "…"} (the prefix its tools are served by; "" for none) or {"replicas": ["entry", …]}')
    if (server.prefix !== undefined && (typeof server.prefix !== 'string' || !NAME_PART.test(server.prefix)))
      throw new OverridesError(`${at}.prefix`, 'must be letters, digits, _ or - ("" serves the tools by their own names)')
    const replicas = server.replicas
    if (replicas !== undefined && (!Array.isArray(replicas) || replicas.length < 2 || replicas.some(entry => typeof entry !== 'string') || new Set(replicas).size !== replicas.length))
      throw new OverridesError(`${at}.replicas`, 'must name two or more entries of the config, each once')
  }
}

/** The entries served as one server with a `target` parameter, by that server's name. */
export function replicasOf(overrides: Overrides | undefined): Record<string, string[]> {
  return Object.fromEntries(Object.entries(overrides?.servers ?? {}).filter(([, server]) => server.replicas !== undefined).map(([name, server]) => [name, server.replicas!]))
}

/** How many servers' tools are named, as the overrides say: the separator, and each server's prefix given. */
export function namingOf(overrides: Overrides | undefined): { separator?: string, prefixes?: Record<string, string> } {
  const prefixes = Object.fromEntries(Object.entries(overrides?.servers ?? {}).filter(([, server]) => server.prefix !== undefined).map(([name, server]) => [name, server.prefix!]))
  return { ...(overrides?.separator === undefined ? {} : { separator: overrides.separator }), ...(Object.keys(prefixes).length > 0 ? { prefixes } : {}) }
}
