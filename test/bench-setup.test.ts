// The bench's own checks, pure: a section's setup checks (a list of 3 tools where 303 were meant is
// off, and says so naming the section), the one table of sections `--only` and `--help` read, and
// the targets table's split of a target into name and goal. No benchmark is run.
import { describe, expect, it } from 'vitest'
import { benchArgs, benchHelp } from '../bench/bench-args'
import { SECTIONS } from '../bench/sections'
import { atHand, everyTool, listed, servesSurface, setupOff, surfaceOf } from '../bench/setup-checks'
import { leftAligned, splitGoal, targetRows, targetsHeader, targetsSummary } from '../bench/targets-table'

const tools = (count: number, prefix = 'member__tool'): string[] => Array.from({ length: count }, (_, at) => `${prefix}_${at}`)
const SEARCH = ['find_tools', 'describe_tools', 'call_tool']

describe('a section\'s setup checks', () => {
  it('fail a full list of 3 tools where 303 were meant, the line naming the section and the count', () => {
    const check = everyTool('the gateway\'s full list (--surface full)', SEARCH, 303)
    expect(check.ok).toBe(false)
    expect(setupOff('gateway', [check])).toEqual(['setup off in gateway: the gateway\'s full list (--surface full): 3 of 303 tools'])
  })

  it('pass a list holding every tool once, and fail one listing a tool twice', () => {
    expect(everyTool('list', tools(303), 303).ok).toBe(true)
    const twice = everyTool('list', [...tools(302), 'member__tool_0'], 303)
    expect(twice).toMatchObject({ ok: false, found: '302 of 303 tools (1 listed twice)' })
    expect(everyTool('list', [], 0).ok).toBe(false)
  })

  it('tell the surface a list is, and fail a surface that is not the one named', () => {
    expect(surfaceOf(tools(303), 303)).toBe('full')
    expect(surfaceOf(SEARCH, 303)).toBe('search')
    expect(surfaceOf([...SEARCH, 'member__pinned'], 303)).toBe('search')
    expect(surfaceOf(tools(10), 303)).toBe('neither')
    expect(servesSurface('--surface search', SEARCH, 303, 'search').ok).toBe(true)
    expect(servesSurface('--surface search', tools(303), 303, 'search')).toMatchObject({ ok: false, found: 'the full surface, not search' })
    expect(servesSurface('--surface full', SEARCH, 303, 'full')).toMatchObject({ ok: false, found: 'the search surface, not full' })
  })

  it('fail where a name a measurement calls is not listed, and where an input is not at hand', () => {
    expect(listed('members', ['well__echo'], ['well__echo', 'hangs__echo'])).toMatchObject({ ok: false, found: 'not listed: hangs__echo' })
    expect(listed('members', ['well__echo'], ['well__echo']).ok).toBe(true)
    expect(atHand('the suites', undefined, 'not here')).toMatchObject({ ok: false, found: 'not here' })
    expect(atHand('the suites', [], 'not here').ok).toBe(true)
    expect(setupOff('peers', [atHand('the suites', [], 'x')])).toEqual([])
  })
})

describe('the table of sections', () => {
  const names = SECTIONS.map(section => section.name)

  it('names each section once, with its tables and what it measures', () => {
    expect(new Set(names).size).toBe(names.length)
    for (const section of SECTIONS)
      expect(section.numbers.length * section.about.length).toBeGreaterThan(0)
    expect(names).toEqual(expect.arrayContaining(['gateway', 'npm-servers', 'serve']))
  })

  it('drives --only: the sections asked, in the table\'s order; none asked is all of them', () => {
    expect(benchArgs([], SECTIONS)).toEqual({ only: names })
    expect(benchArgs(['--only', 'gateway,serve'], SECTIONS)).toEqual({ only: ['serve', 'gateway'] })
    expect(benchArgs(['--only=npm-servers'], SECTIONS)).toEqual({ only: ['npm-servers'] })
  })

  it('refuses an unknown name, or none, with the list of sections', () => {
    for (const argv of [['--only', 'gatway'], ['--only', ''], ['--only']]) {
      const answer = benchArgs(argv, SECTIONS)
      expect(answer).toHaveProperty('error')
      expect((answer as { error: string }).error).toContain(names.join(', '))
    }
    expect(benchArgs(['--fast'], SECTIONS)).toHaveProperty('error')
  })

  it('drives --help: every section\'s name, tables and line', () => {
    expect(benchArgs(['--help'], SECTIONS)).toEqual({ help: true })
    const help = benchHelp(SECTIONS)
    expect(help).toContain('--only')
    for (const section of SECTIONS)
      expect(help).toMatch(new RegExp(`^  ${section.name} +${section.numbers} +${section.about.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'))
  })
})

describe('the targets table', () => {
  it('splits a target into its name and its goal where the comparison begins', () => {
    expect(splitGoal('coercer ≤ 2 KB min+gzip')).toEqual({ name: 'coercer', goal: '≤ 2 KB min+gzip' })
    expect(splitGoal('tools/list at 100 tools through a real client ≥ 40× faster than the SDK')).toEqual({ name: 'tools/list at 100 tools through a real client', goal: '≥ 40× faster than the SDK' })
    expect(splitGoal('tools/list in every profile within 1.2× of the pre-serialized limit')).toEqual({ name: 'tools/list in every profile', goal: 'within 1.2× of the pre-serialized limit' })
    expect(splitGoal('portable no heavier than FastMCP\'s own output on FastMCP\'s inputs').goal).toBe('no heavier than FastMCP\'s own output on FastMCP\'s inputs')
    expect(splitGoal('no tool lost through the proxy')).toEqual({ name: 'no tool lost through the proxy', goal: '(as named)' })
  })

  it('has a row per target and per setup that was off, a header with the machine and both loads, and a closing count', () => {
    const rows = targetRows([{ section: 'size', what: 'coercer ≤ 2 KB min+gzip', met: true, figure: '1212 B' }, { section: 'install', what: 'the coercer ≤ 1 KB min+gzip', met: false, figure: '1156 B' }], ['setup off in gateway: x: 3 of 303 tools'])
    expect(rows).toEqual([['coercer', '1212 B', '≤ 2 KB min+gzip', 'met'], ['the coercer', '1156 B', '≤ 1 KB min+gzip', 'MISSED'], ['setup off in gateway: x: 3 of 303 tools', '', '', 'SETUP OFF']])
    expect(leftAligned([['a', 'bb', 'c'], ['ccc', 'd', 'e']])).toEqual(['a    bb  c', 'ccc  d   e'])
    expect(targetsHeader({ cores: 2, cpu: 'AMD EPYC', node: 'v20', load: { start: [1, 2, 3], end: [4, 5, 6] } })).toContain('2 × AMD EPYC, node v20; load average 1.00 2.00 3.00 at the start, 4.00 5.00 6.00 at the end')
    expect(targetsSummary([{ section: 's', what: 'w', met: true, figure: '' }], ['off'])).toBe('1 of 1 targets met; 1 setup check off: the run fails')
  })
})
