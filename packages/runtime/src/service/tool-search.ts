// Finding a tool by words, deterministically (no model, no network). BM25F: each tool's fields (its
// own name, its server's, title and search hint, argument keys, enum values, the first sentence of its
// description and the rest), each word's count saturated and set against the field's usual length,
// rarer words counting more. A word a tool lacks counts by its best stand-in there: a synonym, or a
// longer word it begins. Where the tools come from many servers (`server__tool`), the server's whole
// text counts too, so a task finds its server before its tool. Ties go to the tool that holds more of
// the query's words, then to the one whose name does, then by name: never by list order.
import type { McpTool } from '../artifact/format'
import type { MeaningTable } from './meaning-table'
import { nearbyWords } from './meaning'
import { SYNONYMS } from './synonyms'
import { wordsOf } from './words'

export { wordsOf } from './words'

/** Each field: how much a word in it counts, and how far its length tempers that (BM25F's b). */
const FIELDS = {
  name: { weight: 3, b: 0.3 },
  server: { weight: 0.6, b: 0.3 },
  title: { weight: 2, b: 0.3 },
  key: { weight: 0.8, b: 0.5 },
  value: { weight: 0.4, b: 0.5 },
  lead: { weight: 1.4, b: 0.5 },
  description: { weight: 0.6, b: 0.75 },
} as const
type Field = keyof typeof FIELDS

/** BM25's saturation: past a few mentions, a word says little more. */
const K1 = 1.2
/** How much a stand-in counts beside the word itself: a synonym, a longer word the query's begins. */
const SYNONYM_SHARE = 0.6
const PREFIX_SHARE = 0.5
/** How much the server's fit counts beside the tool's own (each as a share of the best). */
const SERVER_SHARE = 0.35

/** The most enum values of one key read: a long enum says no more than its first ones. */
const MAX_VALUES = 50

/** How much of a query is read: its first characters, and the first distinct words of those. */
export const QUERY_BOUNDS = { chars: 4096, words: 64 } as const

/** The most words of the list one word of a query may begin: past them, a prefix says nothing anyway. */
const MAX_PREFIXED = 256

/** Where a served name's server ends, as a gateway names tools (`github__create_issue`). */
const SERVER_SEPARATOR = '__'

/** A tool found, and its fit: its score as a share of the best one's (1 for the best). */
export interface RankedTool { tool: McpTool, fit: number }

export interface ToolSearchOptions {
  /** A word table (`readMeaningTable`): a query's word no tool holds counts by the tools' words nearest it in meaning. Without it, words alone. */
  meaning?: MeaningTable
}

export interface ToolSearch {
  /** The tools that match `query` best, at most `limit`, best first. */
  search: (query: string, limit: number) => McpTool[]
  /** The same, each with its fit. */
  rank: (query: string, limit: number) => RankedTool[]
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

/** A served name's server and own name: `github__create_issue` is github's `create_issue`. */
function splitName(name: string): { server: string, own: string } {
  const at = name.indexOf(SERVER_SEPARATOR)
  return at > 0 ? { server: name.slice(0, at), own: name.slice(at + SERVER_SEPARATOR.length) } : { server: '', own: name }
}

/** A description's first sentence, and the rest. */
function leadAndRest(description: string): [string, string] {
  const end = description.search(/[.!?。](\s|$)|\n\s*\n/)
  return end === -1 ? [description, ''] : [description.slice(0, end + 1), description.slice(end + 1)]
}

/** One tool's words, counted by field. */
function fieldsOf(tool: McpTool): Record<Field, string[]> {
  const keys: string[] = []
  const values: string[] = []
  keysAndValues(tool.inputSchema, keys, values)
  const { server, own } = splitName(tool.name)
  const [lead, rest] = leadAndRest(tool.description ?? '')
  // The words an author or operator gave Claude Code's tool search count as a title does.
  const hint = tool._meta?.['anthropic/searchHint']
  return {
    name: wordsOf(own),
    server: wordsOf(server),
    title: wordsOf(`${tool.title ?? ''} ${typeof hint === 'string' ? hint : ''}`),
    key: keys.flatMap(wordsOf),
    value: values.flatMap(wordsOf),
    lead: wordsOf(lead),
    description: wordsOf(rest),
  }
}

/** What the index holds of one document (a tool, or a server's tools together): each word's weighted, length-tempered count. */
type Document = Map<string, number>

/** Documents of fields, each word's count weighted by its field and tempered by the field's length against the average. */
function documentsOf(fields: readonly Record<Field, string[]>[]): Document[] {
  const names = Object.keys(FIELDS) as Field[]
  const average = Object.fromEntries(names.map(field => [field, Math.max(1, fields.reduce((sum, each) => sum + each[field].length, 0) / Math.max(1, fields.length))])) as Record<Field, number>
  return fields.map((each) => {
    const document: Document = new Map()
    for (const field of names) {
      const { weight, b } = FIELDS[field]
      const norm = 1 - b + b * each[field].length / average[field]
      for (const word of each[field])
        document.set(word, (document.get(word) ?? 0) + weight / norm)
    }
    return document
  })
}

/** A scored index of documents: a word's postings and its rarity, and what a query's word scores in each. */
interface Index {
  postings: Map<string, { at: number, count: number }[]>
  vocabulary: string[]
  size: number
}

function indexOf(documents: readonly Document[]): Index {
  const postings = new Map<string, { at: number, count: number }[]>()
  documents.forEach((document, at) => {
    for (const [word, count] of document) {
      const held = postings.get(word) ?? []
      held.push({ at, count })
      postings.set(word, held)
    }
  })
  return { postings, vocabulary: [...postings.keys()].sort(), size: documents.length }
}

/** The words of the index that begin with `prefix` (the sorted vocabulary's run of them), at most `MAX_PREFIXED`. */
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
  for (let at = low; at < vocabulary.length && found.length < MAX_PREFIXED && vocabulary[at]!.startsWith(prefix); at++) {
    if (vocabulary[at] !== prefix)
      found.push(vocabulary[at]!)
  }
  return found
}

/** What one word scores in each document where it stands: its rarity times its saturated count. */
function wordScores(index: Index, word: string, share: number, into: Map<number, number>): void {
  const held = index.postings.get(word)
  if (!held)
    return
  const rarity = Math.log(1 + (index.size - held.length + 0.5) / (held.length + 0.5))
  for (const { at, count } of held) {
    const score = share * rarity * count * (K1 + 1) / (count + K1)
    into.set(at, Math.max(into.get(at) ?? 0, score))
  }
}

/** A query word's score in each document: the word's own where it stands, else its best stand-in's (a synonym, a word near in meaning, a longer word it begins). */
function queryWordScores(index: Index, word: string, nearby?: (word: string) => [string, number][]): Map<number, number> {
  const scores = new Map<number, number>()
  wordScores(index, word, 1, scores)
  for (const synonym of SYNONYMS.get(word) ?? [])
    wordScores(index, synonym, SYNONYM_SHARE, scores)
  for (const [near, share] of nearby?.(word) ?? [])
    wordScores(index, near, share, scores)
  // A word the query only begins ("conf" for "config") counts half, where it is long enough to mean something.
  if (word.length >= 4) {
    for (const longer of prefixed(index.vocabulary, word))
      wordScores(index, longer, PREFIX_SHARE, scores)
  }
  return scores
}

/** The words of a query, read within its bounds: a query's cost does not grow past them. */
function askedWords(query: string): string[] {
  return [...new Set(wordsOf(query.slice(0, QUERY_BOUNDS.chars)))].slice(0, QUERY_BOUNDS.words)
}

/** Each tool's server's index, where the tools come from two servers or more. */
function serversOf(tools: readonly McpTool[], fields: readonly Record<Field, string[]>[]): { index: Index, of: number[] } | undefined {
  const names = tools.map(tool => splitName(tool.name).server)
  const servers = [...new Set(names)]
  if (servers.length < 2 || servers.includes(''))
    return undefined
  const joined = servers.map(server => fields.filter((_, at) => names[at] === server).reduce((all, each) => {
    for (const field of Object.keys(FIELDS) as Field[])
      all[field].push(...each[field])
    return all
  }, { name: [], server: [], title: [], key: [], value: [], lead: [], description: [] } as Record<Field, string[]>))
  return { index: indexOf(documentsOf(joined)), of: names.map(name => servers.indexOf(name)) }
}

/** Each tool's score for a query (0 where no word of it stands), and what breaks a tie: how many of its words, and their score in the name. */
interface Scored { relevance: Float64Array, matched: Uint16Array, named: Float64Array }

/** An index of a list's tools, built once: a query costs the postings of its (bounded) words. */
export function toolSearch(tools: readonly McpTool[], options: ToolSearchOptions = {}): ToolSearch {
  const fields = tools.map(fieldsOf)
  const index = indexOf(documentsOf(fields))
  const servers = serversOf(tools, fields)
  const nearby = options.meaning && nearbyWords(options.meaning, index.vocabulary)
  const lowerNames = tools.map(tool => tool.name.toLowerCase())
  const scored = (query: string): Scored => {
    const total = new Float64Array(tools.length)
    const matched = new Uint16Array(tools.length)
    const named = new Float64Array(tools.length)
    const server = new Float64Array(servers ? servers.index.size : 0)
    for (const word of askedWords(query)) {
      for (const [at, score] of queryWordScores(index, word, nearby)) {
        total[at]! += score
        matched[at]!++
        if (fields[at]!.name.includes(word))
          named[at]! += score
      }
      for (const [at, score] of servers ? queryWordScores(servers.index, word) : [])
        server[at]! += score
    }
    const best = Math.max(0, ...total)
    const bestServer = Math.max(0, ...server)
    const relevance = total.map((score, at) => score === 0 || !servers || bestServer === 0 ? score : score + SERVER_SHARE * best * server[servers.of[at]!]! / bestServer)
    return { relevance, matched, named }
  }
  const rank = (query: string, limit: number): RankedTool[] => {
    const { relevance, matched, named } = scored(query)
    // The tool named word for word comes first, whatever else scores.
    const exact = query.length <= QUERY_BOUNDS.chars ? query.trim().toLowerCase() : undefined
    const first = (at: number): number => (lowerNames[at] === exact ? 1 : 0)
    const top = Math.max(0, ...relevance)
    return [...relevance.keys()]
      .filter(at => relevance[at]! > 0)
      .sort((a, b) => first(b) - first(a) || relevance[b]! - relevance[a]! || matched[b]! - matched[a]! || named[b]! - named[a]! || (tools[a]!.name < tools[b]!.name ? -1 : 1))
      .slice(0, limit)
      .map(at => ({ tool: tools[at]!, fit: first(at) === 1 ? 1 : relevance[at]! / top }))
  }
  return { rank, search: (query, limit) => rank(query, limit).map(({ tool }) => tool) }
}
