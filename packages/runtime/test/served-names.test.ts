// The names many servers' tools are served by: `NAME__tool`, fitted to the strictest rule clients
// apply, the same every time, and two origins that come out the same refused with both named.
import { fittedName, SERVED_NAME, servedName } from '@flatmcp/runtime/proxy'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
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
