// The lean tool surface (`surface: 'search'`): a session's list holds three tools — find, describe,
// call — and the tools the operator loads always, so it starts with a few hundred tokens instead of
// every schema. Every tool of the full list stays reachable: `call_tool` reads its arguments as a
// direct call does (repair, inverse map, the original's parse), and a direct call still works.
import type { ObjectFacts } from '@flatmcp/core'
import type { McpTool } from '../artifact/format'
import type { ToolService } from '../service/service'
import type { Found, SearchOptions } from './tool-search'
import { PROFILE_OBJECTS } from '@flatmcp/core'
import { ownValue } from '../util/object'
import { quoteClipped } from '../validate/messages'
import { NOTHING_FITS_BELOW } from './confidence'
import { describedTool } from './described-tool'
import { firstSentence } from './disclosure'
import { preserialize } from '../service/preserialized'
import { errorResult } from '../service/results'
import { schemaHash } from '../service/schema-hash'
import { toolSearch, topKeys } from './tool-search'

/** The surface's own tools, by what they do. */
export const SURFACE_TOOLS = { find: 'find_tools', describe: 'describe_tools', call: 'call_tool' } as const

/** How many tools one search answers with, and one describe takes. */
const FOUND = 8
const MAX_DESCRIBED = 20

/**
 * What a client of the profile takes of an object, as the profile says (`PROFILE_OBJECTS`): the base
 * profile's where none is named; a user's own profile is taken as strict (an object of unknown keys
 * as JSON text, closed by `additionalProperties`).
 */
function objectsOf(profile: string | undefined): ObjectFacts {
  return profile === undefined ? PROFILE_OBJECTS.portable : ownValue(PROFILE_OBJECTS as Record<string, ObjectFacts>, profile) ?? { openObjects: false, additionalProperties: true }
}

/** An object of these keys, all required, closed where the profile's client takes `additionalProperties`. */
function closed(properties: Record<string, unknown>, profile: string | undefined): McpTool['inputSchema'] {
  return { type: 'object', properties, required: Object.keys(properties), ...(objectsOf(profile).additionalProperties ? { additionalProperties: false } : {}) } as McpTool['inputSchema']
}

/** The surface's three tools as `profile` lists them: every object closed and every key required, so strict targets take them too. */
export function surfaceTools(profile: string | undefined): McpTool[] {
  const argumentsSchema = objectsOf(profile).openObjects
    ? { type: 'object', description: 'The tool\'s arguments, as describe_tools gives its input schema.' }
    : { type: 'string', description: 'The tool\'s arguments as JSON text of an object, as describe_tools gives its input schema.' }
  return [
    {
      name: SURFACE_TOOLS.find,
      description: `Finds this server's tools by words: what the tool should do, names, argument keys or values. Answers the best ${FOUND} with one line each; describe_tools then gives their input schemas.`,
      inputSchema: closed({ query: { type: 'string', description: 'Words for the task, e.g. "create issue" or "list pull requests".' } }, profile),
    },
    {
      name: SURFACE_TOOLS.describe,
      description: `Gives the named tools' definitions as JSON, as tools/list would ({"tools": [...]}): description, input schema and schemaHash. Describe a tool before its first call_tool.`,
      inputSchema: closed({ names: { type: 'array', items: { type: 'string' }, description: `Tool names, as find_tools gave them (at most ${MAX_DESCRIBED}).` } }, profile),
    },
    {
      name: SURFACE_TOOLS.call,
      description: 'Calls one of this server\'s tools by name with its arguments, and answers as that tool does.',
      inputSchema: closed({ name: { type: 'string', description: 'The tool\'s name.' }, arguments: argumentsSchema }, profile),
    },
  ]
}

function text(value: string): { content: { type: 'text', text: string }[] } {
  return { content: [{ type: 'text', text: value }] }
}

/** What a reader may take for a line's end (CR, VT, FF, NEL, U+2028, U+2029) or is no text at all: a member's words would forge a line of the answer with them. */
const NOT_IN_A_LINE = /[\p{Cc}\p{Zl}\p{Zp}]/gu

/** A tool's description cut to its first sentence, for one line of a search's answer: one line, whatever its name and description hold. */
export function summary(tool: McpTool): string {
  const keys = topKeys(tool)
  const said = keys.length === 0 ? 'no arguments' : `arguments: ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`
  const line = firstSentence(tool, 160)
  return `${tool.name}: ${line || '(no description)'} (${said})`.replace(NOT_IN_A_LINE, ' ')
}

/**
 * The most one describe_tools answer holds, in characters of JSON (about 8,000 tokens): past it, the
 * tools left are named for another call. The first tool is always described, however large: a tool
 * stays reachable; one past the budget alone is said to be.
 */
export const DESCRIBE_BUDGET = 32_768

/** The described tools an answer holds within `DESCRIBE_BUDGET`, the ones left for another call, and a note where one alone is past it. */
export function withinBudget(described: readonly McpTool[]): { tools: McpTool[], deferred?: string[], next?: string, note?: string } {
  const tools: McpTool[] = []
  const deferred: string[] = []
  let size = 0
  for (const tool of described) {
    const length = JSON.stringify(tool).length
    // Past the budget, the rest wait for another call, in the order named.
    if (deferred.length > 0 || (tools.length > 0 && size + length > DESCRIBE_BUDGET))
      deferred.push(tool.name)
    else
      tools.push(tool)
    size += tools.at(-1) === tool ? length : 0
  }
  const alone = tools.length === 1 && size > DESCRIBE_BUDGET ? `${tools[0]!.name}'s definition alone is ${Math.round(size / 1024)} KiB of JSON (about ${Math.round(size / 4 / 1000)}k tokens); it is given whole, as the session's profile lists it` : undefined
  return {
    tools,
    ...(deferred.length === 0 ? {} : { deferred, next: `this answer holds about ${DESCRIBE_BUDGET / 4 / 1000}k tokens: describe the deferred tools in another call` }),
    ...(alone ? { note: alone } : {}),
  }
}

/** The tool a `call_tool` call names and its arguments (JSON text read), or what is wrong with it. */
export function callTarget(given: unknown): { name: string, arguments: unknown } | { error: string } {
  const call = (typeof given === 'object' && given !== null ? given : {}) as Record<string, unknown>
  if (typeof call.name !== 'string')
    return { error: 'call_tool needs "name": a tool\'s name, as find_tools gave it.' }
  let input = call.arguments ?? {}
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input)
    }
    catch {
      return { error: `call_tool's "arguments" is not JSON text of an object: ${quoteClipped(input)}. Send the arguments as describe_tools gives their schema.` }
    }
  }
  return { name: call.name, arguments: input }
}

/**
 * find_tools' answer. A catalogue no longer than one answer is shown whole, matches first: a task
 * never meets "no tool" beside the tool it needs. A longer one answers its best matches, each with
 * its fit (the share of the task's words it holds, rarer ones weighing more); where none fits, it
 * says so and names the closest as such, so a model does not call a wrong tool with confidence; where
 * one job is done on two servers, it says which.
 */
function foundText(query: string, found: Found, byName: ReadonlyMap<string, McpTool>): string {
  const whole = byName.size <= FOUND
  if (found.tools.length === 0 && !whole)
    return `No tool matches ${quoteClipped(query)}. Try other words: what it acts on, or what it does.`
  const next = 'Call describe_tools with the names you need before call_tool.'
  if (!whole) {
    const lead = found.fits ? '' : `No tool fits ${quoteClipped(query)} well (every fit is under ${NOTHING_FITS_BELOW.toFixed(2)}); the closest, none of which may do it:\n`
    const same = sameJobLines(found.sameJob).map(line => `\n${line}`).join('')
    return `${lead}${found.tools.map(({ tool, fit }) => `[fit ${fit.toFixed(2)}] ${summary(tool)}`).join('\n')}\n${same}\n${next} A fit is the share of the task's words a tool holds, rarer words weighing more; the order also weighs where each word stands and how well the tool's server fits.`
  }
  const tools = found.tools.map(({ tool }) => tool)
  const rest = [...byName.values()].filter(tool => !tools.includes(tool)).sort((a, b) => a.name < b.name ? -1 : 1)
  const lead = tools.length === 0 ? `No tool matches ${quoteClipped(query)} word for word; here are all ${byName.size} of them:\n` : ''
  return `${lead}${[...tools, ...rest].map(summary).join('\n')}\n\n${next}`
}

/**
 * The tools an answer holds that do one job on two servers or more, one line for each number of servers
 * (two copies of one server make one line, not one a tool).
 */
export function sameJobLines(groups: readonly McpTool[][]): string[] {
  const bySize = new Map<number, McpTool[][]>()
  for (const group of groups)
    bySize.set(group.length, [...bySize.get(group.length) ?? [], group])
  return [...bySize].map(([size, alike]) => `The same job on ${size} servers: ${alike.map(group => group.map(tool => tool.name).join(' and ')).join('; ')}. Choose by the server the task means.`)
}

/** `service` behind the search surface; `alwaysLoad`: the tools listed beside the three as they are. */
export function searchSurface(service: ToolService, alwaysLoad: readonly string[], options: SearchOptions = {}): ToolService {
  const loaded = new Set(alwaysLoad)
  const own = new Set<string>(Object.values(SURFACE_TOOLS))
  /** What the surface serves for one profile, made once from the full list: its own list, the search, the tools by name. */
  interface Catalog {
    list: Awaited<ReturnType<ToolService['list']>>
    search: ReturnType<typeof toolSearch>
    byName: Map<string, McpTool>
  }
  const catalogs = new Map<string | undefined, Promise<Catalog>>()
  const catalog = (profile: string | undefined): Promise<Catalog> => {
    let made = catalogs.get(profile)
    if (!made) {
      made = service.list(profile).then(({ tools, ttlMs, cacheScope }) => ({
        list: preserialize({ tools: [...surfaceTools(profile), ...tools.filter(tool => loaded.has(tool.name) && !own.has(tool.name))], ttlMs, cacheScope }),
        search: toolSearch(tools, options),
        byName: new Map(tools.map(tool => [tool.name, tool])),
      }))
      catalogs.set(profile, made)
    }
    return made
  }

  return {
    list: async profile => (await catalog(profile)).list,
    async call(name, args, request, profile, unsure) {
      if (!own.has(name))
        return service.call(name, args, request, profile, unsure)
      const given = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>
      // find_tools and describe_tools are tools the server has: their calls reach them (call_tool's, the tool it names).
      if (request.observed && name !== SURFACE_TOOLS.call)
        request.observed.tool = name
      if (name === SURFACE_TOOLS.find) {
        if (typeof given.query !== 'string' || given.query.trim() === '')
          return errorResult('find_tools needs "query": words for the task, e.g. "create issue".')
        const { search, byName } = await catalog(profile)
        return text(foundText(given.query, search.find(given.query, FOUND), byName))
      }
      if (name === SURFACE_TOOLS.describe) {
        const names = Array.isArray(given.names) ? given.names.filter((item): item is string => typeof item === 'string').slice(0, MAX_DESCRIBED) : []
        if (names.length === 0)
          return errorResult('describe_tools needs "names": tool names, as find_tools gave them.')
        const { byName } = await catalog(profile)
        const known = names.filter(item => byName.has(item)).map(item => byName.get(item)!)
        const unknown = names.filter(item => !byName.has(item))
        // Each schema without `$ref` or `$defs` (Gemini refuses them in a tool's answer); the hash is the listed tool's.
        const described = withinBudget(await Promise.all(known.map(async tool => ({ ...describedTool(tool), schemaHash: await schemaHash(tool) }))))
        // An object, as tools/list answers (a client may read JSON text as structured content, which must be an object).
        return text(JSON.stringify({ ...described, ...(unknown.length === 0 ? {} : { notFound: unknown, hint: 'find_tools finds tools by words' }) }))
      }
      const target = callTarget(given)
      if ('error' in target)
        return errorResult(target.error)
      try {
        return await service.call(target.name, target.arguments, request, profile, unsure)
      }
      catch (error) {
        // A direct call's protocol error (an unknown name) is the same message, as the tool's answer.
        return errorResult(error instanceof Error ? error.message : String(error))
      }
    },
    read: (name, args, profile) => service.read(name, args, profile),
  }
}
