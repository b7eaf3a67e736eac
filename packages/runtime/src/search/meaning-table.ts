// The word table find_tools' meaning signal reads: words with int8 vectors (GloVe's, cut and reduced
// by scripts/meaning-table.mjs, whose header says from what and how). Read from its bytes, never from
// a file: whoever has the bytes (the gateway reads the file the package ships) hands them in. Words
// are looked up by the stems a tool search reads, each stem the mean of its words' vectors.
import { stem } from './words'

/** What the table's first line says: where its vectors come from and how they were cut. */
export interface MeaningHeader {
  format: 'flatmcp-meaning-table/1'
  source: { package: string, version: string, integrity: string, license: string, vectors: string }
  cut: string
  made: string
  words: number
  dimensions: number
  wordBytes: number
}

export interface MeaningTable {
  header: MeaningHeader
  dimensions: number
  /** Each stem's unit vector. */
  vectors: Map<string, Float32Array>
  /** Each stem's frequency rank in the source (0 the most frequent): a frequent word says less. */
  ranks: Map<string, number>
}

/** A vector scaled to unit length (left as it is when it is zero). */
export function unit(vector: Float32Array): Float32Array {
  let norm = 0
  for (const x of vector)
    norm += x * x
  norm = Math.sqrt(norm)
  if (norm > 0) {
    for (let d = 0; d < vector.length; d++)
      vector[d]! /= norm
  }
  return vector
}

/** The table in `bytes`: a JSON header line, the words a line each, then each word's int8 vector in order. */
export function readMeaningTable(bytes: Uint8Array): MeaningTable {
  const end = bytes.indexOf(10)
  const decoder = new TextDecoder()
  const header = JSON.parse(decoder.decode(bytes.subarray(0, end))) as MeaningHeader
  if (header.format !== 'flatmcp-meaning-table/1')
    throw new TypeError(`not a meaning table (${String(header.format)})`)
  const { dimensions } = header
  const words = decoder.decode(bytes.subarray(end + 1, end + 1 + header.wordBytes)).split('\n').slice(0, header.words)
  const start = end + 1 + header.wordBytes
  if (words.length !== header.words || bytes.length !== start + header.words * dimensions)
    throw new TypeError(`a meaning table of ${header.words} words × ${dimensions} holds ${bytes.length} bytes`)
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + start, header.words * dimensions)
  const vectors = new Map<string, Float32Array>()
  const ranks = new Map<string, number>()
  words.forEach((word, at) => {
    const key = stem(word)
    const sum = vectors.get(key) ?? new Float32Array(dimensions)
    for (let d = 0; d < dimensions; d++)
      sum[d]! += values[at * dimensions + d]! / 127
    vectors.set(key, sum)
    if (!ranks.has(key))
      ranks.set(key, at)
  })
  vectors.forEach(unit)
  return { header, dimensions, vectors, ranks }
}

/** The stems nearest `word` (a stem) by cosine, at most `count`, nearest first. */
export function nearestWords(table: MeaningTable, word: string, count: number): { word: string, cosine: number }[] {
  const vector = table.vectors.get(word)
  if (!vector)
    return []
  const found: { word: string, cosine: number }[] = []
  for (const [other, each] of table.vectors) {
    if (other !== word)
      found.push({ word: other, cosine: dot(vector, each) })
  }
  return found.sort((a, b) => b.cosine - a.cosine).slice(0, count)
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let d = 0; d < a.length; d++)
    sum += a[d]! * b[d]!
  return sum
}
