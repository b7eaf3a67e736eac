// Finding a tool across many servers: find_tools' ranking (the search surface's, as a gateway serves
// the tools, `server__tool`) beside a plain BM25 written here, over name, description and parameter
// names. Three catalogues: mcpproxy-go's public golden set (47 graded queries, 45 tools), LiveMCPTool's
// 527 tools with task phrasings written before any ranking (bench/data/livemcptool-tasks.json: a tuning
// half, and a held-out half run once per change), and the suite's npm servers merged
// (test/data/task-phrasings.json over their live lists).
import type { McpTool } from '../packages/runtime/src/artifact/format'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { installNpmServers, NPM_SERVERS } from '../test/support/npm-servers'
import { firstList } from './npm-servers.bench'
import { fittedName } from '../packages/runtime/src/proxy/upstream/gateway/served-names'
import { chooseSurface } from '../packages/runtime/src/search/auto-surface'
import { readMeaningTable } from '../packages/runtime/src/search/meaning-table'
import { toolSearch } from '../packages/runtime/src/search/tool-search'
import { loadTokenizer, tokensOf } from '../packages/unplugin/src/core/compile/tokens'

const ROOT = new URL('..', import.meta.url).pathname
const SUITES = process.env.FLATMCP_SUITES ?? path.join(ROOT, '../shared/suites')

/**
 * One query: what is asked, and the served names that answer it (with how well: 2 best, 1 also
 * right); with `any`, each does the whole job, so finding one is finding the answer.
 */
export interface Query { query: string, relevant: Map<string, number>, any?: boolean }

/** A catalogue as a gateway serves it, and what is asked of it. */
export interface Catalogue { name: string, tools: McpTool[], queries: Query[], origins: Map<string, { server: string, name: string }> }

/** What a ranker does: the served names that answer `query` best, best first. */
export type Ranker = (query: string, limit: number) => string[]

export interface Scores { recall: { 1: number, 3: number, 5: number }, mrr: number, queries: number }

const served = (server: string, tool: string): string => fittedName(`${server}__${tool}`)

/** Each served name's server and own name, as a gateway's origin map gives them. */
const originsOf = (pairs: readonly [string, string][]): Map<string, { server: string, name: string }> => new Map(pairs.map(([server, name]) => [served(server, name), { server, name }]))

/** Lowercase runs of letters and digits: the plainest words a BM25 reads. */
const plainWords = (text: string): string[] => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)

/** A tool's text for the baseline: its name, description and parameter names. */
function plainText(tool: McpTool): string {
  const keys = Object.keys((tool.inputSchema as { properties?: object }).properties ?? {})
  return [tool.name, tool.description ?? '', ...keys].join(' ')
}

/** Okapi BM25 (k1 1.2, b 0.75) over one field of name, description and parameter names; ties in list order. */
export function bm25(tools: readonly McpTool[]): Ranker {
  const documents = tools.map(tool => plainWords(plainText(tool)))
  const average = documents.reduce((sum, words) => sum + words.length, 0) / documents.length
  const frequency = new Map<string, number>()
  for (const words of documents) {
    for (const word of new Set(words))
      frequency.set(word, (frequency.get(word) ?? 0) + 1)
  }
  const counts = documents.map((words) => {
    const count = new Map<string, number>()
    for (const word of words)
      count.set(word, (count.get(word) ?? 0) + 1)
    return count
  })
  return (query, limit) => {
    const asked = [...new Set(plainWords(query))]
    const scores = documents.map((words, index) => asked.reduce((sum, word) => {
      const tf = counts[index]!.get(word) ?? 0
      if (tf === 0)
        return sum
      const df = frequency.get(word)!
      const idf = Math.log(1 + (documents.length - df + 0.5) / (df + 0.5))
      return sum + idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * words.length / average))
    }, 0))
    return [...scores.keys()].filter(index => scores[index]! > 0).sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, limit).map(index => tools[index]!.name)
  }
}

/** The meaning table `npm run meaning-table` makes, where it has been made: find_tools is measured with it too. */
const MEANING = path.join(ROOT, '.cache/meaning/meaning-table.bin')

/** find_tools' ranking, as the search surface answers it: each tool's server from the gateway's origin map, with a meaning table where given. */
export function findTools(tools: readonly McpTool[], origins?: ReadonlyMap<string, { server: string, name: string }>, meaning?: ReturnType<typeof readMeaningTable>): Ranker {
  const search = toolSearch(tools, { ...(origins ? { originOf: (name: string) => origins.get(name) } : {}), ...(meaning ? { meaning } : {}) })
  return (query, limit) => search.search(query, limit).map(tool => tool.name)
}

/** Recall at 1, 3 and 5 (of the relevant names, the share found), and the mean reciprocal rank of the first found. */
export function scored(queries: readonly Query[], rank: Ranker): Scores {
  const recall = { 1: 0, 3: 0, 5: 0 }
  let mrr = 0
  for (const { query, relevant, any } of queries) {
    const ranked = rank(query, 10)
    const wanted = [...relevant.keys()]
    for (const k of [1, 3, 5] as const) {
      const found = wanted.filter(name => ranked.slice(0, k).includes(name)).length
      recall[k] += any ? Math.min(found, 1) : found / wanted.length
    }
    const first = ranked.findIndex(name => relevant.has(name))
    mrr += first === -1 ? 0 : 1 / (first + 1)
  }
  const n = queries.length
  return { recall: { 1: recall[1] / n, 3: recall[3] / n, 5: recall[5] / n }, mrr: mrr / n, queries: n }
}

/** A tool with nothing but a name and a description: its input takes any object. */
const bare = (name: string, description: string, inputSchema: unknown = { type: 'object' }): McpTool => ({ name, description, inputSchema: inputSchema as McpTool['inputSchema'] })

/** mcpproxy-go's golden set: 45 tools of 7 reference servers, 47 queries graded 2 (best) and 1 (also right); 0 marks a near miss. */
export function goldenSet(): Catalogue | undefined {
  const folder = path.join(SUITES, 'retrieval')
  if (!existsSync(path.join(folder, 'corpus_v1.tools.json')))
    return undefined
  const corpus = JSON.parse(readFileSync(path.join(folder, 'corpus_v1.tools.json'), 'utf8')) as { tools: { server: string, tool: string, description: string }[] }
  const golden = JSON.parse(readFileSync(path.join(folder, 'retrieval_golden_v1.json'), 'utf8')) as { queries: { query: string, labels: { tool_id: string, relevance: number }[] }[] }
  const named = (id: string): string => served(...(id.split(':') as [string, string]))
  return {
    name: 'golden set (mcpproxy-go), 7 servers',
    tools: corpus.tools.map(tool => bare(served(tool.server, tool.tool), tool.description)),
    origins: originsOf(corpus.tools.map(tool => [tool.server, tool.tool])),
    queries: golden.queries.map(({ query, labels }) => ({ query, relevant: new Map(labels.filter(label => label.relevance > 0).map(label => [named(label.tool_id), label.relevance])) })),
  }
}

/** LiveMCPTool's 527 tools (70 servers) with this repository's task phrasings: the tuning half, or the held-out half. */
export function liveMcpTool(heldOut: boolean): Catalogue | undefined {
  const file = path.join(SUITES, 'retrieval/livemcptool_snapshot-tools.json')
  if (!existsSync(file))
    return undefined
  const corpus = JSON.parse(readFileSync(file, 'utf8')) as { tools: { server: string, tool: string, description: string, inputSchema?: unknown }[] }
  const { tasks } = JSON.parse(readFileSync(path.join(ROOT, 'bench/data/livemcptool-tasks.json'), 'utf8')) as { tasks: { task: string, tool: string, also?: string[], heldOut: boolean }[] }
  const named = (id: string): string => served(id.slice(0, id.indexOf(':')), id.slice(id.indexOf(':') + 1))
  return {
    name: `LiveMCPTool, 70 servers, ${heldOut ? 'held-out' : 'tuning'} tasks`,
    tools: corpus.tools.map(tool => bare(served(tool.server, tool.tool), tool.description, tool.inputSchema ?? { type: 'object' })),
    origins: originsOf(corpus.tools.map(tool => [tool.server, tool.tool])),
    // A task is answered by its tool or one that does the same job elsewhere: found is found once.
    queries: tasks.filter(task => task.heldOut === heldOut).map(task => ({ query: task.task, relevant: new Map([task.tool, ...(task.also ?? [])].map(id => [named(id), 1])), any: true })),
  }
}

/** The suite's npm servers as one gateway serves them (their live lists), with test/data/task-phrasings.json's tasks: its tuning ones, and its held-out ones. */
export async function npmServersMerged(log: (line: string) => void): Promise<{ catalogues: Catalogue[], servers: { name: string, tools: McpTool[] }[] }> {
  log('retrieval: listing the suite\'s npm servers')
  const bin = installNpmServers()
  const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-retrieval-bench-'))
  try {
    const lists = await Promise.all(NPM_SERVERS.map(async (server) => {
      const folder = path.join(scratch, server.name)
      mkdirSync(folder, { recursive: true })
      const { tools } = await firstList(server.command(bin, folder), server.env(folder))
      return tools as McpTool[]
    }))
    const merged = lists.flatMap((tools, at) => tools.map(tool => ({ ...tool, name: served(NPM_SERVERS[at]!.name, tool.name) })))
    const origins = originsOf(lists.flatMap((tools, at) => tools.map(tool => [NPM_SERVERS[at]!.name, tool.name] as [string, string])))
    const { tasks } = JSON.parse(readFileSync(path.join(ROOT, 'test/data/task-phrasings.json'), 'utf8')) as { tasks: { server: string, task: string, tool: string, heldOut: boolean }[] }
    const catalogues = [false, true].map(heldOut => ({
      name: `the suite's ${NPM_SERVERS.length} npm servers merged, ${heldOut ? 'held-out' : 'tuning'} tasks`,
      tools: merged,
      origins,
      queries: tasks.filter(task => task.heldOut === heldOut).map(task => ({ query: task.task, relevant: new Map([[served(task.server, task.tool), 1]]), any: true })),
    }))
    return { catalogues, servers: NPM_SERVERS.map((server, at) => ({ name: server.name, tools: lists[at]! })) }
  }
  finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

export interface RetrievalRow { catalogue: string, tools: number, queries: number, findTools: Scores, bm25: Scores, meaning?: Scores }

/** Where the search surface pays, per server: o200k_base tokens of its full list beside the surface's list and one describe answer, and what `--surface auto` chooses. */
export interface SurfaceRow { server: string, tools: number, full: number, surface: number, describe: number, auto: 'full' | 'search' }

export interface RetrievalResult { rows: RetrievalRow[], surfaces: SurfaceRow[] }

/** Every catalogue at hand (the public sets where ../shared/suites is), each ranked both ways; and each npm server's surface figures. */
export async function runRetrieval(log: (line: string) => void): Promise<RetrievalResult> {
  const npm = await npmServersMerged(log)
  const catalogues = [goldenSet(), liveMcpTool(false), liveMcpTool(true), ...npm.catalogues].filter(catalogue => catalogue !== undefined)
  const meaning = existsSync(MEANING) ? readMeaningTable(readFileSync(MEANING)) : undefined
  const rows = catalogues.map(({ name, tools, queries, origins }) => ({ catalogue: name, tools: tools.length, queries: queries.length, findTools: scored(queries, findTools(tools, origins)), bm25: scored(queries, bm25(tools)), ...(meaning ? { meaning: scored(queries, findTools(tools, origins, meaning)) } : {}) }))
  await loadTokenizer()
  const surfaces = [...npm.servers, { name: 'all merged', tools: npm.catalogues[0]!.tools }].map(({ name, tools }) => {
    const choice = chooseSurface(tools, undefined, [], tokensOf)
    return { server: name, tools: tools.length, full: choice.full, surface: choice.search.list, describe: choice.search.describe, auto: choice.surface }
  })
  return { rows, surfaces }
}

/** The section of `npm run bench`: recall@1/3/5 and MRR, find_tools beside BM25, and the goals said met or missed. */
export function printRetrieval({ rows, surfaces }: RetrievalResult, table: (header: string[], rows: (string | number)[][]) => void, target: (what: string, met: boolean, figure: string) => void): void {
  const figures = (s: Scores): string => `${s.recall[1].toFixed(2)} / ${s.recall[3].toFixed(2)} / ${s.recall[5].toFixed(2)}`
  console.log('\n16. finding a tool across many servers: find_tools beside a plain BM25 (name, description, parameter names), recall@1 / @3 / @5 and MRR, tools named as a gateway serves them')
  const meaning = rows.some(row => row.meaning) ? ['+ meaning table', 'MRR'] : []
  table(['catalogue', 'tools', 'queries', 'find_tools', 'MRR', 'BM25', 'MRR', ...meaning], rows.map(row => [row.catalogue, row.tools, row.queries, figures(row.findTools), row.findTools.mrr.toFixed(2), figures(row.bm25), row.bm25.mrr.toFixed(2), ...(row.meaning ? [figures(row.meaning), row.meaning.mrr.toFixed(2)] : [])]))
  const golden = rows.find(row => row.catalogue.startsWith('golden'))
  if (golden)
    target('recall@5 ≥ 0.90 on the golden set (its published BM25: 0.68)', golden.findTools.recall[5] >= 0.9, golden.findTools.recall[5].toFixed(2))
  for (const row of rows.filter(row => !row.catalogue.startsWith('golden') && !row.catalogue.includes('tuning')))
    target(`recall@5 ≥ 0.85 and ≥ BM25 + 0.05 on ${row.catalogue}`, row.findTools.recall[5] >= 0.85 && row.findTools.recall[5] >= row.bm25.recall[5] + 0.05, `${row.findTools.recall[5].toFixed(2)} against BM25's ${row.bm25.recall[5].toFixed(2)}`)
  console.log('\nwhere the search surface pays: o200k_base tokens of each npm server\'s full list (portable) beside the surface\'s three tools plus one describe answer of its median tool, and what --surface auto serves')
  table(['server', 'tools', 'full list', 'surface + describe', 'surface ÷ full', '--surface auto'], surfaces.map(row => [row.server, row.tools, row.full, row.surface + row.describe, ((row.surface + row.describe) / row.full).toFixed(2), row.auto]))
}
