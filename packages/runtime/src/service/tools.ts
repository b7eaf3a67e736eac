// A server's tools, checked and collected once; each in the profiles its sessions ask for, as a form:
// what tools/list shows and how tools/call maps arguments back. Compiled at start-up only where the
// build left nothing precomputed.
import type { McpTool, PrecomputedTool, ProfiledTool } from '../artifact/format'
import type { ReadingPlan } from '../read/readings'
import type { ToolDefinition } from '../tool/define-tool'
import type { ExtendOptions } from './options'
import { PROFILE_NAMES } from '@flatmcp/core'
import { compileLazily, compileProfileLazily } from '../precomputed/compiler'
import { precomputedOf } from '../precomputed/registry'
import { readingPlan } from '../read/readings'
import { namedWithGuess } from '../util/closest-name'
import { logOnce } from '../util/log'
import { ownValue } from '../util/object'
import { quoteClipped } from '../validate/messages'

/** A tool as one profile serves it: what tools/list shows and how tools/call reads arguments back. */
export interface Form {
  tool: McpTool
  reading: ReadingPlan
  /** In a strict profile: whether the tool met it (false: its schema is the base one). */
  strict?: boolean
}

/** One tool of a server: its definition, its precomputed data, and its forms by profile. */
export interface ToolEntry {
  definition: ToolDefinition
  compiled: PrecomputedTool
  /** Compiled at start-up (no build data): other profiles are compiled when first asked for. */
  lazy: boolean
  /** The base form (under `undefined`), and the others as sessions ask for them. */
  forms: Map<string | undefined, Form>
}

function formOf(tool: McpTool, plan: ProfiledTool): Form {
  // The hosts parse a whole arguments object sent as JSON text as the message arrives.
  return { tool, reading: readingPlan(plan, true), ...(plan.strict === undefined ? {} : { strict: plan.strict }) }
}

/** Fails early on what would otherwise fail on every call: bad tools, or a build made with other shared fields. */
export function checkTools(tools: readonly ToolDefinition[], extend: ExtendOptions | undefined): void {
  const seen = new Set<string>()
  for (const tool of tools) {
    if (!tool || typeof tool.name !== 'string' || typeof tool.handler !== 'function')
      throw new TypeError('createMcpServer: every tool needs a name and a handler (use defineTool)')
    if (seen.has(tool.name))
      throw new TypeError(`createMcpServer: two tools are named "${tool.name}"`)
    seen.add(tool.name)
    for (const part of ['params', 'input'] as const) {
      const schema = tool[part] as { '~standard'?: { validate?: unknown } } | undefined
      if (schema !== undefined && typeof schema?.['~standard']?.validate !== 'function')
        throw new TypeError(`createMcpServer: tool "${tool.name}" ${part} has no ~standard.validate, so no call could be parsed; a JSON Schema given as data needs a validator: wrap it as a Standard Schema with vendor "json-schema" whose validate runs one (ajv, @cfworker/json-schema)`)
    }
    const built = precomputedOf(tool)?.slices?.extend
    if (built && !extend)
      throw new TypeError(`createMcpServer: tool "${tool.name}" was built with shared extend fields (${built.join(', ')}); pass the same extend option`)
    if (precomputedOf(tool) && !built && extend)
      throw new TypeError(`createMcpServer: tool "${tool.name}" was built without the shared extend fields; build it with the same extend option`)
  }
}

/** flatmcp's own profiles: the compiler's table of names (a leaf, as the search surface reads PROFILE_OBJECTS). */
export const BUILT_IN_PROFILES: readonly string[] = PROFILE_NAMES

/**
 * A profile named for every caller that the build did not make for some tool (a typo, or a profile
 * left out of the plugin's \`profiles\`): said once at start-up, not at the first request. Tools
 * compiled at start-up take any profile the compiler knows, so they are not asked.
 */
export function checkProfileBuilt(tools: readonly ToolDefinition[], profile: unknown): void {
  if (typeof profile !== 'string' || profile === 'portable' || profile === 'minimal')
    return
  const built = tools.map(tool => precomputedOf(tool))
  const made = new Set(built.flatMap(data => Object.keys(data?.profiles ?? {})))
  // A name no build made and flatmcp does not know is a typo: said now, with the names there are.
  if (!made.has(profile) && !BUILT_IN_PROFILES.includes(profile)) {
    const names = [...new Set([...BUILT_IN_PROFILES, ...made])]
    throw new TypeError(`createMcpServer: unknown profile ${namedWithGuess(profile, names)}; the profiles are ${names.map(name => JSON.stringify(name)).join(', ')}${made.size > 0 ? ` (these tools were built with ${[...made].map(name => JSON.stringify(name)).join(', ')})` : ''}`)
  }
  if (built.includes(undefined))
    return
  const missing = tools.filter((_, i) => !ownValue(built[i]!.profiles, profile))
  if (missing.length > 0)
    logOnce(`profile:${profile}`, `flatmcp: profile ${quoteClipped(profile)} was not built for tool${missing.length === 1 ? '' : 's'} ${missing.slice(0, 5).map(tool => `"${tool.name}"`).join(', ')}${missing.length > 5 ? ', …' : ''}; add it to the plugin's \`profiles\` option. Serving the base profile (said once).`)
}

/** Collects the tools by name once; each profile's list answer is built once and served as is afterwards. */
export async function collectTools(tools: readonly ToolDefinition[], extend: ExtendOptions | undefined): Promise<Map<string, ToolEntry>> {
  const byName = new Map<string, ToolEntry>()
  for (const definition of tools) {
    const built = precomputedOf(definition)
    const compiled = built ?? await compileLazily(definition, extend?.schema)
    const base = formOf(compiled.tool, { inputSchema: compiled.tool.inputSchema, coercion: compiled.coercion })
    byName.set(definition.name, { definition, compiled, lazy: !built, forms: new Map([[undefined, base]]) })
  }
  return byName
}

/**
 * A tool in a profile: as built, compiled now (a tool without build data), or, when its build did
 * not include that profile, in its base form (said once on stderr).
 */
export function formFor(entry: ToolEntry, profile: string | undefined, extend: ExtendOptions | undefined): Form {
  const known = entry.forms.get(profile)
  if (known)
    return known
  // Own entries only: a choice that names `constructor` is a profile the build lacks.
  const built = ownValue(entry.compiled.profiles, profile!)
  const plan = built ?? (entry.lazy && profile !== 'portable' ? lazyProfile(entry, extend, profile!) : undefined)
  // Once per process: a server made per request would say it on every request, with text a client may have chosen.
  if (!plan && profile !== 'portable')
    logOnce(`profile:${profile}`, `flatmcp: a request asked for profile ${quoteClipped(profile)}, which tool "${entry.definition.name}" (and perhaps others) was not built with; add it to the plugin's \`profiles\` option. Serving the base profile (said once).`)
  const form = plan ? formOf(listedTool(entry.compiled, plan), plan) : entry.forms.get(undefined)!
  entry.forms.set(profile, form)
  return form
}

/** A tool as a profile lists it: the base tool with the profile's input schema (the base tool where the profile has none). */
export function listedTool(compiled: PrecomputedTool, plan: ProfiledTool | undefined): McpTool {
  return plan ? { ...compiled.tool, inputSchema: plan.inputSchema } : compiled.tool
}

/** A profile compiled for a tool with no build data; one the compiler does not know is none (the base form is served). */
function lazyProfile(entry: ToolEntry, extend: ExtendOptions | undefined, profile: string): ProfiledTool | undefined {
  try {
    return compileProfileLazily(entry.definition, extend?.schema, profile)
  }
  catch {
    return undefined
  }
}
