// The pure parts of the retrieval benchmark at scale (bench/scale-harness.ts, bench/scale-rankers.ts):
// its sub-catalogues per size, its tasks' loader, its metrics, on a tiny made-up catalogue. No server
// is started, nothing is read from the network.
import type { McpTool } from '../packages/runtime/src/artifact/format'
import type { Judged, ScaleServer, ScaleTask } from '../bench/scale-harness'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fitScores, fixedOrder, loadTasks, nothingFitsShare, served, servedAs, subCatalogue } from '../bench/scale-harness'
import { regexRanker } from '../bench/scale-rankers'

const tool = (name: string, description = `${name.replaceAll('_', ' ')}.`): McpTool => ({ name, description, inputSchema: { type: 'object' } })
const server = (id: string, count: number, field = 'cloud'): ScaleServer => ({ id, source: 'made up', field, tools: Array.from({ length: count }, (_, at) => tool(`tool_${at}`)) })
const CATALOGUE = Array.from({ length: 30 }, (_, at) => server(`s${at}`, 10 + (at % 7) * 10))
const size = (servers: readonly ScaleServer[]): number => servers.reduce((sum, one) => sum + one.tools.length, 0)

describe('the sub-catalogue of a size bucket', () => {
  const order = fixedOrder(CATALOGUE)

  it('is the same on every build, whatever order the catalogue comes in', () => {
    expect(fixedOrder([...CATALOGUE].reverse()).map(one => one.id)).toEqual(order.map(one => one.id))
    expect(subCatalogue(order, ['s17'], 300).map(one => one.id)).toEqual(subCatalogue(fixedOrder(CATALOGUE), ['s17'], 300).map(one => one.id))
    expect(order.map(one => one.id)).not.toEqual(CATALOGUE.map(one => one.id))
  })

  it('holds the task\'s servers and reaches its size with the fewest servers of the fixed order', () => {
    for (const own of [['s3'], ['s29', 's0'], [order.at(-1)!.id]]) {
      for (const wanted of [300, 1000]) {
        const chosen = subCatalogue(order, own, wanted)
        expect(chosen.map(one => one.id)).toEqual(expect.arrayContaining(own))
        expect(size(chosen)).toBeGreaterThanOrEqual(wanted)
        // Without the last server of the fixed order it took (not the task's), it would fall short.
        const last = [...chosen].reverse().find(one => !own.includes(one.id))!
        expect(size(chosen) - last.tools.length).toBeLessThan(wanted)
      }
    }
  })

  it('is the task\'s servers alone at size 0, and every server at the largest', () => {
    expect(subCatalogue(order, ['s5', 's6'], 0).map(one => one.id).sort()).toEqual(['s5', 's6'])
    expect(subCatalogue(order, [], Number.POSITIVE_INFINITY)).toHaveLength(CATALOGUE.length)
    expect(subCatalogue(order, [], 0)).toEqual([])
  })

  it('serves each tool as `id__tool` and maps it back to its server by the origin map, not the name', () => {
    const { tools, originOf } = served([server('a__b', 1), server('a', 1)])
    expect(tools.map(one => one.name)).toEqual(['a__b__tool_0', 'a__tool_0'])
    expect(originOf('a__b__tool_0')).toEqual({ server: 'a__b', name: 'tool_0' })
    expect(originOf('a__tool_0')).toEqual({ server: 'a', name: 'tool_0' })
  })
})

describe('the tasks loader', () => {
  const servers = [server('cloud', 2)]
  const task = (over: Record<string, unknown>): unknown => ({ tasks: [{ task: 'start the thing', tools: ['cloud:tool_0'], kind: 'fits', half: 'tuning', batch: 1 }, { task: 'make coffee', tools: [], kind: 'none', half: 'held-out', batch: 1, ...over }] })

  it('reads legal tasks', () => {
    expect(loadTasks(task({}), servers).map(one => one.kind)).toEqual(['fits', 'none'])
  })

  it.each([
    [{ tools: ['cloud:tool_9'], kind: 'fits' }, /task 2 \("make coffee"\): names tools the catalogue does not hold: cloud:tool_9/],
    [{ tools: ['clod:tool_0'], kind: 'fits' }, /clod:tool_0/],
    [{ kind: 'maybe' }, /task 2 .*kind "maybe"/],
    [{ half: 'training' }, /task 2 .*half "training"/],
    [{ batch: '1' }, /batch/],
    [{ task: '' }, /no task text/],
    [{ tools: ['cloud:tool_0'] }, /kind none names tools/],
    [{ kind: 'second-language' }, /names no tool/],
  ])('refuses %j, naming the task', (over, message) => {
    expect(() => loadTasks(task(over), servers)).toThrow(message)
  })

  it('refuses a file without tasks, and holds the committed tasks file to the same rules', () => {
    expect(() => loadTasks({}, servers)).toThrow(/no `tasks` array/)
    const file = JSON.parse(readFileSync(new URL('../bench/data/scale-tasks.json', import.meta.url), 'utf8')) as { about: string, tasks: unknown[] }
    expect(file.about).toMatch(/held-out/)
    expect(Array.isArray(file.tasks)).toBe(true)
  })
})

describe('the metrics', () => {
  const fits = (tools: string[]): ScaleTask => ({ task: 'x', tools, kind: 'fits', half: 'tuning', batch: 1 })
  const answer = (names: string[], nothingFits = false): Judged['answer'] => ({ names, nothingFits })

  it('score recall@1, recall@5 and MRR on any one of a task\'s tools', () => {
    const judged: Judged[] = [
      { task: fits(['a:x']), answer: answer([servedAs('a', 'x'), 'b__y']) },
      { task: fits(['a:x', 'b:y']), answer: answer(['c__z', 'd__w', servedAs('b', 'y')]) },
      { task: fits(['a:x']), answer: answer(['1', '2', '3', '4', '5', servedAs('a', 'x')]) },
      { task: fits(['a:x']), answer: answer([], true) },
    ]
    const scores = fitScores(judged)
    expect(scores.tasks).toBe(4)
    expect(scores.recall1).toBeCloseTo(1 / 4)
    expect(scores.recall5).toBeCloseTo(2 / 4)
    expect(scores.mrr).toBeCloseTo((1 + 1 / 3 + 1 / 6) / 4)
    expect(scores.saidNothing).toBeCloseTo(1 / 4)
  })

  it('count how often nothing fits is said where nothing does, and leave an empty group unscored', () => {
    const none = (said: boolean): Judged => ({ task: { task: 'x', tools: [], kind: 'none', half: 'tuning', batch: 1 }, answer: answer([], said) })
    expect(nothingFitsShare([none(true), none(false), none(true), none(true)])).toBeCloseTo(3 / 4)
    expect(nothingFitsShare([])).toBeNaN()
    expect(fitScores([]).recall5).toBeNaN()
  })

  it('rank by the regex baseline: distinct words of the query matched in name and description, ties in list order', () => {
    const tools = [tool('a__list_buckets', 'List storage buckets.'), tool('b__delete_bucket', 'Delete a storage bucket and its objects.'), tool('c__send_mail', 'Send an email.')]
    const rank = regexRanker(tools, () => undefined)
    expect(rank('delete the storage bucket', 5)).toEqual({ names: ['b__delete_bucket', 'a__list_buckets'], nothingFits: false })
    expect(rank('(.*)', 5).names).toEqual([])
  })
})
