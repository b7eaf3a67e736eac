// A gateway's origins, kept while its list stands (issue 70): what the proxy hands out of them (a
// snapshot's `origin`, `proxy.snapshot()` for the caller to keep and edit) is not the map the next
// call's audit line and span name their server from.
import type { Member } from '../src/proxy/upstream/gateway/member'
import type { UpstreamClient } from '../src/proxy/upstream/upstream'
import { describe, expect, it } from 'vitest'
import { toSnapshot } from '../src/artifact/write'
import { mergedClient } from '../src/proxy/upstream/gateway/merged-client'

const fake = (tools: string[]): UpstreamClient => ({
  request: async (message: { method: string }) => message.method === 'tools/list' ? { tools: tools.map(name => ({ name, inputSchema: { type: 'object' } })) } : {},
  notification: async () => {},
  getServerCapabilities: () => ({ tools: {} }),
  getServerVersion: () => ({ name: 'x', version: '1' }),
  getInstructions: () => undefined,
  setNotificationHandler: () => {},
} as unknown as UpstreamClient)

describe('a gateway\'s origins, kept while its list stands', () => {
  it('are not changed by what a snapshot made of them is made to say', async () => {
    const members: Member[] = [{ name: 'files', client: fake(['read']), started: Promise.resolve() }, { name: 'web', client: fake(['fetch']), started: Promise.resolve() }]
    const client = mergedClient(members, { naming: {}, info: { name: 'gw', version: '1' }, listMs: 1000, log: () => {} })
    const listed = await client.request({ method: 'tools/list' }, undefined) as { tools: { name: string }[] }
    const served = listed.tools.map(tool => tool.name)
    expect(client.origins().get(served[0]!)?.server).toBe('files')
    // The snapshot a caller is handed (proxy.snapshot() makes it so) and edits: a redacted server name.
    const tools = served.map(name => ({ name, precomputed: { tool: { name, inputSchema: { type: 'object' } } }, upstream: null, diagnostics: [] }))
    const snapshot = toSnapshot(tools as never, { generator: 't', upstream: { name: 'gw', version: '1' }, preset: 'json-schema' as never, profiles: [], origins: client.origins() })
    const origin = (snapshot.runtime[served[0]!] as { origin?: { server: string } }).origin!
    origin.server = 'redacted'
    // The next call to that tool: its audit line and span name its server from origins().
    expect(client.origins().get(served[0]!)?.server).toBe('files')
  })
})
