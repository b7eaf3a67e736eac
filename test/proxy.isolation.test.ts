// Each server behind a gateway is a bulkhead: its calls take slots of its own, so calls stuck on one
// that hangs never hold up or crowd out another's, and a server that floods notifications while the
// client is not reading costs the proxy a bounded backlog, said once.
import type { CallToolResult } from '@modelcontextprotocol/client'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createGateway } from '@flatmcp/runtime/proxy'
import { describe, expect, it } from 'vitest'
import { ROOT } from './support/client'

const MISBEHAVING = join(ROOT, 'test/support/misbehaving-upstream.mjs')
const textOf = (result: unknown): string => (result as CallToolResult).content.map(part => (part as { text?: string }).text ?? '').join('')

describe('a gateway\'s members are bulkheads', () => {
  it('calls stuck on a server that never answers take its own slots: another server\'s call is answered at once, and only the stuck server\'s are refused past its queue', async () => {
    const gateway = await createGateway([
      { name: 'well', target: { command: [process.execPath, MISBEHAVING, 'well'] } },
      { name: 'stall', target: { command: [process.execPath, MISBEHAVING, 'stall'] } },
    ], { maxInFlight: 2, timeoutMs: 600_000, log: () => {} })
    const client = new Client({ name: 'isolation', version: '1' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await gateway.server().connect(serverSide)
    await client.connect(clientSide)
    try {
      await gateway.ready
      await expect.poll(() => [...gateway.tools().keys()].sort(), { timeout: 30_000 }).toEqual(['stall__echo', 'well__echo'])
      // 2 running and 8 waiting is the stuck server's room: the 11th call is refused at once, naming it.
      const stuck = Array.from({ length: 11 }, (_, i) => client.callTool({ name: 'stall__echo', arguments: { text: `${i}` } }, { timeout: 600_000 }).catch((error: unknown) => error))
      const refused = await Promise.race(stuck) as CallToolResult
      expect(refused.isError).toBe(true)
      expect(textOf(refused)).toBe('The server "stall" behind this proxy has 2 requests in flight and 8 waiting, its limit; try again shortly.')
      // The well server's call takes slots of its own.
      expect(textOf(await client.callTool({ name: 'well__echo', arguments: { text: 'hi' } }))).toBe('{"text":"hi"}')
      for (let i = 0; i < 3; i++)
        expect(textOf(await client.callTool({ name: 'well__echo', arguments: { text: `${i}` } }))).toBe(`{"text":"${i}"}`)
    }
    finally {
      await client.close()
      await gateway.close()
    }
  })
})
