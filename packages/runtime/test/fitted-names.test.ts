// An upstream's tool whose name no client takes is served fitted, and said once on stderr. The name is
// the upstream's to choose: one of megabytes must not make a line of megabytes in the operator's log.
import type { UpstreamClient } from '../src/proxy/upstream/upstream'
import { describe, expect, it } from 'vitest'
import { withFittedNames } from '../src/proxy/upstream/fitted-names'

/** An upstream listing `names`, each called back by its own name. */
function upstream(names: readonly string[]): UpstreamClient {
  return {
    request: async message => message.method === 'tools/list' ? { tools: names.map(name => ({ name, inputSchema: { type: 'object' } })) } : { called: message.params?.name },
    notification: async () => {},
    getServerCapabilities: () => ({ tools: {} }),
    getServerVersion: () => ({ name: 'hostile', version: '1' }),
    getInstructions: () => undefined,
    setNotificationHandler: () => {},
  }
}

describe('a tool name the upstream chose', () => {
  it('of 10 MB is served fitted and called back whole, and the line saying so is short', async () => {
    const huge = `a${'x'.repeat(10_000_000)}`
    const lines: string[] = []
    const client = withFittedNames(upstream([huge, 'ok']), line => lines.push(line))
    const { tools } = await client.request({ method: 'tools/list', params: {} }, undefined) as { tools: { name: string }[] }
    const served = tools[0]!.name
    expect(served.length).toBeLessThanOrEqual(64)
    expect(await client.request({ method: 'tools/call', params: { name: served } }, undefined)).toEqual({ called: huge })
    expect(lines).toHaveLength(1)
    expect(lines[0]!.length).toBeLessThan(400)
    expect(lines[0]).toContain(`is served as "${served}"`)
  })
})

describe('where a served name comes from (origins, asked by each traced or audited call)', () => {
  it('is the same map until a list replaces it, then the new list\'s', async () => {
    let names = ['files.delete', 'ok']
    const base = upstream([])
    const client = withFittedNames({ ...base, request: async message => message.method === 'tools/list' ? { tools: names.map(name => ({ name, inputSchema: { type: 'object' } })) } : { called: message.params?.name } }, () => {})
    await client.request({ method: 'tools/list', params: {} }, undefined)
    const first = client.origins!()
    expect([...first]).toEqual([['files_delete', { server: 'hostile', name: 'files.delete' }]])
    // Asked again with nothing listed since: the map made before, not a copy of the list each call.
    expect(client.origins!()).toBe(first)
    names = ['files.delete', 'a b']
    await client.request({ method: 'tools/list', params: {} }, undefined)
    const second = client.origins!()
    expect(second).not.toBe(first)
    expect([...second.keys()].sort()).toEqual(['a_b', 'files_delete'])
  })
})
