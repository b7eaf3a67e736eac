// Finding a tool by words, deterministically (no model, no network): each tool's name, title, search
// hint (`_meta["anthropic/searchHint"]`), keys, enum values and description split into words, weighted by where they stand, and scored against
// the words of a query (and their common synonyms), rarer words counting more.
import type { McpTool } from '../artifact/format'

/** How much a word counts by where it stands in a tool. */
const WEIGHTS = { name: 4, title: 3, key: 2, value: 1, description: 1 } as const

/** Words that say nothing of which tool is meant. */
const STOP_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'with', 'by', 'from', 'at', 'is', 'it', 'as', 'be', 'this', 'that', 'my', 'me', 'i', 'all', 'some', 'using', 'use', 'tool', 'tools'])

/**
 * Words people use for what tools name otherwise, both ways round where both are common: the verbs
 * of creating, reading, changing and removing, and a few nouns. A word met through one counts a
 * third, less than the word itself.
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['create', 'add', 'new', 'make', 'open', 'write', 'post', 'insert', 'remember', 'store', 'save', 'record'],
  ['delete', 'remove', 'erase', 'forget', 'drop', 'destroy', 'clear'],
  ['get', 'read', 'show', 'view', 'display', 'fetch', 'retrieve', 'look', 'see', 'what'],
  ['list', 'show', 'enumerate', 'which'],
  ['search', 'find', 'look', 'lookup', 'query', 'seek'],
  ['update', 'edit', 'change', 'modify', 'patch', 'set', 'replace', 'rename'],
  ['move', 'rename', 'relocate'],
  ['navigate', 'open', 'go', 'visit', 'browse', 'load'],
  ['issue', 'bug', 'ticket', 'report'],
  ['directory', 'folder', 'dir'],
  ['relation', 'link', 'connect', 'relate', 'relationship'],
  ['entity', 'thing', 'fact', 'person', 'node'],
  ['history', 'said', 'messages', 'conversation', 'past'],
  ['elevation', 'altitude', 'height'],
  ['self', 'myself', 'logged', 'whoami', 'current', 'account'],
  ['sum', 'add', 'plus', 'total', 'addition'],
  ['screenshot', 'capture', 'picture', 'image'],
  ['comment', 'note', 'reply', 'remark'],
  ['user', 'people', 'member', 'person'],
  ['log', 'logs', 'output'],
]

/** The most enum values of one key read: a long enum says no more than its first ones. */
const MAX_VALUES = 50

/** Each stem's synonyms (stems too), from the groups above. */
const SYNONYMS = new Map<string, Set<string>>()
for (const group of SYNONYM_GROUPS) {
  const stems = group.map(word => stem(word))
  for (const word of stems) {
    const known = SYNONYMS.get(word) ?? new Set<string>()
    stems.filter(other => other !== word).forEach(other => known.add(other))
    SYNONYMS.set(word, known)
  }
}

/** Lowercase words, camelCase and snake_case split, each reduced to a common stem. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(word => word !== '' && !STOP_WORDS.has(word))
    .map(stem)
}

/** A word without the endings that make its other forms alike ("issues" and "issue"; "created" and "create"). */
function stem(word: string): string {
  let out = word
  if (out.length > 4 && out.endsWith('ies'))
    out = `${out.slice(0, -3)}y`
  else if (out.endsWith('sses'))
    out = out.slice(0, -2)
  else if (out.length > 3 && out.endsWith('s') && !out.endsWith('ss'))
    out = out.slice(0, -1)
  for (const ending of ['ing', 'ed']) {
    if (out.length - ending.length >= 3 && out.endsWith(ending))
      out = out.slice(0, -ending.length)
  }
  return out.length > 4 && out.endsWith('e') ? out.slice(0, -1) : out
}

/** Every key of an input schema and the string values its enums list, properties at any depth. */
function keysAndValues(schema: unknown, keys: string[], values: string[], depth = 0): void {
  if (typeof schema !== 'object' || schema === null || depth > 8)
    return
  const node = schema as Record<string, unknown>
  if (Array.isArray(node.enum))
    values.push(...node.enum.slice(0, MAX_VALUES).filter((value): value is string => typeof value === 'string'))
  if (typeof node.properties === 'object' && node.properties !== null) {
    for (const [key, child] of Object.entries(node.properties)) {
      keys.push(key)
      keysAndValues(child, keys, values, depth + 1)
    }
  }
  for (const keyword of ['items', 'additionalProperties'])
    keysAndValues(node[keyword], keys, values, depth + 1)
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(node[keyword]))
      (node[keyword] as unknown[]).forEach(branch => keysAndValues(branch, keys, values, depth + 1))
  }
}

/** The top-level keys of an input schema, required ones first. */
export function topKeys(tool: McpTool): string[] {
  const schema = tool.inputSchema as { properties?: Record<string, unknown>, required?: unknown }
  const keys = Object.keys(schema.properties ?? {})
  const required = new Set(Array.isArray(schema.required) ? schema.required : [])
  return [...keys.filter(key => required.has(key)), ...keys.filter(key => !required.has(key))]
}

interface Indexed {
  tool: McpTool
  /** Each word's weight: the most it counts where it stands. */
  words: Map<string, number>
}

export interface ToolSearch {
  /** The tools that match `query` best, at most `limit`, best first (ties in list order). */
  search: (query: string, limit: number) => McpTool[]
}

/** An index of a list's tools, built once. */
export function toolSearch(tools: readonly McpTool[]): ToolSearch {
  const indexed: Indexed[] = tools.map((tool) => {
    const words = new Map<string, number>()
    const add = (text: string, weight: number): void => {
      for (const word of wordsOf(text))
        words.set(word, Math.max(words.get(word) ?? 0, weight))
    }
    const keys: string[] = []
    const values: string[] = []
    keysAndValues(tool.inputSchema, keys, values)
    add(tool.description ?? '', WEIGHTS.description)
    values.forEach(value => add(value, WEIGHTS.value))
    keys.forEach(key => add(key, WEIGHTS.key))
    // The words an author or operator gave Claude Code's tool search count as much as a title.
    const hint = tool._meta?.['anthropic/searchHint']
    add(typeof hint === 'string' ? hint : '', WEIGHTS.title)
    add(tool.title ?? '', WEIGHTS.title)
    add(tool.name, WEIGHTS.name)
    return { tool, words }
  })
  // How many tools hold each word: a word every tool holds tells them apart least.
  const holders = new Map<string, number>()
  for (const { words } of indexed) {
    for (const word of words.keys())
      holders.set(word, (holders.get(word) ?? 0) + 1)
  }
  const rarity = (word: string): number => Math.log(1 + indexed.length / (holders.get(word) ?? indexed.length))
  return {
    search(query, limit) {
      const asked = [...new Set(wordsOf(query))]
      const exact = query.trim().toLowerCase()
      const scored = indexed.map(({ tool, words }, order) => {
        let score = tool.name.toLowerCase() === exact ? 100 : 0
        for (const word of asked) {
          const weight = words.get(word)
          if (weight !== undefined) {
            score += weight * rarity(word)
            continue
          }
          let alike = 0
          for (const other of SYNONYMS.get(word) ?? []) {
            const held = words.get(other)
            if (held !== undefined)
              alike = Math.max(alike, held * rarity(other) / 3)
          }
          if (alike > 0) {
            score += alike
            continue
          }
          // A word the query only begins ("conf" for "config") counts half, where it is long enough to mean something.
          if (word.length >= 4) {
            let best = 0
            for (const [held, heldWeight] of words) {
              if (held.startsWith(word))
                best = Math.max(best, heldWeight * rarity(held) / 2)
            }
            score += best
          }
        }
        return { tool, score, order }
      })
      return scored
        .filter(entry => entry.score > 0)
        .sort((a, b) => b.score - a.score || a.order - b.order)
        .slice(0, limit)
        .map(entry => entry.tool)
    },
  }
}
