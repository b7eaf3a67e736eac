// Finding a tool at a large operator's scale (issue 66): the catalogue of bench/scale-catalogue.ts
// (LiveMCPTool's servers, the suite's npm servers and vendors' npm servers, listed live) with the task
// phrasings of bench/data/scale-tasks.json, written from its dump (bench/scale-dump.ts) before any
// ranking ran. Per half and per catalogue size (the task's own server alone, ~300, ~1,000, all tools),
// find_tools beside BM25 and a regex baseline: recall@1, @5 and MRR over tasks a tool fits, the same
// over second-language tasks, and how often each says nothing fits where nothing does and where a tool
// does. The held-out half is scored only with FLATMCP_HELD_OUT=1: set it once the ranking is frozen,
// never while its tasks are being written or the ranking tuned.
import type { Judged, ScaleServer, ScaleTask } from './scale-harness'
import type { LeftOut } from './scale-catalogue'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { QUERY_BOUNDS } from '../packages/runtime/src/search/tool-search'
import { scaleCatalogue } from './scale-catalogue'
import { BUCKETS, fitScores, fixedOrder, loadTasks, nothingFitsShare, served, serversOfTask, subCatalogue } from './scale-harness'
import { SCALE_RANKERS } from './scale-rankers'
import { median } from './measure'

const TASKS = new URL('./data/scale-tasks.json', import.meta.url)
/** Answers read per query: recall@5 and MRR look no further than 10. */
const LIMIT = 10

export interface ScaleRow { bucket: string, ranker: string, tools: number, fits: ReturnType<typeof fitScores>, second: ReturnType<typeof fitScores>, noneSaid: number, none: number }

export interface ScaleResult {
  servers: { id: string, source: string, field: string, tools: number }[]
  left: LeftOut[]
  listMs: number
  cached: boolean
  halves: { half: 'tuning' | 'held-out', tasks: number, rows?: ScaleRow[], fields?: { by: string, name: string, tasks: number, recall5: number }[] }[]
  timing: { queries: number, median: number, p95: number, tools: number }
}

/** A server's size class, for the breakdown: small servers are those big ones bury. */
const sizeClass = (tools: number): string => tools < 10 ? '1–9 tools' : tools < 50 ? '10–49 tools' : tools < 200 ? '50–199 tools' : '200+ tools'

/** Each task answered by one ranker in its bucket's sub-catalogue (rankers built once per sub-catalogue). */
function answered(tasks: readonly ScaleTask[], order: readonly ScaleServer[], size: number, ranker: typeof SCALE_RANKERS[number]['ranker']): { judged: Judged[], tools: number[] } {
  const built = new Map<string, ReturnType<typeof ranker>>()
  const judged: Judged[] = []
  const tools: number[] = []
  for (const task of tasks) {
    const servers = subCatalogue(order, serversOfTask(task), size)
    if (servers.length === 0)
      continue
    const key = servers.map(server => server.id).join(' ')
    if (!built.has(key)) {
      const { tools: list, originOf } = served(servers)
      built.set(key, ranker(list, originOf))
    }
    judged.push({ task, answer: built.get(key)!(task.task, LIMIT) })
    tools.push(servers.reduce((sum, server) => sum + server.tools.length, 0))
  }
  return { judged, tools }
}

/** One half's table: each bucket, each ranker. */
function scoreHalf(tasks: readonly ScaleTask[], order: readonly ScaleServer[]): ScaleRow[] {
  return BUCKETS.flatMap(({ name, size }) => SCALE_RANKERS.map(({ name: ranker, ranker: rank }) => {
    const { judged, tools } = answered(tasks, order, size, rank)
    const of = (kind: ScaleTask['kind']): Judged[] => judged.filter(({ task }) => task.kind === kind)
    return { bucket: name, ranker, tools: Math.round(median(tools.length > 0 ? tools : [0])), fits: fitScores(of('fits')), second: fitScores(of('second-language')), noneSaid: nothingFitsShare(of('none')), none: of('none').length }
  }))
}

/** find_tools' recall@5 at the largest size, per field and per size class of the task's server. */
function breakdown(tasks: readonly ScaleTask[], order: readonly ScaleServer[]): { by: string, name: string, tasks: number, recall5: number }[] {
  const fits = tasks.filter(task => task.kind === 'fits')
  const { judged } = answered(fits, order, Number.POSITIVE_INFINITY, SCALE_RANKERS[0]!.ranker)
  const byId = new Map(order.map(server => [server.id, server]))
  const groups = new Map<string, Judged[]>()
  for (const one of judged) {
    const server = byId.get(serversOfTask(one.task)[0]!)!
    for (const key of [`field\t${server.field}`, `server size\t${sizeClass(server.tools.length)}`])
      groups.set(key, [...groups.get(key) ?? [], one])
  }
  return [...groups].map(([key, group]) => ({ by: key.split('\t')[0]!, name: key.split('\t')[1]!, tasks: group.length, recall5: fitScores(group).recall5 })).sort((a, b) => a.by.localeCompare(b.by) || b.tasks - a.tasks)
}

/** The time of one find_tools query over the whole catalogue: the tasks' phrasings, or the tools' descriptions while there are none. */
function timing(tasks: readonly ScaleTask[], order: readonly ScaleServer[]): ScaleResult['timing'] {
  const { tools, originOf } = served(order)
  const search = SCALE_RANKERS[0]!.ranker(tools, originOf)
  const queries = tasks.length > 0 ? tasks.map(task => task.task) : tools.filter((_, at) => at % 10 === 0).map(tool => (tool.description ?? tool.name).split(/\s+/).slice(0, 12).join(' '))
  const times = queries.map((query) => {
    const started = performance.now()
    search(query, LIMIT)
    return performance.now() - started
  })
  const sorted = [...times].sort((a, b) => a - b)
  return { queries: queries.length, median: median(times), p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0, tools: tools.length }
}

export async function runScale(log: (line: string) => void): Promise<ScaleResult> {
  const catalogue = await scaleCatalogue(log)
  const tasks = loadTasks(JSON.parse(readFileSync(TASKS, 'utf8')), catalogue.servers)
  const order = fixedOrder(catalogue.servers)
  const heldOut = process.env.FLATMCP_HELD_OUT === '1'
  log(`scale: scoring ${tasks.length} tasks over ${order.length} servers`)
  const halves = (['tuning', 'held-out'] as const).map((half) => {
    const own = tasks.filter(task => task.half === half)
    return half === 'held-out' && !heldOut ? { half, tasks: own.length } : { half, tasks: own.length, rows: scoreHalf(own, order), fields: breakdown(own, order) }
  })
  return {
    servers: catalogue.servers.map(({ id, source, field, tools }) => ({ id, source, field, tools: tools.length })),
    left: catalogue.left,
    listMs: catalogue.listMs,
    cached: catalogue.cached,
    halves,
    timing: timing(heldOut ? tasks : tasks.filter(task => task.half === 'tuning'), order),
  }
}

/** The section of `npm run bench` and `npm run bench:retrieval`: the catalogue, a table per half, find_tools' breakdown, its time per query. */
export function printScale(result: ScaleResult, table: (header: string[], rows: (string | number)[][]) => void): void {
  const total = result.servers.reduce((sum, server) => sum + server.tools, 0)
  const f = (value: number): string => Number.isNaN(value) ? '–' : value.toFixed(2)
  console.log(`\n16b. finding a tool at a large operator's scale: ${result.servers.length} servers, ${total} tools (LiveMCPTool's snapshot, the suite's npm servers, vendors' npm servers; bench/scale-catalogue.ts), listed in ${(result.listMs / 1000).toFixed(1)} s${result.cached ? ' from the cache' : ''}${result.left.length > 0 ? `; left out: ${result.left.map(server => server.id).join(', ')}` : ''}`)
  for (const half of result.halves) {
    if (!half.rows) {
      console.log(`\nheld-out: ${half.tasks} tasks, not scored (set FLATMCP_HELD_OUT=1 to score it once the ranking is frozen)`)
      continue
    }
    console.log(`\n${half.half} half, ${half.tasks} tasks: recall@1 / @5 and MRR where a tool fits (and where the task is in a second language); "nothing fits" said where none fits, and wrongly where one does`)
    if (half.tasks === 0) {
      console.log('(no tasks yet: bench/data/scale-tasks.json)')
      continue
    }
    table(['size', 'ranker', 'tools', 'fits', 'r@1', 'r@5', 'MRR', '2nd lang', 'r@1', 'r@5', 'MRR', 'none said', 'fits said none'], half.rows.map(row => [
      row.bucket, row.ranker, row.tools, row.fits.tasks, f(row.fits.recall1), f(row.fits.recall5), f(row.fits.mrr),
      row.second.tasks, f(row.second.recall1), f(row.second.recall5), f(row.second.mrr), `${f(row.noneSaid)} of ${row.none}`, f(row.fits.saidNothing),
    ]))
    console.log(`\nfind_tools' recall@5 at all ${total} tools, ${half.half} half, by the field and the size of the task's server`)
    table(['by', 'group', 'tasks', 'r@5'], (half.fields ?? []).map(row => [row.by, row.name, row.tasks, f(row.recall5)]))
  }
  const { timing } = result
  console.log(`\none find_tools query over all ${timing.tools} tools (${timing.queries} queries): median ${timing.median.toFixed(2)} ms, p95 ${timing.p95.toFixed(2)} ms; a query is read to its first ${QUERY_BOUNDS.chars} characters and ${QUERY_BOUNDS.words} distinct words`)
  for (const [what, met, figure] of goals(result))
    console.log(`${met ? 'met' : 'missed'}  ${what}: ${figure}`)
}

/** The goals of issue 66, held to the held-out half where it was scored (else the tuning half), at the largest size. */
function goals(result: ScaleResult): [string, boolean, string][] {
  const half = result.halves.find(each => each.half === 'held-out' && each.rows) ?? result.halves.find(each => each.rows && each.tasks > 0)
  if (!half?.rows)
    return []
  const row = (bucket: string, ranker: string): ScaleRow => half.rows!.find(each => each.bucket === bucket && each.ranker === ranker)!
  const all = row('all', 'find_tools')
  const bm25 = row('all', 'BM25')
  const below = BUCKETS.filter(({ name }) => row(name, 'find_tools').fits.recall5 < row(name, 'BM25').fits.recall5).map(({ name }) => name)
  const on = `${half.half} half, all ${all.tools} tools`
  return [
    [`recall@5 ≥ 0.85 (${on})`, all.fits.recall5 >= 0.85, all.fits.recall5.toFixed(2)],
    [`recall@1 ≥ 0.60 (${on})`, all.fits.recall1 >= 0.6, all.fits.recall1.toFixed(2)],
    [`recall@5 ≥ BM25 + 0.10 (${on})`, all.fits.recall5 >= bm25.fits.recall5 + 0.1, `${all.fits.recall5.toFixed(2)} against ${bm25.fits.recall5.toFixed(2)}`],
    [`no size below BM25 at @5 (${half.half} half)`, below.length === 0, below.length === 0 ? 'none below' : below.join(', ')],
    [`"nothing fits" said for 3 of 4 tasks no tool fits (${on})`, all.noneSaid >= 0.75, `${all.noneSaid.toFixed(2)} of ${all.none}`],
    [`"nothing fits" said for at most 1 in 20 tasks a tool fits (${on})`, all.fits.saidNothing <= 0.05, all.fits.saidNothing.toFixed(2)],
    [`a query under 10 ms median over all ${result.timing.tools} tools`, result.timing.median < 10, `${result.timing.median.toFixed(2)} ms`],
  ]
}
