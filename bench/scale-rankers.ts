// The rankers the benchmark at scale scores, each behind the same face (a ScaleRanker): find_tools as
// the search surface ranks, the plain BM25 of bench/retrieval.bench.ts, and a regex baseline.
import type { McpTool } from '../packages/runtime/src/artifact/format'
import type { ScaleRanker } from './scale-harness'
import { toolSearch } from '../packages/runtime/src/search/tool-search'
import { bm25 } from './retrieval.bench'

/** find_tools' ranking, each tool's server from the origin map; it says nothing fits where its answer does (none found, or none at its fit floor). */
export const findToolsRanker: ScaleRanker = (tools, originOf) => {
  const search = toolSearch(tools, { originOf })
  return (query, limit) => {
    const found = search.find(query, limit)
    return { names: found.tools.map(({ tool }) => tool.name), nothingFits: !found.fits }
  }
}

/** The plain BM25 over name, description and parameter names; it never says nothing fits. */
export const bm25Ranker: ScaleRanker = (tools) => {
  const rank = bm25(tools)
  return (query, limit) => ({ names: rank(query, limit), nothingFits: false })
}

const escaped = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The query's words as case-insensitive alternatives against name and description, ranked by how many distinct words match; ties in list order. */
export const regexRanker: ScaleRanker = (tools: McpTool[]) => {
  const texts = tools.map(tool => `${tool.name} ${tool.description ?? ''}`)
  return (query, limit) => {
    const words = [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean))]
    if (words.length === 0)
      return { names: [], nothingFits: false }
    const pattern = new RegExp(words.map(escaped).join('|'), 'giu')
    const counts = texts.map(text => new Set([...text.matchAll(pattern)].map(match => match[0].toLowerCase())).size)
    const names = [...counts.keys()].filter(at => counts[at]! > 0).sort((a, b) => counts[b]! - counts[a]! || a - b).slice(0, limit).map(at => tools[at]!.name)
    return { names, nothingFits: false }
  }
}

/** The rankers in the order the tables print them. */
export const SCALE_RANKERS: { name: string, ranker: ScaleRanker }[] = [
  { name: 'find_tools', ranker: findToolsRanker },
  { name: 'BM25', ranker: bm25Ranker },
  { name: 'regex', ranker: regexRanker },
]
