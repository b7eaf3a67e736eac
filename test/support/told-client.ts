// A client of an in-process proxy over an in-memory pair, counting the tool-list changes it is told of.
import type { createProxy } from '@flatmcp/runtime/proxy'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'

/** Connected to `proxy`'s server; `told()` is how many `notifications/tools/list_changed` it has heard. */
export async function toldClient(proxy: Awaited<ReturnType<typeof createProxy>>): Promise<{ client: Client, told: () => number }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await proxy.server().connect(serverSide)
  const client = new Client({ name: 'test', version: '1' })
  let told = 0
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    told++
  })
  await client.connect(clientSide)
  return { client, told: () => told }
}
