// Finding a tool by words, deterministically (no model, no network). BM25F over each tool's fields
// (its own name, its server's, title and search hint, argument keys, enum values, the first sentence
// of its description and the rest); a query's values (paths, quoted strings, versions, ids) read out
// first. Where the tools come from many servers (the gateway's origin map says which, never a name's
// prefix), the server is chosen too: each server's words, counted once however many of its tools
// hold them, so a server of 400 tools does not outscore a small one by its size alone.
// Ties go to the tool that holds more of the query's words, then to the one whose name does, then by
// name: never by list order.
import type { McpTool } from '../artifact/format'
import type { MeaningTable } from './meaning-table'
import type { AskedWord } from './query-words'
import type { Fields, WordIndex } from './word-index'
import { heldWeight, NOTHING_FITS_BELOW, wordWeight } from './confidence'
import { nearbyWords } from './meaning'
import { askedWords, QUERY_BOUNDS } from './query-words'
import { noFields, queryWordScores, wordIndex } from './word-index'
import { wordsOf } from './words'

export { QUERY_BOUNDS } from './query-words'
export { wordsOf } from './words'

/** How much the server's fit counts beside the tool's own (each as a share of the best). */
const SERVER_SHARE = 0.35
/** How much a server the query names (a word of its name or prefix, as written) adds to its tools, as a share of the best tool's score. */
const NAMED_SERVER_SHARE = 0.3

/** The most enum values of one key read: a long enum says no more than its first ones. */
const MAX_VALUES = 50

/**
 * The most words of one field of a tool read, and the characters read to find them: the longest real
 * description the benchmarks hold is 440 words, its first sentence with its rest. A member's tool
 * stuffed with 100,000 words costs the index no more than these; past them, a word says no more of
 * which tool is meant.
 */
const MAX_FIELD_WORDS = 512
const MAX_FIELD_CHARS = 16_384

/** A field's words: its text's first characters, then its first words. */
const fieldWords = (text: string): string[] => wordsOf(text.slice(0, MAX_FIELD_CHARS)).slice(0, MAX_FIELD_WORDS)

/** A tool found, and its fit: the share of the query's words it holds, rarer ones weighing more (see confidence.ts). */
export interface RankedTool { tool: McpTool, fit: number }

/** A search's answer: the tools best first; whether any fits; the tools that do one job on two servers or more. */
export interface Found { tools: RankedTool[], fits: boolean, sameJob: McpTool[][] }

/** How a search reads its tools. */
export interface SearchOptions {
  /** Each served name's server and own name there, where many are served as one (a gateway's origin map). */
  originOf?: (name: string) => { server: string, name: string } | undefined
  /** A word table (`readMeaningTable`): a query's word no tool holds counts by the tools' words nearest it in meaning. Without it, words alone. */
  meaning?: MeaningTable
}

export interface ToolSearch {
  /** The tools that match `query` best, at most `limit`, best first. */
  search: (query: string, limit: number) => McpTool[]
  /** The same, each with its fit. */
  rank: (query: string, limit: number) => RankedTool[]
  /** The same, with whether any fits and which do the same job on other servers. */
  find: (query: string, limit: number) => Found
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

/** A description's first sentence, and the rest. */
function leadAndRest(description: string): [string, string] {
  const end = description.search(/[.!?。](\s|$)|\n\s*\n/)
  return end === -1 ? [description, ''] : [description.slice(0, end + 1), description.slice(end + 1)]
}

/**
 * The words of a served name's prefix, the name a model reads the server by (an operator may set it
 * and its separator): the served name less its own name at its end, else less its own name's words.
 */
function prefixWords(served: string, own: string): string[] {
  if (served.endsWith(own))
    return wordsOf(served.slice(0, served.length - own.length))
  const owned = new Set(wordsOf(own))
  return wordsOf(served).filter(word => !owned.has(word))
}

/** One tool's words, counted by field. */
function fieldsOf(tool: McpTool, origin: { server: string, name: string } | undefined): Fields {
  const keys: string[] = []
  const values: string[] = []
  keysAndValues(tool.inputSchema, keys, values)
  const [lead, rest] = leadAndRest(tool.description ?? '')
  // The words an author or operator gave Claude Code's tool search count as a title does.
  const hint = tool._meta?.['anthropic/searchHint']
  return {
    name: fieldWords(origin?.name ?? tool.name),
    server: origin ? [...new Set(fieldWords(`${origin.server} ${prefixWords(tool.name, origin.name).join(' ')}`))] : [],
    title: fieldWords(`${(tool.title ?? '').slice(0, MAX_FIELD_CHARS)} ${typeof hint === 'string' ? hint : ''}`),
    key: fieldWords(keys.join(' ')),
    value: fieldWords(values.join(' ')),
    lead: fieldWords(lead),
    description: fieldWords(rest),
  }
}

/** The servers' index, where the tools come from two or more: each server's words once per field, its name's as a tool's name. */
function serversOf(fields: readonly Fields[], origins: readonly ({ server: string } | undefined)[]): { index: WordIndex, of: Int32Array, named: Map<string, Set<number>> } | undefined {
  const names = origins.map(origin => origin?.server)
  const servers = [...new Set(names)]
  if (servers.length < 2 || servers.includes(undefined))
    return undefined
  const position = new Map(servers.map((server, at) => [server, at]))
  const joined = servers.map(() => noFields())
  const of = new Int32Array(fields.length)
  names.forEach((name, at) => {
    of[at] = position.get(name)!
    for (const [field, words] of Object.entries(fields[at]!) as [keyof Fields, string[]][])
      joined[of[at]!]![field].push(...words)
  })
  for (const [at, server] of servers.entries())
    joined[at]!.name.push(...wordsOf(server!))
  const distinct = joined.map(each => Object.fromEntries(Object.entries(each).map(([field, words]) => [field, [...new Set(words)]])) as Fields)
  // The servers each word of a server's name or prefix names.
  const named = new Map<string, Set<number>>()
  fields.forEach(({ server }, at) => server.forEach(word => named.set(word, (named.get(word) ?? new Set()).add(of[at]!))))
  return { index: wordIndex(distinct), of, named }
}

/** Each tool's score for a query (0 where no word of it stands), its fit, and what breaks a tie: how many of its words, and their score in the name. */
interface Scored { relevance: Float64Array, fit: Float64Array, matched: Uint16Array, named: Float64Array }

/** An index of a list's tools, built once: a query costs the postings of its (bounded) words. */
export function toolSearch(tools: readonly McpTool[], options: SearchOptions = {}): ToolSearch {
  const origins = tools.map(tool => options.originOf?.(tool.name))
  const fields = tools.map((tool, at) => fieldsOf(tool, origins[at]))
  const index = wordIndex(fields)
  const servers = serversOf(fields, origins)
  const lowerNames = tools.map(tool => tool.name.toLowerCase())
  const ownNames = new Set(tools.flatMap((tool, at) => [tool.name.toLowerCase(), ...(origins[at] ? [origins[at].name.toLowerCase()] : [])]))
  const nearby = options.meaning && nearbyWords(options.meaning, index.vocabulary)
  const known = (word: string): boolean => index.postings.has(word)
  const scored = (words: readonly AskedWord[]): Scored => {
    const total = new Float64Array(tools.length)
    const matched = new Uint16Array(tools.length)
    const named = new Float64Array(tools.length)
    const fit = new Float64Array(tools.length)
    const server = new Float64Array(servers ? servers.index.size : 0)
    const namedServer = new Uint8Array(servers ? servers.index.size : 0)
    let weights = 0
    for (const asked of words) {
      const { word, share } = asked
      const weight = wordWeight(index, asked, nearby)
      weights += weight
      for (const [at, score] of queryWordScores(index, word, share, nearby)) {
        total[at]! += score
        fit[at]! += heldWeight(score, weight)
        matched[at]!++
        if (fields[at]!.name.includes(word))
          named[at]! += score
      }
      for (const [at, score] of servers ? queryWordScores(servers.index, word, share) : [])
        server[at]! += score
      for (const at of share === 1 ? servers?.named.get(word) ?? [] : [])
        namedServer[at] = 1
    }
    const best = largest(total)
    const bestServer = largest(server)
    const relevance = total.map((score, at) => score === 0 || !servers || bestServer === 0 ? score : score + best * (SERVER_SHARE * server[servers.of[at]!]! / bestServer + NAMED_SERVER_SHARE * namedServer[servers.of[at]!]!))
    return { relevance, fit: fit.map(held => weights === 0 ? 0 : held / weights), matched, named }
  }
  const find = (query: string, limit: number): Found => {
    const { relevance, fit, matched, named } = scored(askedWords(query, known, ownNames))
    // The tool named word for word comes first, whatever else scores.
    const exact = query.length <= QUERY_BOUNDS.chars ? query.trim().toLowerCase() : undefined
    const first = (at: number): number => (lowerNames[at] === exact ? 1 : 0)
    const order = [...relevance.keys()]
      .filter(at => relevance[at]! > 0 || first(at) === 1)
      .sort((a, b) => first(b) - first(a) || relevance[b]! - relevance[a]! || matched[b]! - matched[a]! || named[b]! - named[a]! || (tools[a]!.name < tools[b]!.name ? -1 : 1))
    const taken = order.slice(0, limit)
    const found = taken.map(at => ({ tool: tools[at]!, fit: first(at) === 1 ? 1 : fit[at]! }))
    return { tools: found, fits: found.some(({ fit }) => fit >= NOTHING_FITS_BELOW), sameJob: servers ? sameJob(taken, fields, servers.of).map(group => group.map(at => tools[at]!)) : [] }
  }
  const rank = (query: string, limit: number): RankedTool[] => find(query, limit).tools
  return { find, rank, search: (query, limit) => rank(query, limit).map(({ tool }) => tool) }
}

/** The largest of scores, 0 for none: spread into Math.max, 200,000 of them overflow the stack. */
function largest(scores: Float64Array): number {
  let most = 0
  for (const score of scores)
    most = Math.max(most, score)
  return most
}

/** The tools of an answer whose own names say one job (the same words) on two servers or more. */
function sameJob(taken: readonly number[], fields: readonly Fields[], serverOf: Int32Array): number[][] {
  const jobs = new Map<string, number[]>()
  for (const at of taken) {
    const job = [...new Set(fields[at]!.name)].sort().join(' ')
    jobs.set(job, [...jobs.get(job) ?? [], at])
  }
  return [...jobs.values()].filter(group => new Set(group.map(at => serverOf[at])).size > 1)
}
