// An upstream's tool list as its pages come: every page read (at most 100), and the cache hints the
// first one gives. The list's tools are checked where they are compiled (compile/read-list.ts).
import type { Message } from './upstream'

/** What a list page says besides its tools: the cache hints a 2026-07-28 server gives. */
export interface ListHints { ttlMs?: number, cacheScope?: 'public' | 'private' }

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

