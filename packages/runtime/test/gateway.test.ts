// Many servers as one: the names their tools are served by (`NAME__tool`, fitted to the strictest rule
// clients apply), the one name map between them and each server's own names, and replicas folded into one set.
import { fittedName, SERVED_NAME, servedName } from '@flatmcp/runtime/proxy'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { laneSlots, MAX_LANES } from '../src/proxy/serve/slots'
import { backlog } from '../src/util/backlog'
import { chosenReplica, foldedList } from '../src/proxy/upstream/gateway/replicas'
import { digest8 } from '../src/proxy/upstream/gateway/served-names'
import { nameMap, namespaceClash } from '../src/proxy/upstream/name-map'

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

  it('the name map: a name listed twice is served once, two that fit to one are told apart by digests, a name under another\'s prefix is left out, each said', () => {
    const said: string[] = []
    const map = nameMap([
      { server: 'bad', names: ['dup', 'dup', 'a.b', 'a_b', 'a b', 'ok'] },
      { server: 'free', names: ['bad__ok', 'bad__x', 'own'] },
    ], { naming: { prefixes: { free: '' } }, tell: line => said.push(line) })
    expect([...map.entries()].map(([served]) => served)).toEqual(['bad__dup', `bad__a_b_${digest8('bad__a.b')}`, 'bad__a_b', `bad__a_b_${digest8('bad__a b')}`, 'bad__ok', 'own'])
    expect(map.origin('bad__a_b')).toEqual({ server: 'bad', name: 'a_b' })
    expect(map.served('bad', 'a.b')).toBe(`bad__a_b_${digest8('bad__a.b')}`)
    expect(map.served('bad', 'dup')).toBe('bad__dup')
    expect(map.origin('bad__x')).toBeUndefined()
    expect(map.claimant('bad__x')).toBe('bad')
    expect(map.claimant('own')).toBeUndefined()
    expect(said).toEqual([
      'flatmcp proxy: server "bad" lists tool "dup" 2 times; the first is served, the others left out',
      'flatmcp proxy: server "free" lists tool "bad__ok", which would be served as "bad__ok", under the prefix of server "bad"; it is left out',
      'flatmcp proxy: server "free" lists tool "bad__x", which would be served as "bad__x", under the prefix of server "bad"; it is left out',
    ])
    // A name made to take a digest form another already has: both left out, said.
    const taken = `x__${digest8('x.')}`
    const crafted = nameMap([{ server: 'h', names: ['x.', 'x_', taken, 'y'] }], { naming: { prefixes: { h: '' } }, tell: line => said.push(line) })
    expect([...crafted.entries()].map(([served]) => served)).toEqual(['x_', 'y'])
    expect(said.at(-1)).toBe(`flatmcp proxy: server "h" lists tools "x." and "${taken}", which would all be served as "${taken}"; they are left out`)
    // A list of a thousand bad names is a few lines and a count.
    said.length = 0
    nameMap([{ server: 'big', names: Array.from({ length: 1000 }, (_, i) => [`t${i}`, `t${i}`]).flat() }], { naming: {}, tell: line => said.push(line) })
    expect(said).toHaveLength(11)
    expect(said.at(-1)).toBe('flatmcp proxy: server "big": 990 more of its names left out or told apart, not said one by one')
    expect(namespaceClash(['a.b', 'a_b'], {})).toBe('servers "a.b" and "a_b" would serve their tools under one prefix ("a_b__"): give one of them another prefix')
    expect(namespaceClash(['a', 'b'], {})).toBeUndefined()
    // A prefix given to a server the config does not have is refused, the closest named: a typo would drop it silently.
    expect(namespaceClash(['memory', 'files'], { prefixes: { memroy: 'kg' } })).toBe('the overrides give server "memroy" a prefix, and no server of the config is called so (did you mean "memory"?)')
  })

  it('property: every served name fits, is unique and maps back to its origin only; none reaches another server; a server keeps what it keeps whatever the others list', () => {
    const piece = fc.constantFrom('a', 'b', 'x', 'gh', '.', ' ', '__', '_', '-', '1', 'é', 'Z')
    const word = (most: number): fc.Arbitrary<string> => fc.array(piece, { minLength: 1, maxLength: most }).map(parts => parts.join(''))
    const tool = fc.oneof(
      { weight: 4, arbitrary: word(5).map(name => ({ name })) },
      { weight: 1, arbitrary: fc.string({ minLength: 60, maxLength: 90 }).map(name => ({ name })) },
      // A name under another server's prefix (or its own), by index.
      { weight: 2, arbitrary: fc.tuple(fc.nat(), word(3)).map(([ref, rest]) => ({ ref, rest })) },
    )
    const member = fc.record({ name: word(3), prefix: fc.option(fc.oneof(fc.constant(''), fc.stringMatching(/^[\w-]{1,5}$/)), { nil: undefined }), tools: fc.array(tool, { maxLength: 8 }) })
    const config = fc.record({ separator: fc.constantFrom('__', '_', '-', 'x'), members: fc.uniqueArray(member, { selector: m => m.name, minLength: 1, maxLength: 4 }) })
    fc.assert(fc.property(config, ({ separator, members }) => {
      const prefixes = Object.fromEntries(members.filter(m => m.prefix !== undefined).map(m => [m.name, m.prefix!]))
      const naming = { separator, prefixes }
      const servers = members.map(m => m.name)
      if (namespaceClash(servers, naming) !== undefined)
        return true
      const lists = members.map(m => ({ server: m.name, names: m.tools.map(t => 'name' in t ? t.name : `${prefixes[members[t.ref % members.length]!.name] ?? members[t.ref % members.length]!.name}${separator}${t.rest}`) }))
      const map = nameMap(lists, { naming, servers })
      const entries = [...map.entries()]
      expect(new Set(entries.map(([served]) => served)).size).toBe(entries.length)
      for (const [served, origin] of entries) {
        expect(served).toMatch(SERVED_NAME)
        expect(map.served(origin.server, origin.name)).toBe(served)
        expect(map.origin(served)).toEqual(origin)
        // No served name is under another server's prefix.
        expect([undefined, origin.server]).toContain(map.claimant(served))
      }
      for (const list of lists) {
        // What one server keeps is its list's alone: the same with every other list empty, or in another order.
        const alone = nameMap(lists.map(other => other === list ? other : { ...other, names: [] }), { naming, servers })
        const reversed = nameMap([...lists].reverse(), { naming, servers })
        for (const name of list.names) {
          expect(alone.served(list.server, name)).toBe(map.served(list.server, name))
          expect(reversed.served(list.server, name)).toBe(map.served(list.server, name))
        }
        // A name it lists once that fits as it stands, and that no other prefix claims, is served.
        const plain = servedName(list.server, list.names[0] ?? '', naming)
        if (list.names.length === 1 && map.claimant(plain) === (prefixes[list.server] === '' ? undefined : list.server))
          expect(map.served(list.server, list.names[0]!)).toBe(plain)
      }
      return true
    }), { numRuns: 1500 })
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
