// Progressive tool disclosure, as the MCP proposals have it: `tools/catalog` (`tools.progressiveDisclosure`)
// answers one entry per listed tool — its name, a one-sentence summary, its annotations and its
// `schemaHash`, no schemas — optionally only those a query finds; `tools/manifest` (SEP-2636,
// `tools.manifest`) one entry per tool with the `digest` and byte `size` of its whole definition;
// `tools/describe` answers the named tools exactly as tools/list gives them. All are views of the
// session's own tools/list answer, so a client that never asks for them sees nothing change. The same
// answers for every host and the fetch handler.
import type { McpTool } from '../artifact/format'
import type { ToolSearch } from './tool-search'
import { quoteClipped } from '../validate/messages'
import { hashedText, schemaHash } from '../service/schema-hash'
import { toolSearch } from './tool-search'

/** The methods, and the capability under `tools` that offers them. */
export const DISCLOSURE_METHODS = ['tools/catalog', 'tools/manifest', 'tools/describe'] as const
export type DisclosureMethod = typeof DISCLOSURE_METHODS[number]
export const DISCLOSURE_CAPABILITY = { progressiveDisclosure: true, manifest: {} } as const

/** The proposal's error for names the session cannot describe (not found and not allowed alike). */
export const RESOURCE_NOT_AVAILABLE = -32002
const INVALID_PARAMS = -32602

/** Catalog entries on one page, tools one describe takes, and the most a query answers. */
const PAGE_SIZE = 100
const MAX_DESCRIBED = 100
const QUERY_RESULTS = 20

/** One tool in the catalog. */
export interface CatalogEntry {
  name: string
  title?: string
  summary: string
  schemaHash: string
  annotations?: Record<string, unknown>
}

/** What a disclosure method answers: a result, or the JSON-RPC error the host sends instead. */
export type DisclosureAnswer = { result: object } | { error: { code: number, message: string, data?: unknown } }

/** A tool's description (or title) cut to its first sentence, at most `max` characters. */
export function firstSentence(tool: McpTool, max: number): string {
  // Blank lines before the text are skipped: some servers start every description with a newline.
  const text = [tool.description, tool.title].map(each => (each ?? '').trim()).find(each => each !== '') ?? ''
  const first = text.split(/(?<=[.!?])\s|\n/)[0]!.trim()
  return first.length > max ? `${first.slice(0, max - 1)}…` : first
}

/** What one tools/list answer offers for disclosure, made once per answer (an answer is the same object while it holds). */
interface Disclosed {
  byName: Map<string, McpTool>
  search: ToolSearch
}
const disclosed = new WeakMap<object, Disclosed>()
function disclosedOf(list: { tools: readonly McpTool[] }): Disclosed {
  let made = disclosed.get(list)
  if (!made) {
    made = { byName: new Map(list.tools.map(tool => [tool.name, tool])), search: toolSearch(list.tools) }
    disclosed.set(list, made)
  }
  return made
}

/** One tool in the manifest (SEP-2636): its whole definition's digest (`sha256:` and the hex of its RFC 8785 form) and that form's UTF-8 bytes. */
export interface ManifestEntry {
  name: string
  title?: string
  digest: string
  size: number
  annotations?: Record<string, unknown>
}

async function manifestEntryOf(tool: McpTool): Promise<ManifestEntry> {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    digest: `sha256:${await schemaHash(tool)}`,
    size: new TextEncoder().encode(hashedText(tool)).byteLength,
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  }
}

/** One page of the list, by the cursor the page before gave (none: the first), or undefined for a cursor this list never gave. */
function pageOf(tools: readonly McpTool[], cursor: unknown): { page: readonly McpTool[], next: { nextCursor?: string } } | undefined {
  const start = cursor === undefined ? 0 : typeof cursor === 'string' && /^\d{1,9}$/.test(cursor) ? Number(cursor) : -1
  if (start < 0 || start > tools.length)
    return undefined
  return { page: tools.slice(start, start + PAGE_SIZE), next: start + PAGE_SIZE < tools.length ? { nextCursor: String(start + PAGE_SIZE) } : {} }
}

async function entryOf(tool: McpTool): Promise<CatalogEntry> {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    summary: firstSentence(tool, 200) || tool.name,
    schemaHash: await schemaHash(tool),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  }
}

function invalid(message: string): DisclosureAnswer {
  return { error: { code: INVALID_PARAMS, message } }
}

/** `tools/catalog` or `tools/describe` with `params`, answered from the session's tools/list answer. */
export async function answerDisclosure(method: DisclosureMethod, params: unknown, list: { tools: readonly McpTool[], ttlMs?: number, cacheScope?: string }): Promise<DisclosureAnswer> {
  const given = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>
  const { byName, search } = disclosedOf(list)
  if (method === 'tools/catalog' && typeof given.query === 'string' && given.query.trim() !== '')
    return { result: { tools: await Promise.all(search.search(given.query, QUERY_RESULTS).map(entryOf)) } }
  if (method === 'tools/catalog' && given.query !== undefined && typeof given.query !== 'string')
    return invalid('tools/catalog: "query" must be a string of words')
  if (method !== 'tools/describe') {
    const paged = pageOf(list.tools, given.cursor)
    if (!paged)
      return invalid(`${method}: invalid cursor (give the nextCursor of the page before, or none)`)
    // The manifest carries the list's own cache hints (SEP-2549's fields), as tools/list does.
    const hints = method === 'tools/manifest' ? { ...(list.ttlMs === undefined ? {} : { ttlMs: list.ttlMs }), ...(list.cacheScope === undefined ? {} : { cacheScope: list.cacheScope }) } : {}
    const entry: (tool: McpTool) => Promise<object> = method === 'tools/manifest' ? manifestEntryOf : entryOf
    return { result: { tools: await Promise.all(paged.page.map(entry)), ...paged.next, ...hints } }
  }
  const names = given.names
  if (!Array.isArray(names) || names.length === 0 || names.some(name => typeof name !== 'string'))
    return invalid('tools/describe: "names" must be a non-empty list of tool names')
  if (names.length > MAX_DESCRIBED)
    return { error: { code: INVALID_PARAMS, message: `tools/describe: at most ${MAX_DESCRIBED} names at once; ask again for the rest`, data: { maxNames: MAX_DESCRIBED } } }
  const unknownNames = [...new Set((names as string[]).filter(name => !byName.has(name)))]
  if (unknownNames.length > 0)
    return { error: { code: RESOURCE_NOT_AVAILABLE, message: `tools/describe: no tool named ${unknownNames.slice(0, 5).map(name => quoteClipped(name)).join(', ')}${unknownNames.length > 5 ? ', …' : ''}`, data: { unknownNames } } }
  return { result: { tools: (names as string[]).map(name => byName.get(name)!) } }
}

/** Whether a request's method is one of these. */
export function isDisclosureMethod(method: unknown): method is DisclosureMethod {
  return (DISCLOSURE_METHODS as readonly unknown[]).includes(method)
}
