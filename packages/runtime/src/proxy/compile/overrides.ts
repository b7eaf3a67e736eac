// An operator's overrides of tools they did not write (`flatmcp proxy --overrides file.json`): hide a
// tool, hide a parameter or fix its value (left out of every profile's schema and set on every call),
// replace a description, and mark the hints Claude Code reads (`anthropic/alwaysLoad`,
// `anthropic/searchHint`). Applied to the upstream's list as it is read, before anything is compiled,
// so every profile, the search surface and a snapshot see the same tools; each said once on stderr.
import type { UpstreamTool } from '../../artifact/format'
import type { Validator } from './chooser'
import { definedOf, defineOwn, isObject } from '../../util/object'
import { shown } from '../../util/log'

/** What an operator changes of one parameter (a key of the tool's input object). */
export type ParameterOverride = { hide: true } | { fix: unknown }

/** What an operator changes of one tool. */
export interface ToolOverride {
  /** Not listed, not callable (a call by its name is an unknown tool's). */
  hide?: true
  /** The description clients list instead of the upstream's. */
  description?: string
  /** `_meta["anthropic/alwaysLoad"]`: Claude Code keeps it out of its tool search (and `--surface search` lists it). */
  alwaysLoad?: boolean
  /** `_meta["anthropic/searchHint"]`: words Claude Code's tool search reads beside the name and description. */
  searchHint?: string
  /** Parameters hidden, or fixed to a value every call sends. */
  params?: Record<string, ParameterOverride>
}

/** The overrides file: `{ "tools": { "<name>": ToolOverride } }`, and with many servers how their tools are named. */
export interface Overrides {
  tools: Record<string, ToolOverride>
  /**
   * With many servers (`--config`): a server's prefix, by its entry name (`""`: its tools served by
   * their own names); or, by a name of its own, the entries served as one server (`replicas`), each
   * tool taking a `target` that names the entry.
   */
  servers?: Record<string, { prefix?: string, replicas?: string[] }>
  /** With many servers: what stands between a server's prefix and its tool's name. Default: `__`. */
  separator?: string
}

/** A fixed parameter as a snapshot records it: its value and the upstream's schema of the key, which the probe checks it against. */
export interface FixedParameter { value: unknown, schema: unknown }

/** An overrides file that is not what it should be: says the JSON path. */
export class OverridesError extends TypeError {
  constructor(path: string, message: string) {
    super(`overrides${path}: ${message}`)
    this.name = 'OverridesError'
  }
}

const TOOL_KEYS = new Set(['hide', 'description', 'alwaysLoad', 'searchHint', 'params'])

/** A parsed overrides file, checked: anything off is an `OverridesError` naming its JSON path. */
export function readOverrides(value: unknown): Overrides {
  if (!isObject(value) || !(isObject(value.tools) || (value.tools === undefined && (value.servers !== undefined || value.separator !== undefined))))
    throw new OverridesError('', 'needs "tools": an object of tool names, each with what to change ({"tools": {"create_issue": {"description": "…"}}})')
  const stray = Object.keys(value).find(key => key !== 'tools' && key !== 'servers' && key !== 'separator')
  if (stray !== undefined)
    throw new OverridesError(`.${stray}`, 'is not an overrides key ("tools"; with --config, "servers" and "separator")')
  checkNaming(value)
  for (const [name, tool] of Object.entries(value.tools ?? {})) {
    const at = `.tools[${JSON.stringify(name)}]`
    if (!isObject(tool))
      throw new OverridesError(at, 'must be an object: hide, description, alwaysLoad, searchHint, params')
    const unknown = Object.keys(tool).find(key => !TOOL_KEYS.has(key))
    if (unknown !== undefined)
      throw new OverridesError(`${at}.${unknown}`, 'is not a tool override (hide, description, alwaysLoad, searchHint, params)')
    if (tool.hide !== undefined && tool.hide !== true)
      throw new OverridesError(`${at}.hide`, 'must be true (leave it out to keep the tool)')
    if (tool.description !== undefined && typeof tool.description !== 'string')
      throw new OverridesError(`${at}.description`, 'must be a string')
    if (tool.alwaysLoad !== undefined && typeof tool.alwaysLoad !== 'boolean')
      throw new OverridesError(`${at}.alwaysLoad`, 'must be true or false')
    if (tool.searchHint !== undefined && (typeof tool.searchHint !== 'string' || tool.searchHint.trim() === ''))
      throw new OverridesError(`${at}.searchHint`, 'must be words, as a string')
    if (tool.params !== undefined && !isObject(tool.params))
      throw new OverridesError(`${at}.params`, 'must be an object of parameter names, each {"hide": true} or {"fix": value}')
    for (const [key, param] of Object.entries(tool.params ?? {})) {
      const where = `${at}.params[${JSON.stringify(key)}]`
      const ok = isObject(param) && Object.keys(param).length === 1 && (param.hide === true || 'fix' in param)
      if (!ok)
        throw new OverridesError(where, 'must be {"hide": true} or {"fix": value}')
    }
  }
  return { ...value, tools: value.tools ?? {} } as unknown as Overrides
}

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

/** One line per override, for stderr at start-up. */
export function describeOverrides(overrides: Overrides): string[] {
  return Object.entries(overrides.tools).map(([name, tool]) => {
    if (tool.hide)
      return `flatmcp proxy: tool ${shown(name)} hidden (overrides)`
    const said = [
      tool.description !== undefined ? 'description replaced' : '',
      ...Object.entries(tool.params ?? {}).map(([key, param]) => 'fix' in param ? `${shown(key)} fixed to ${JSON.stringify(param.fix)}` : `${shown(key)} hidden`),
      tool.alwaysLoad !== undefined ? `alwaysLoad ${tool.alwaysLoad}` : '',
      tool.searchHint !== undefined ? `searchHint ${JSON.stringify(tool.searchHint)}` : '',
    ].filter(Boolean)
    return `flatmcp proxy: tool ${shown(name)}: ${said.join(', ')} (overrides)`
  })
}

/**
 * The upstream's list with the overrides applied: hidden tools left out; a hidden or fixed parameter
 * taken out of the input's `properties` and `required`; a description replaced; the hints in `_meta`.
 * Returns the tools and, per tool, its fixed parameters with the upstream's schema of each. A
 * parameter the input does not declare at its root, or a required one hidden without a value, is an
 * `OverridesError`; a tool the list does not hold is said on `log`.
 */
export function applyOverrides(listed: readonly unknown[], overrides: Overrides | undefined, log: (line: string) => void): { tools: unknown[], fixed: Map<string, Record<string, FixedParameter>> } {
  const fixed = new Map<string, Record<string, FixedParameter>>()
  if (!overrides)
    return { tools: [...listed], fixed }
  const names = new Set(listed.map(tool => (tool as { name?: unknown } | null)?.name))
  for (const name of Object.keys(overrides.tools).filter(name => !names.has(name)))
    log(`flatmcp proxy: the overrides name tool ${shown(name)}, which the upstream does not list; nothing to change there`)
  const tools: unknown[] = []
  for (const tool of listed) {
    const name = (tool as { name?: unknown } | null)?.name
    const override = typeof name === 'string' && Object.hasOwn(overrides.tools, name) ? overrides.tools[name]! : undefined
    if (!override || !isObject(tool)) {
      tools.push(tool)
      continue
    }
    if (override.hide)
      continue
    const at = `.tools[${JSON.stringify(name)}]`
    const upstream = tool as UpstreamTool
    const input = isObject(upstream.inputSchema) ? upstream.inputSchema : { type: 'object' as const }
    const properties = isObject(input.properties) ? { ...input.properties } : {}
    let required = Array.isArray(input.required) ? [...input.required] : []
    const fixedHere: Record<string, FixedParameter> = {}
    for (const [key, param] of Object.entries(override.params ?? {})) {
      if (!Object.hasOwn(properties, key))
        throw new OverridesError(`${at}.params[${JSON.stringify(key)}]`, `tool ${shown(name)} has no parameter ${shown(key)} at the root of its input (it has ${Object.keys(properties).map(shown).join(', ') || 'none'})`)
      if ('fix' in param)
        defineOwn(fixedHere, key, { value: param.fix, schema: withRootDefinitions(properties[key], input) })
      else if (required.includes(key))
        throw new OverridesError(`${at}.params[${JSON.stringify(key)}]`, `${shown(key)} is required by tool ${shown(name)}: fix its value instead ({"fix": value}) of hiding it`)
      delete properties[key]
      required = required.filter(item => item !== key)
    }
    if (Object.keys(fixedHere).length > 0)
      fixed.set(name as string, fixedHere)
    const meta = {
      ...(isObject(upstream._meta) ? upstream._meta : {}),
      ...(override.alwaysLoad === undefined ? {} : { 'anthropic/alwaysLoad': override.alwaysLoad }),
      ...(override.searchHint === undefined ? {} : { 'anthropic/searchHint': override.searchHint.trim() }),
    }
    const { required: _required, ...rest } = input
    const changedInput = override.params === undefined ? upstream.inputSchema : { ...rest, properties, ...(required.length > 0 ? { required } : {}) }
    tools.push({
      ...upstream,
      ...(override.description === undefined ? {} : { description: override.description }),
      inputSchema: changedInput,
      ...(Object.keys(meta).length === 0 ? {} : { _meta: meta }),
    })
  }
  return { tools, fixed }
}

/**
 * A key's schema that can be checked alone: one that refers into the root's `$defs` (or
 * `definitions`, as pydantic writes an enum) carries them, its own schema under `allOf`, so a `$ref`
 * resolves in every draft.
 */
function withRootDefinitions(schema: unknown, root: Record<string, unknown>): unknown {
  const definitions = definedOf(root, ['$defs', 'definitions'])
  if (Object.keys(definitions).length === 0 || !JSON.stringify(schema ?? null).includes('"$ref"'))
    return schema
  return { ...definitions, allOf: [schema] }
}

/**
 * A call's arguments as the overrides send them upstream: the tool's hidden parameters left out
 * (a client that sends one anyway does not get it through) and its fixed ones set, over whatever the
 * client sent for them.
 */
export function overriddenArguments(args: unknown, fixed: Record<string, FixedParameter> | undefined, hidden: readonly string[] = []): unknown {
  if (!fixed && hidden.length === 0)
    return args
  const base: Record<string, unknown> = isObject(args) ? { ...args } : {}
  for (const key of hidden)
    delete base[key]
  for (const [key, { value }] of Object.entries(fixed ?? {}))
    defineOwn(base, key, structuredClone(value))
  return base
}

/** Each tool's hidden parameters, as the overrides name them. */
export function hiddenParameters(overrides: Overrides | undefined): Map<string, string[]> {
  const hidden = new Map<string, string[]>()
  for (const [name, tool] of Object.entries(overrides?.tools ?? {})) {
    const keys = Object.entries(tool.params ?? {}).filter(([, param]) => 'hide' in param).map(([key]) => key)
    if (keys.length > 0)
      hidden.set(name, keys)
  }
  return hidden
}

/** The fixed values the upstream's schema of their key does not take (by `validator`): each a call would fail with. */
export function rejectedFixed(fixed: Iterable<[string, Record<string, FixedParameter>]>, validator: Validator): { tool: string, key: string, message: string }[] {
  const rejected: { tool: string, key: string, message: string }[] = []
  for (const [tool, keys] of fixed) {
    for (const [key, { value, schema }] of Object.entries(keys)) {
      const accepts = isObject(schema) ? validator(schema) : () => schema !== false
      if (!accepts(value))
        rejected.push({ tool, key, message: `${JSON.stringify(value)} is not a value the upstream's schema of ${shown(key)} takes (${JSON.stringify(schema)})` })
    }
  }
  return rejected
}

/** Every fixed value, checked against the upstream's schema of its key (where a validator is at hand): the first one it rejects is an `OverridesError`. */
export function checkFixed(fixed: ReadonlyMap<string, Record<string, FixedParameter>>, validator: Validator | undefined): void {
  const [first] = validator ? rejectedFixed(fixed, validator) : []
  if (first)
    throw new OverridesError(`.tools[${JSON.stringify(first.tool)}].params[${JSON.stringify(first.key)}].fix`, first.message)
}
