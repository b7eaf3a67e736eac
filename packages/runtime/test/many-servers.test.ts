// Many servers as one: the names their tools are served by (`NAME__tool`, fitted to the strictest rule
// clients apply, two origins that come out the same refused), and replicas folded into one set.
import { fittedName, SERVED_NAME, servedName } from '@flatmcp/runtime/proxy'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { laneSlots, MAX_LANES } from '../src/proxy/serve/slots'
import { backlog } from '../src/util/backlog'
import { chosenReplica, foldedList } from '../src/proxy/upstream/many/replicas'
import { servedNames } from '../src/proxy/upstream/many/served-names'

describe('served names', () => {
  it('are the server\'s prefix, the separator and the tool\'s name; a prefix or separator the operator gives is used, an empty prefix serves the name alone', () => {
    expect(servedName('github', 'create_issue')).toBe('github__create_issue')
    expect(servedName('github', 'create_issue', { separator: '-' })).toBe('github-create_issue')
    expect(servedName('github', 'create_issue', { prefixes: { github: 'gh' } })).toBe('gh__create_issue')
    expect(servedName('github', 'create_issue', { prefixes: { github: '' } })).toBe('create_issue')
  })

  it('fit ^[A-Za-z_][A-Za-z0-9_-]{0,63}$ whatever the names, deterministically, long ones told apart by a digest', () => {
    expect(fittedName('my.server__get data')).toBe('my_server__get_data')
    expect(fittedName('1password__read')).toBe('_1password__read')
    const long = `${'a'.repeat(70)}_x`
    const other = `${'a'.repeat(70)}_y`
    expect(fittedName(long)).toHaveLength(64)
    expect(fittedName(long)).not.toBe(fittedName(other))
    fc.assert(fc.property(fc.string({ maxLength: 40 }), fc.string({ minLength: 1, maxLength: 120, unit: 'binary' }), (server, tool) => {
      const served = servedName(server, tool)
      return SERVED_NAME.test(served) && served === servedName(server, tool)
    }), { numRuns: 2000 })
  })

  it('two origins served by one name are refused, both named', () => {
    expect(() => servedNames([{ server: 'a.b', name: 'x' }, { server: 'a_b', name: 'x' }])).toThrow('tool "x" of server "a.b" and tool "x" of server "a_b" would both be served as "a_b__x": give one of the servers another prefix')
    expect([...servedNames([{ server: 'a', name: 'x' }, { server: 'b', name: 'x' }]).keys()]).toEqual(['a__x', 'b__x'])
  })
})

describe('replicas folded', () => {
  const tool = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, ...extra })

  it('one set of tools, each taking a required target whose enum names the replicas; a call\'s target chooses the replica and leaves its arguments', () => {
    const folded = foldedList('prom', ['prom-eu', 'prom-us'], [{ server: 'prom-eu', items: [tool('query')] }, { server: 'prom-us', items: [tool('query')] }])
    expect(folded).toEqual([{ name: 'query', inputSchema: { type: 'object', properties: { q: { type: 'string' }, target: { type: 'string', enum: ['prom-eu', 'prom-us'], description: 'Which prom to use: prom-eu, prom-us.' } }, required: ['q', 'target'] } }])
    expect(chosenReplica({ q: 'up', target: 'prom-us' }, ['prom-eu', 'prom-us'])).toEqual({ replica: 'prom-us', arguments: { q: 'up' } })
    expect(chosenReplica({ q: 'up' }, ['prom-eu', 'prom-us'])).toEqual({ error: '"target" must name one of "prom-eu", "prom-us".' })
    expect(chosenReplica({ q: 'up', target: 'prom-ap' }, ['prom-eu', 'prom-us'])).toEqual({ error: '"target" must name one of "prom-eu", "prom-us" (it was "prom-ap").' })
  })

  it('refuses replicas whose tools differ, or a tool that cannot take a target, naming it', () => {
    expect(() => foldedList('prom', ['a', 'b'], [{ server: 'a', items: [tool('query')] }, { server: 'b', items: [tool('query', { description: 'other' })] }])).toThrow('the replicas of "prom" differ, so they are not folded: "a" and "b" list tool "query" with different definitions')
    expect(() => foldedList('prom', ['a', 'b'], [{ server: 'a', items: [tool('query')] }, { server: 'b', items: [tool('query'), tool('write')] }])).toThrow('"b" lists tool "write", which "a" does not')
    expect(() => foldedList('prom', ['a', 'b'], [{ server: 'a', items: [{ name: 'u', inputSchema: { oneOf: [] } }] }])).toThrow('tool "u" has no plain object at the root of its input to add "target" to')
    expect(() => foldedList('prom', ['a', 'b'], [{ server: 'a', items: [tool('t', { inputSchema: { type: 'object', properties: { target: {} } } })] }])).toThrow('tool "t" has a parameter called "target" already')
  })
})

describe('call slots by lane', () => {
  it('each lane has its own running and waiting, whatever the others hold; lanes past the most kept share the unnamed lane', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', undefined), fc.boolean()), { maxLength: 60 }), async (steps) => {
      const lanes = laneSlots(2, 3)
      const held = new Map<string | undefined, (() => void)[]>()
      for (const [lane, take] of steps) {
        const slots = lanes(lane)
        const mine = held.get(lane) ?? []
        held.set(lane, mine)
        if (!take) {
          mine.shift()?.()
          continue
        }
        const before = { running: slots.running, waiting: slots.waiting }
        const taken = slots.take()
        // A lane with room grants at once, however full the others are; a full one refuses at once.
        if (before.running < 2)
          mine.push((await taken)!)
        else if (before.waiting >= 3)
          expect(await taken).toBeUndefined()
        else
          void taken.then(release => release && mine.push(release))
        expect(slots.running).toBeLessThanOrEqual(2)
        expect(slots.waiting).toBeLessThanOrEqual(3)
      }
    }), { numRuns: 300 })
    const lanes = laneSlots(1, 0)
    for (let i = 0; i < MAX_LANES; i++)
      lanes(`server${i}`)
    expect(lanes('one more')).toBe(lanes(undefined))
    expect(lanes('server7')).not.toBe(lanes(undefined))
  })
})

describe('a notification backlog', () => {
  it('holds at most its count and bytes, drops the rest, and says so at most once a backlog (with how many were dropped once it empties)', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constant(-1)), { maxLength: 200 }), (steps) => {
      const lines: string[] = []
      const admit = backlog({ count: 5, bytes: 1000 }, { full: () => lines.push('full'), drained: dropped => lines.push(`drained ${dropped}`) })
      const held: { release: () => void, bytes: number }[] = []
      let dropped = 0
      for (const step of steps) {
        if (step < 0) {
          held.shift()?.release()
          continue
        }
        const release = admit(step)
        if (release)
          held.push({ release, bytes: step })
        else
          dropped++
        expect(held.length).toBeLessThanOrEqual(5)
        expect(held.length <= 1 || held.reduce((sum, each) => sum + each.bytes, 0) <= 1000).toBe(true)
      }
      held.splice(0).forEach(each => each.release())
      // Within a minute: one line that it is full, and one with the drops once it emptied.
      expect(lines.length).toBe(dropped === 0 ? 0 : 2)
      expect(lines.slice(0, 1)).toEqual(dropped === 0 ? [] : ['full'])
      expect(Number(lines[1]?.slice('drained '.length) ?? 0)).toBeLessThanOrEqual(dropped)
    }), { numRuns: 500 })
  })
})
