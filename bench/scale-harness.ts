// The pure parts of the benchmark at a large operator's scale (bench/scale.bench.ts): the catalogue's
// sub-catalogues per size bucket, the tasks' loader, the rankers' common face and the metrics. Nothing
// here starts a server or reads a file.
import type { McpTool } from '../packages/runtime/src/artifact/format'
import { fittedName } from '../packages/runtime/src/proxy/upstream/gateway/served-names'
import { createRandom } from '../packages/unplugin/src/core/check/sample'

/** One server of the catalogue: a unique id, where its list comes from, its field, its tools as it lists them. */
export interface ScaleServer { id: string, source: string, field: string, tools: McpTool[] }

/** One task phrasing: any one of `tools` (`server id:tool name`) does the whole job; none where no tool fits. */
export interface ScaleTask { id?: string, task: string, tools: string[], kind: 'fits' | 'none' | 'second-language', half: 'tuning' | 'held-out', batch: number }

/** What a ranker answers: the served names best first, and whether it says nothing fits. */
export interface Answer { names: string[], nothingFits: boolean }

/** Each served name's server and own name there, as the gateway's origin map gives them. */
export type OriginOf = (servedName: string) => { server: string, name: string } | undefined

/** A ranker, built once per sub-catalogue: the tools as a gateway serves them, and the gateway's origin map. */
export type ScaleRanker = (tools: McpTool[], originOf: OriginOf) => (query: string, limit: number) => Answer

const KINDS = ['fits', 'none', 'second-language'] as const
const HALVES = ['tuning', 'held-out'] as const

/** The catalogue sizes scored: the task's own server(s) alone, then about 300 and 1,000 tools, then every server. */
export const BUCKETS = [
  { name: 'one server', size: 0 },
  { name: '~300', size: 300 },
  { name: '~1,000', size: 1000 },
  { name: 'all', size: Number.POSITIVE_INFINITY },
] as const

/** The name a gateway serves a server's tool by. */
export const servedAs = (server: string, tool: string): string => fittedName(`${server}__${tool}`)

/** A task's servers: those its tools belong to. */
export const serversOfTask = (task: ScaleTask): string[] => [...new Set(task.tools.map(id => id.slice(0, id.indexOf(':'))))]

/**
 * The tasks of a tasks file, each checked against the catalogue: its kind and half legal, each tool it
 * names there, tools named where a tool fits and none where none does. Throws naming the first bad task,
 * so a typo fails the run instead of scoring as a miss.
 */
export function loadTasks(json: unknown, servers: readonly ScaleServer[]): ScaleTask[] {
  const known = new Set(servers.flatMap(server => server.tools.map(tool => `${server.id}:${tool.name}`)))
  const tasks = (json as { tasks?: unknown }).tasks
  if (!Array.isArray(tasks))
    throw new Error('the tasks file has no `tasks` array')
  return tasks.map((entry: Partial<ScaleTask>, at) => {
    const refuse = (why: string): never => {
      throw new Error(`task ${at + 1} (${JSON.stringify(entry?.task ?? null)}): ${why}`)
    }
    if (typeof entry?.task !== 'string' || entry.task.trim() === '')
      refuse('no task text')
    if (!KINDS.includes(entry.kind!))
      refuse(`kind ${JSON.stringify(entry.kind)} is none of ${KINDS.join(', ')}`)
    if (!HALVES.includes(entry.half!))
      refuse(`half ${JSON.stringify(entry.half)} is none of ${HALVES.join(', ')}`)
    if (typeof entry.batch !== 'number' || !Number.isInteger(entry.batch))
      refuse('batch is no whole number')
    if (!Array.isArray(entry.tools) || entry.tools.some(id => typeof id !== 'string'))
      refuse('tools is no array of "server:tool" names')
    const unknown = entry.tools!.filter(id => !known.has(id))
    if (unknown.length > 0)
      refuse(`names tools the catalogue does not hold: ${unknown.join(', ')}`)
    if ((entry.kind === 'none') !== (entry.tools!.length === 0))
      refuse(entry.kind === 'none' ? 'kind none names tools' : 'names no tool, yet its kind is not none')
    return { ...(typeof entry.id === 'string' ? { id: entry.id } : {}), task: entry.task!, tools: entry.tools!, kind: entry.kind!, half: entry.half!, batch: entry.batch! }
  })
}

/** The catalogue's servers in one fixed order drawn from `seed` (Fisher–Yates over their ids' sorted order). */
export function fixedOrder(servers: readonly ScaleServer[], seed = 66): ScaleServer[] {
  const order = [...servers].sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  const random = createRandom(seed)
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!]
  }
  return order
}

/**
 * A sub-catalogue of `size` tools or just past it: the task's own servers, then the others in the
 * fixed order until the size is reached; listed in the fixed order, so the own servers get no place
 * of their own in ties. Size 0 is the own servers alone.
 */
export function subCatalogue(order: readonly ScaleServer[], own: readonly string[], size: number): ScaleServer[] {
  const chosen = new Set(own)
  let tools = order.filter(server => chosen.has(server.id)).reduce((sum, server) => sum + server.tools.length, 0)
  for (const server of order) {
    if (tools >= size)
      break
    if (!chosen.has(server.id)) {
      chosen.add(server.id)
      tools += server.tools.length
    }
  }
  return order.filter(server => chosen.has(server.id))
}

/** A sub-catalogue as a gateway serves it: each tool under its served name, and the origin map from served name to server. */
export function served(servers: readonly ScaleServer[]): { tools: McpTool[], originOf: OriginOf } {
  const origin = new Map<string, { server: string, name: string }>()
  const tools = servers.flatMap(server => server.tools.map((tool) => {
    const name = servedAs(server.id, tool.name)
    origin.set(name, { server: server.id, name: tool.name })
    return { ...tool, name }
  }))
  return { tools, originOf: name => origin.get(name) }
}

/** Recall at 1 and 5 and MRR over tasks a tool fits; how often the ranker wrongly said nothing fits. */
export interface FitScores { tasks: number, recall1: number, recall5: number, mrr: number, saidNothing: number }

/** One task's answer beside what answers it. */
export interface Judged { task: ScaleTask, answer: Answer }

/** The scores of answers to tasks a tool fits: found is finding any one of the task's tools. */
export function fitScores(judged: readonly Judged[]): FitScores {
  let recall1 = 0
  let recall5 = 0
  let mrr = 0
  let saidNothing = 0
  for (const { task, answer } of judged) {
    const wanted = new Set(task.tools.map(id => servedAs(id.slice(0, id.indexOf(':')), id.slice(id.indexOf(':') + 1))))
    const first = answer.names.findIndex(name => wanted.has(name))
    recall1 += first === 0 ? 1 : 0
    recall5 += first >= 0 && first < 5 ? 1 : 0
    mrr += first === -1 ? 0 : 1 / (first + 1)
    saidNothing += answer.nothingFits ? 1 : 0
  }
  const n = judged.length || Number.NaN
  return { tasks: judged.length, recall1: recall1 / n, recall5: recall5 / n, mrr: mrr / n, saidNothing: saidNothing / n }
}

/** The share of tasks no tool fits where the ranker said so. */
export function nothingFitsShare(judged: readonly Judged[]): number {
  return judged.filter(({ answer }) => answer.nothingFits).length / (judged.length || Number.NaN)
}
