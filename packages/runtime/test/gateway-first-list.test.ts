// A gateway's start (issue 70): the first list waits for the members still starting and reads each
// one once; a member that comes up, goes, or changes its list before that list takes which members
// are up is in it, and reads no list anew. After it, each such change is a list read anew.
import type { Member } from '../src/proxy/upstream/gateway/member'
import type { UpstreamClient } from '../src/proxy/upstream/upstream'
import { describe, expect, it } from 'vitest'
import { STARTING } from '../src/proxy/upstream/gateway/member'
import { mergedClient } from '../src/proxy/upstream/gateway/merged-client'

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
})
