// A BM25F index of documents (tools, or servers' tools together): each document's fields weighted and
// tempered by their usual length, each word's count saturated, rarer words counting more; a query's
// word scores where it stands, else by its best stand-in (a synonym, a longer word it begins).
import { SYNONYMS } from './synonyms'

/** Each field: how much a word in it counts, and how far its length tempers that (BM25F's b). */
export const FIELDS = {
  name: { weight: 3, b: 0.3 },
  server: { weight: 0.6, b: 0.3 },
  title: { weight: 2, b: 0.3 },
  key: { weight: 0.8, b: 0.5 },
  value: { weight: 0.4, b: 0.5 },
  lead: { weight: 1.4, b: 0.5 },
  description: { weight: 0.6, b: 0.75 },
} as const
export type Field = keyof typeof FIELDS
export type Fields = Record<Field, string[]>

/** BM25's saturation: past a few mentions, a word says little more. */
const K1 = 1.2
/** How much a stand-in counts beside the word itself: a synonym, a longer word the query's begins. */
const SYNONYM_SHARE = 0.6
const PREFIX_SHARE = 0.5

/** The most words of the list one word of a query may begin: past them, a prefix says nothing anyway. */
const MAX_PREFIXED = 256

/** What the index holds of one document: each word's weighted, length-tempered count. */
type Document = Map<string, number>

/** A scored index of documents: a word's postings and its rarity. */
export interface WordIndex {
  postings: Map<string, { at: number, count: number }[]>
  vocabulary: string[]
  size: number
}

/** No field's words: where fields are joined. */
export const noFields = (): Fields => ({ name: [], server: [], title: [], key: [], value: [], lead: [], description: [] })

/** Documents of fields, each word's count weighted by its field and tempered by the field's length against the average. */
function documentsOf(fields: readonly Fields[]): Document[] {
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

/** The index of documents made of `fields`. */
export function wordIndex(fields: readonly Fields[]): WordIndex {
  const postings = new Map<string, { at: number, count: number }[]>()
  documentsOf(fields).forEach((document, at) => {
    for (const [word, count] of document) {
      const held = postings.get(word) ?? []
      held.push({ at, count })
      postings.set(word, held)
    }
  })
  return { postings, vocabulary: [...postings.keys()].sort(), size: fields.length }
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

/** A word's rarity in the index (BM25's idf): the fewer documents hold it, the more it says. */
export function rarity(index: WordIndex, held: number): number {
  return Math.log(1 + (index.size - held + 0.5) / (held + 0.5))
}

/** A word's weighted count, saturated: past a few mentions, a word says little more. */
export function saturated(count: number): number {
  return count * (K1 + 1) / (count + K1)
}

/** What one word scores in each document where it stands: its rarity times its saturated count. */
function wordScores(index: WordIndex, word: string, share: number, into: Map<number, number>): void {
  const held = index.postings.get(word)
  if (!held)
    return
  const rare = rarity(index, held.length)
  for (const { at, count } of held) {
    const score = share * rare * saturated(count)
    into.set(at, Math.max(into.get(at) ?? 0, score))
  }
}

/** What finds the tools' words nearest a word in meaning, each with its share (see meaning.ts). */
export type Nearby = (word: string) => [string, number][]

/** The words a query's word is met by: itself, its synonyms, words near it in meaning, the longer words it begins; each with its share. */
export function standIns(index: WordIndex, word: string, nearby?: Nearby): [string, number][] {
  const found: [string, number][] = [[word, 1]]
  for (const synonym of SYNONYMS.get(word) ?? [])
    found.push([synonym, SYNONYM_SHARE])
  found.push(...nearby?.(word) ?? [])
  // A word the query only begins ("conf" for "config") counts half, where it is long enough to mean something.
  if (word.length >= 4) {
    for (const longer of prefixed(index.vocabulary, word))
      found.push([longer, PREFIX_SHARE])
  }
  return found
}

/** A query word's score in each document: the word's own where it stands, else its best stand-in's. */
export function queryWordScores(index: WordIndex, word: string, share = 1, nearby?: Nearby): Map<number, number> {
  const scores = new Map<number, number>()
  for (const [each, own] of standIns(index, word, nearby))
    wordScores(index, each, share * own, scores)
  return scores
}
