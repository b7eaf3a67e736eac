// A gateway's start (issue 70): the first list waits for the members still starting and reads each
// one once; a member that comes up, goes, or changes its list before that list takes which members
// are up is in it, and reads no list anew. After it, each such change is a list read anew. And each
// member's list is read within the list timeout as a whole, however many pages it sends.
import type { Member } from '../src/proxy/upstream/gateway/member'
import type { UpstreamClient } from '../src/proxy/upstream/upstream'
import { createProxy } from '@flatmcp/runtime/proxy'
import { describe, expect, it, vi } from 'vitest'
import { STARTING } from '../src/proxy/upstream/gateway/member'
import { mergedClient } from '../src/proxy/upstream/gateway/merged-client'
import { toldClient } from '../../../test/support/told-client'

/** A member's client listing `tools`, each of its lists counted in `lists`. */
const fake = (tools: string[], lists: string[], name: string): UpstreamClient => ({
  request: async (message: { method: string }) => {
    if (message.method !== 'tools/list')
      return {}
    lists.push(name)
    return { tools: tools.map(tool => ({ name: tool, inputSchema: { type: 'object' } })) }
  },
  notification: async () => {},
  getServerCapabilities: () => ({ tools: {} }),
  getServerVersion: () => ({ name, version: '1' }),
  getInstructions: () => undefined,
  setNotificationHandler: () => {},
} as unknown as UpstreamClient)

/** `fake`, its lists answered only once `gate` settles (each counted as it is asked for). */
const held = (tools: string[], lists: string[], name: string, gate: Promise<void>): UpstreamClient => {
  const client = fake(tools, lists, name)
  const request = client.request.bind(client)
  return { ...client, request: async (...args: Parameters<UpstreamClient['request']>) => {
    const answer = request(...args)
    await gate
    return answer
  } } as UpstreamClient
}

/** A member still starting, and what ends its first try (`settle`). */
function starting(name: string): { member: Member, settle: () => void } {
  let settle = (): void => {}
  const member: Member = { name, down: STARTING, started: new Promise<void>(resolve => settle = resolve) }
  return { member, settle }
}

describe('a gateway\'s first list', () => {
  it('reads each member once, whatever came up or changed before it took which are up; a change after it reads the list anew', async () => {
    const lists: string[] = []
    const files = starting('files')
    const web = starting('web')
    const gone = starting('gone')
    const client = mergedClient([files.member, web.member, gone.member], { naming: {}, info: { name: 'gw', version: '1' }, listMs: 5000, log: () => {} })
    const readAnew: string[] = []
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      readAnew.push('list')
    })
    const up = (at: { member: Member, settle: () => void }, tools: string[]): void => {
      at.member.client = fake(tools, lists, at.member.name)
      at.member.down = undefined
      client.membersChanged()
      at.settle()
    }
    up(files, ['read'])
    // A member's own list_changed, and a member that comes up and goes, all before the first list.
    client.changed()
    up(gone, ['lost'])
    gone.member.client = undefined
    gone.member.down = 'it ended'
    client.membersChanged()
    const first = client.request({ method: 'tools/list' }, undefined) as Promise<{ tools: { name: string }[] }>
    // Up while the first list waits for the members still starting: it is in that list.
    up(web, ['fetch'])
    const listed = await first
    expect(listed.tools).toHaveLength(2)
    expect([...client.origins().values()].map(origin => origin.server).sort()).toEqual(['files', 'web'])
    await client.settled()
    expect(readAnew).toEqual([])
    expect(lists.sort()).toEqual(['files', 'web'])
    // After the first list: a member that goes, and one that changes its list, are each read anew.
    web.member.client = undefined
    web.member.down = 'it ended'
    client.membersChanged()
    await client.settled()
    client.changed()
    expect(readAnew).toEqual(['list', 'list'])
  })

  it('reads anew for a member up only once the first list has taken which are up (its start outlasting the wait), and for a list_changed sent while its list of that read is in flight', async () => {
    const lists: string[] = []
    const files = starting('files')
    const slow = starting('slow')
    const client = mergedClient([files.member, slow.member], { naming: {}, info: { name: 'gw', version: '1' }, listMs: 20, log: () => {} })
    const readAnew: string[] = []
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      readAnew.push('list')
    })
    let answer = (): void => {}
    files.member.client = held(['read'], lists, 'files', new Promise<void>(resolve => answer = resolve))
    files.member.down = undefined
    client.membersChanged()
    files.settle()
    const first = client.request({ method: 'tools/list' }, undefined) as Promise<{ tools: { name: string }[] }>
    // The wait ends at listMs with "slow" still starting; "files" is asked for its list.
    await vi.waitFor(() => expect(lists).toEqual(['files']))
    client.changed()
    expect(readAnew).toEqual(['list'])
    slow.member.client = fake(['fetch'], lists, 'slow')
    slow.member.down = undefined
    client.membersChanged()
    slow.settle()
    expect(readAnew).toEqual(['list', 'list'])
    answer()
    expect((await first).tools.map(tool => tool.name)).toEqual(['files__read'])
    await client.settled()
    const again = await client.request({ method: 'tools/list' }, undefined) as { tools: { name: string }[] }
    expect(again.tools.map(tool => tool.name).sort()).toEqual(['files__read', 'slow__fetch'])
  })

  it('behind the proxy: a client connected before the first list is served a member up during that list\'s read, and told once', async () => {
    const lists: string[] = []
    const files = starting('files')
    const late = starting('late')
    const merged = mergedClient([files.member, late.member], { naming: {}, info: { name: 'gw', version: '1' }, listMs: 20, log: () => {} })
    let answer = (): void => {}
    files.member.client = held(['read'], lists, 'files', new Promise<void>(resolve => answer = resolve))
    files.member.down = undefined
    merged.membersChanged()
    files.settle()
    const proxy = await createProxy(merged, { wait: 'connection', log: () => {} })
    const { client, told } = await toldClient(proxy)
    const names = async (): Promise<string[]> => (await client.listTools()).tools.map(tool => tool.name).sort()
    const firstServed = names()
    await vi.waitFor(() => expect(lists).toEqual(['files']))
    late.member.client = fake(['fetch'], lists, 'late')
    late.member.down = undefined
    merged.membersChanged()
    late.settle()
    answer()
    expect(await firstServed).toEqual(['files__read'])
    await proxy.ready
    expect(await names()).toEqual(['files__read', 'late__fetch'])
    await vi.waitFor(() => expect(told()).toBe(1))
    await client.close()
  })
})

describe('a member\'s list over many pages', () => {
  it('is read within the list timeout as a whole, not per page: one that pages on slowly is restarted, the others served', async () => {
    const restarted: string[] = []
    const timeoutError = (): Error => Object.assign(new Error('Request timed out'), { code: -32001 })
    // Each page in 60% of the timeout, always with a next: timed per page, it would go on for 100 pages.
    let pages = 0
    const paging = {
      ...fake([], [], 'slow'),
      request: (message: { params?: { cursor?: string } }, _schema: unknown, options?: { timeout?: number }) => new Promise((resolve, reject) => {
        const page = Number(message.params?.cursor ?? 0)
        pages++
        const answer = setTimeout(() => resolve({ tools: [{ name: `t${page}`, inputSchema: { type: 'object' } }], nextCursor: String(page + 1) }), 60)
        setTimeout(() => {
          clearTimeout(answer)
          reject(timeoutError())
        }, options?.timeout ?? 1e9)
      }),
    } as unknown as UpstreamClient
    const members: Member[] = [
      { name: 'slow', client: paging, started: Promise.resolve(), restart: why => restarted.push(why) },
      { name: 'web', client: fake(['fetch'], [], 'web'), started: Promise.resolve() },
    ]
    const client = mergedClient(members, { naming: {}, info: { name: 'gw', version: '1' }, listMs: 100, log: () => {} })
    const listed = await client.request({ method: 'tools/list' }, undefined) as { tools: { name: string }[] }
    expect(pages).toBeLessThanOrEqual(2)
    expect(listed.tools.map(tool => tool.name)).toEqual(['web__fetch'])
    expect(restarted).toEqual(['did not list its tools within 0.1 s'])
  })
})
