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

/** How much of a query is read: its first characters, and the first distinct words of those. */
export const QUERY_BOUNDS = { chars: 4096, words: 64 } as const

/** The most words of the list one word of a query may begin: past them, a prefix says nothing anyway. */
const MAX_PREFIXED = 256

/** Where each word of the list stands: the tools that hold it, and how much it counts in each. */
type Postings = Map<string, { tool: number, weight: number }[]>

export interface ToolSearch {
  /** The tools that match `query` best, at most `limit`, best first (ties in list order). */
  search: (query: string, limit: number) => McpTool[]
}

/** Each word of one tool, with the most it counts where it stands. */
function wordsOfTool(tool: McpTool): Map<string, number> {
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
  return words
}

/** The words of a query, read within its bounds: a query's cost does not grow past them. */
function askedWords(query: string): string[] {
  return [...new Set(wordsOf(query.slice(0, QUERY_BOUNDS.chars)))].slice(0, QUERY_BOUNDS.words)
}

/** The words of the list that begin with `prefix` (the sorted `vocabulary`'s run of them), at most `MAX_PREFIXED`. */
function prefixed(vocabulary: readonly string[], prefix: string): string[] {
  let low = 0
  let high = vocabulary.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (vocabulary[middle]! < prefix)
      low = middle + 1
    else
      high = middle
  }
  const found: string[] = []
  for (let at = low; at < vocabulary.length && found.length < MAX_PREFIXED && vocabulary[at]!.startsWith(prefix); at++)
    found.push(vocabulary[at]!)
  return found
}

/**
 * An index of a list's tools, built once: each word's postings, so a query costs the postings of its
 * (bounded) words, never a scan of every word of every tool.
 */
export function toolSearch(tools: readonly McpTool[]): ToolSearch {
  const postings: Postings = new Map()
  tools.forEach((tool, index) => {
    for (const [word, weight] of wordsOfTool(tool)) {
      const held = postings.get(word) ?? []
      held.push({ tool: index, weight })
      postings.set(word, held)
    }
  })
  const vocabulary = [...postings.keys()].sort()
  // A word every tool holds tells them apart least.
  const rarity = (word: string): number => Math.log(1 + tools.length / (postings.get(word)?.length ?? tools.length))
  return {
    search(query, limit) {
      const scores = new Float64Array(tools.length)
      const exact = query.length <= QUERY_BOUNDS.chars ? query.trim().toLowerCase() : undefined
      tools.forEach((tool, index) => {
        if (tool.name.toLowerCase() === exact)
          scores[index] = 100
      })
      for (const word of askedWords(query))
        scoreWord(word, { postings, vocabulary, rarity, scores })
      return [...scores.keys()]
        .filter(index => scores[index]! > 0)
        .sort((a, b) => scores[b]! - scores[a]! || a - b)
        .slice(0, limit)
        .map(index => tools[index]!)
    },
  }
}

/**
 * One word of a query, scored into each tool: the word itself where the tool holds it, else its best
 * synonym (a third), else the best word of the tool it begins (half, where it is four letters or more).
 */
function scoreWord(word: string, index: { postings: Postings, vocabulary: readonly string[], rarity: (word: string) => number, scores: Float64Array }): void {
  const { postings, rarity, scores } = index
  const settled = new Set<number>()
  for (const { tool, weight } of postings.get(word) ?? []) {
    scores[tool]! += weight * rarity(word)
    settled.add(tool)
  }
  const best = (others: Iterable<string>, share: number): void => {
    const found = new Map<number, number>()
    for (const other of others) {
      for (const { tool, weight } of postings.get(other) ?? []) {
        if (!settled.has(tool))
          found.set(tool, Math.max(found.get(tool) ?? 0, weight * rarity(other) / share))
      }
    }
    for (const [tool, score] of found) {
      scores[tool]! += score
      settled.add(tool)
    }
  }
  best(SYNONYMS.get(word) ?? [], 3)
  // A word the query only begins ("conf" for "config") counts half, where it is long enough to mean something.
  if (word.length >= 4)
    best(prefixed(index.vocabulary, word), 2)
}
