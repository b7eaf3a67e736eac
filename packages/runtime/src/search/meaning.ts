// A tool search's meaning signal: a word of the task that no tool holds ("spin", "firing") counts by
// the tools' words nearest it in meaning, by the cosine of their vectors in a MeaningTable, as a
// synonym counts by the synonym table. Pure: the table is handed in; the tools' words that the table
// holds are found once per list, and a query's absent word costs one pass over them.
import type { MeaningTable } from './meaning-table'
import { dot } from './meaning-table'

/** How near a tool's word must be to stand in for a query's (cosine), how many stand in, and how much each counts beside the word itself, times its cosine. */
export const NEARBY = { threshold: 0.6, count: 3, share: 0.6 } as const

/** For a word none of `vocabulary` is, the words of it nearest in meaning (cosine ≥ NEARBY.threshold), at most NEARBY.count, nearest first, each with its share. */
export function nearbyWords(table: MeaningTable, vocabulary: readonly string[]): (word: string) => [string, number][] {
  const known = new Set(vocabulary)
  const held = vocabulary.filter(word => table.vectors.has(word)).map(word => ({ word, vector: table.vectors.get(word)! }))
  return (word) => {
    const vector = table.vectors.get(word)
    if (!vector || known.has(word))
      return []
    return held
      .map(({ word: other, vector: each }) => [other, dot(vector, each)] as [string, number])
      .filter(([, cosine]) => cosine >= NEARBY.threshold)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, NEARBY.count)
      .map(([other, cosine]) => [other, NEARBY.share * cosine])
  }
}
