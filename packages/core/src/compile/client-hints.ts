// Hints clients read from a tool's `_meta`: Claude Code keeps a tool with `anthropic/alwaysLoad` in
// every prompt instead of deferring it behind its tool search, and searches `anthropic/searchHint`
// beside the name and description. Only `_meta` carries them: clients ignore (or refuse) a tool's
// unknown top-level keys, such as the API's own `defer_loading`.
import type { JsonSchemaObject } from '../types'

/** What a tool definition may say about how clients load and find it. */
export interface ClientHints {
  /** Keep the tool in every prompt (`true`), or let it be deferred even where its server is kept (`false`). */
  alwaysLoad?: boolean
  /** Words a tool search should find it by; `true` makes them from its name, description and keys. */
  searchHint?: string | true
}

const HINT_WORDS = 12
const STOP = new Set(['a', 'an', 'and', 'the', 'of', 'or', 'to', 'for', 'in', 'on', 'by', 'with', 'is', 'it', 'its', 'as', 'at', 'be', 'this', 'that', 'from', 'only', 'one', 'each', 'kind'])

/** Lower-case words of a name or a text (`send_message`, `mediaGroup` and prose alike). */
function wordsOf(text: string): string[] {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(word => word.length > 1 && !STOP.has(word))
}

/** A short search hint: the tool's name, its description's first sentence, then its keys and their enum values. */
export function searchHintOf(name: string, description: string | undefined, inputSchema: JsonSchemaObject): string {
  const properties = (inputSchema.properties ?? {}) as Record<string, { enum?: unknown[] }>
  const sources = [
    name,
    description?.split(/(?<=[.!?])\s/)[0] ?? '',
    ...Object.keys(properties),
    ...Object.values(properties).flatMap(property => (Array.isArray(property?.enum) ? property.enum : []).filter((value): value is string => typeof value === 'string')),
  ]
  return [...new Set(sources.flatMap(wordsOf))].slice(0, HINT_WORDS).join(' ')
}

/** The `_meta` a tool's hints become; undefined when it gives none. */
export function hintsMeta(hints: ClientHints, name: string, description: string | undefined, inputSchema: JsonSchemaObject): Record<string, unknown> | undefined {
  const meta: Record<string, unknown> = {}
  if (typeof hints.alwaysLoad === 'boolean')
    meta['anthropic/alwaysLoad'] = hints.alwaysLoad
  const hint = hints.searchHint === true ? searchHintOf(name, description, inputSchema) : typeof hints.searchHint === 'string' ? hints.searchHint.trim() : ''
  if (hint !== '')
    meta['anthropic/searchHint'] = hint
  return Object.keys(meta).length > 0 ? meta : undefined
}
