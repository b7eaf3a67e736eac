// What the proxy reads from an upstream server, read as untrusted input: its tool list (every page,
// bounded), each tool's shape checked before a client sees it, each definition's digest (what a
// snapshot is matched by), and the upstream's schema cut down to what can choose a reading in time
// proportional to the call.
import { isObject } from '../util/object'

export type { UpstreamTool } from '../artifact/format'
export { malformedTool } from '../artifact/tool-shape'

export interface Message { method: string, params?: Record<string, unknown> }

/** What a list page says besides its tools: the cache hints a 2026-07-28 server gives. */
export interface ListHints { ttlMs?: number, cacheScope?: 'public' | 'private' }

/** A result schema that takes whatever the other side answers: the proxy passes answers on unchanged. */
export const ANY_RESULT = { '~standard': { version: 1, vendor: 'flatmcp', validate: (value: unknown) => ({ value }) } }

/** Pages of `tools/list` read at most: a list that never ends is cut there, and said so. */
const MAX_PAGES = 100

/** Every page of the upstream's `tools/list`; the first page's cache hints. */
export async function listAll(request: (message: Message) => Promise<unknown>, log: (line: string) => void): Promise<{ tools: unknown[], hints: ListHints }> {
  const tools: unknown[] = []
  let hints: ListHints = {}
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }) as { tools?: unknown, nextCursor?: unknown, ttlMs?: unknown, cacheScope?: unknown } | null
    if (!Array.isArray(result?.tools))
      throw new TypeError('the upstream answered tools/list without a tools array')
    if (page === 0)
      hints = listHints(result)
    tools.push(...result.tools)
    cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined
    if (cursor === undefined)
      return { tools, hints }
  }
  log(`flatmcp proxy: the upstream's tools/list has more than ${MAX_PAGES} pages; serving the first ${MAX_PAGES}`)
  return { tools, hints }
}

function listHints(result: { ttlMs?: unknown, cacheScope?: unknown }): ListHints {
  return {
    ...(Number.isSafeInteger(result.ttlMs) && (result.ttlMs as number) >= 0 ? { ttlMs: result.ttlMs as number } : {}),
    ...(result.cacheScope === 'public' || result.cacheScope === 'private' ? { cacheScope: result.cacheScope } : {}),
  }
}

/** A name from the upstream as a log line may show it: quoted, escaped, at most 80 characters. */
export function shown(name: unknown): string {
  const text = JSON.stringify(typeof name === 'string' ? name : String(name))
  return text.length > 82 ? `${text.slice(0, 80)}…"` : text
}

/** JSON text with every object's keys in order: the same definition gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map(item => canonicalJson(item ?? null)).join(',')}]`
  if (isObject(value))
    return `{${Object.keys(value).sort().filter(key => value[key] !== undefined).map(key => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/** `sha256:` and the hex SHA-256 of a definition's canonical JSON: what a snapshot matches a live tool by. */
export async function digestOf(value: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(value))
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
  return `sha256:${[...hash].map(byte => byte.toString(16).padStart(2, '0')).join('')}`
}

/** The `_meta` keys the 2026-07-28 envelope reserves: each hop sets its own. */
const ENVELOPE = /^io\.modelcontextprotocol\//

/** A request's params as they go upstream: the downstream hop's envelope and progress token left behind. */
export function forwardedParams(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const meta = params?._meta
  if (!isObject(meta))
    return params
  const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => key !== 'progressToken' && !ENVELOPE.test(key)))
  const { _meta: _dropped, ...rest } = params!
  return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : rest
}
