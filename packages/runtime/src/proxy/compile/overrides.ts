// An operator's overrides of tools they did not write (`flatmcp proxy --overrides file.json`): hide a
// tool, hide a parameter or fix its value (left out of every profile's schema and set on every call),
// give a parameter a default (optional in every profile, filled in where a call leaves it out),
// replace a description or append to it, and mark the hints Claude Code reads (`anthropic/alwaysLoad`,
// `anthropic/searchHint`). Applied to the upstream's list as it is read, before anything is compiled,
// so every profile, the search surface and a snapshot see the same tools; each said once on stderr.
import type { UpstreamTool } from '../../artifact/format'
import type { ToolView } from '../../service/options'
import type { Validator } from './chooser'
import { definedOf, defineOwn, isObject } from '../../util/object'
import { closestName } from '../../util/closest-name'
import { shown } from '../../util/log'

/**
 * What an operator changes of one parameter (a key of the tool's input object): hidden, fixed to a
 * value, given a default (listed optional, filled in where a call leaves it out), or made optional
 * where the upstream's schema of it has a default already.
 */
export type ParameterOverride = { hide: true } | { fix: unknown } | { default: unknown } | { optional: true }

/** What an operator changes of one tool. */
export interface ToolOverride {
  /** Not listed, not callable (a call by its name is an unknown tool's). */
  hide?: true
  /** The description clients list instead of the upstream's. */
  description?: string
  /** Words added after the description (the upstream's, or the one given), a blank line between. */
  appendDescription?: string
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
  /** Named subsets of the tools, each in a profile and behind a surface, for callers that name one (`X-MCP-View`, `?view=`). */
  views?: Record<string, ToolView>
}

/**
 * A fixed parameter as a snapshot records it: its value and the upstream's schema of the key, which
 * the probe checks it against; `default`: set only where a call leaves the key out.
 */
export interface FixedParameter { value: unknown, schema: unknown, default?: true }

/** An overrides file that is not what it should be: says the JSON path. */
export class OverridesError extends TypeError {
  constructor(path: string, message: string) {
    super(`overrides${path}: ${message}`)
    this.name = 'OverridesError'
  }
}

/** ` (did you mean "path"?)` where one of `known` is close to `typed`, else nothing. */
export function guessed(typed: string, known: readonly string[]): string {
  const meant = closestName(typed, known)
  return meant === undefined ? '' : ` (did you mean ${shown(meant)}?)`
}

/** What one parameter's override does, in a few words. */
function parameterSaid(key: string, param: ParameterOverride): string {
  if ('fix' in param)
    return `${shown(key)} fixed to ${JSON.stringify(param.fix)}`
  if ('default' in param)
    return `${shown(key)} defaults to ${JSON.stringify(param.default)}`
  return 'optional' in param ? `${shown(key)} optional (its default)` : `${shown(key)} hidden`
}

/** One line per override, for stderr at start-up. */
export function describeOverrides(overrides: Overrides, unmatched: readonly string[] = []): string[] {
  return Object.entries(overrides.tools).filter(([name]) => !unmatched.includes(name)).map(([name, tool]) => {
    if (tool.hide)
      return `flatmcp proxy: tool ${shown(name)} hidden (overrides)`
    const said = [
      tool.description !== undefined ? 'description replaced' : '',
      tool.appendDescription !== undefined ? 'description appended to' : '',
      ...Object.entries(tool.params ?? {}).map(([key, param]) => parameterSaid(key, param)),
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
 * `OverridesError`; a tool the list does not hold is said on `log` and returned in `unmatched`.
 */
export function applyOverrides(listed: readonly unknown[], overrides: Overrides | undefined, log: (line: string) => void): { tools: unknown[], fixed: Map<string, Record<string, FixedParameter>>, unmatched: string[] } {
  const fixed = new Map<string, Record<string, FixedParameter>>()
  if (!overrides)
    return { tools: [...listed], fixed, unmatched: [] }
  const names = new Set(listed.map(tool => (tool as { name?: unknown } | null)?.name))
  const listedNames = [...names].filter((name): name is string => typeof name === 'string')
  const unmatched = Object.keys(overrides.tools).filter(name => !names.has(name))
  for (const name of unmatched)
    log(`flatmcp proxy: the overrides name tool ${shown(name)}${guessed(name, listedNames)}, which the upstream does not list; nothing to change there`)
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
    const upstream = tool as UpstreamTool
    const input = isObject(upstream.inputSchema) ? upstream.inputSchema : { type: 'object' as const }
    const { properties, required, fixed: fixedHere } = overriddenParameters(name as string, input, override.params ?? {})
    if (Object.keys(fixedHere).length > 0)
      fixed.set(name as string, fixedHere)
    const meta = {
      ...(isObject(upstream._meta) ? upstream._meta : {}),
      ...(override.alwaysLoad === undefined ? {} : { 'anthropic/alwaysLoad': override.alwaysLoad }),
      ...(override.searchHint === undefined ? {} : { 'anthropic/searchHint': override.searchHint.trim() }),
    }
    const { required: _required, ...rest } = input
    const changedInput = override.params === undefined ? upstream.inputSchema : { ...rest, properties, ...(required.length > 0 ? { required } : {}) }
    const description = [override.description ?? upstream.description, override.appendDescription].filter(text => typeof text === 'string' && text !== '').join('\n\n')
    tools.push({
      ...upstream,
      ...(override.description === undefined && override.appendDescription === undefined ? {} : { description }),
      inputSchema: changedInput,
      ...(Object.keys(meta).length === 0 ? {} : { _meta: meta }),
    })
  }
  return { tools, fixed, unmatched }
}

/**
 * A tool's input with its parameters' overrides: a hidden or fixed one out of `properties` and
 * `required`; one given a default (or made optional with the upstream's own) listed with it and out
 * of `required`. The fixed values and defaults come back with the upstream's schema of each key.
 */
function overriddenParameters(name: string, input: Record<string, unknown>, params: Record<string, ParameterOverride>): { properties: Record<string, unknown>, required: unknown[], fixed: Record<string, FixedParameter> } {
  const properties: Record<string, unknown> = isObject(input.properties) ? { ...input.properties } : {}
  let required: unknown[] = Array.isArray(input.required) ? [...input.required] : []
  const fixed: Record<string, FixedParameter> = {}
  for (const [key, param] of Object.entries(params)) {
    const where = `.tools[${JSON.stringify(name)}].params[${JSON.stringify(key)}]`
    if (!Object.hasOwn(properties, key))
      throw new OverridesError(where, `tool ${shown(name)} has no parameter ${shown(key)}${guessed(key, Object.keys(properties))} at the root of its input (it has ${Object.keys(properties).map(shown).join(', ') || 'none'})`)
    const schema = withRootDefinitions(properties[key], input)
    const own = isObject(properties[key]) ? properties[key] : {}
    if ('hide' in param && required.includes(key))
      throw new OverridesError(where, `${shown(key)} is required by tool ${shown(name)}: fix its value instead ({"fix": value}) of hiding it`)
    if ('optional' in param && !Object.hasOwn(own, 'default'))
      throw new OverridesError(where, `the upstream's schema of ${shown(key)} has no default to fall back on: give one ({"default": value})`)
    if ('fix' in param)
      defineOwn(fixed, key, { value: param.fix, schema })
    if ('default' in param || 'optional' in param) {
      const value = 'default' in param ? param.default : own.default
      defineOwn(fixed, key, { value, schema, default: true })
      properties[key] = { ...own, default: value }
    }
    else {
      delete properties[key]
    }
    required = required.filter(item => item !== key)
  }
  return { properties, required, fixed }
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
 * (a client that sends one anyway does not get it through), its fixed ones set over whatever the
 * client sent for them, and its defaults set where the client sent none.
 */
export function overriddenArguments(args: unknown, fixed: Record<string, FixedParameter> | undefined, hidden: readonly string[] = []): unknown {
  if (!fixed && hidden.length === 0)
    return args
  const base: Record<string, unknown> = isObject(args) ? { ...args } : {}
  for (const key of hidden)
    delete base[key]
  for (const [key, { value, default: onlyWhereLeftOut }] of Object.entries(fixed ?? {})) {
    if (!onlyWhereLeftOut || !Object.hasOwn(base, key))
      defineOwn(base, key, structuredClone(value))
  }
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
export function rejectedFixed(fixed: Iterable<[string, Record<string, FixedParameter>]>, validator: Validator): { tool: string, key: string, message: string, default?: true }[] {
  const rejected: { tool: string, key: string, message: string, default?: true }[] = []
  for (const [tool, keys] of fixed) {
    for (const [key, { value, schema, default: isDefault }] of Object.entries(keys)) {
      const accepts = isObject(schema) ? validator(schema) : () => schema !== false
      if (!accepts(value))
        rejected.push({ tool, key, message: `${JSON.stringify(value)} is not a value the upstream's schema of ${shown(key)} takes (${JSON.stringify(schema)})`, ...(isDefault ? { default: true as const } : {}) })
    }
  }
  return rejected
}

/** Every fixed value, checked against the upstream's schema of its key (where a validator is at hand): the first one it rejects is an `OverridesError`. */
export function checkFixed(fixed: ReadonlyMap<string, Record<string, FixedParameter>>, validator: Validator | undefined): void {
  const [first] = validator ? rejectedFixed(fixed, validator) : []
  if (first)
    throw new OverridesError(`.tools[${JSON.stringify(first.tool)}].params[${JSON.stringify(first.key)}].${first.default ? 'default' : 'fix'}`, first.message)
}
