// The record `onCall` hears (issue 70 made its `time` an accessor): `ObservedCall.time` is a plain,
// writable `string` as its type says, so whatever a user's `onCall` does with the record (prints it,
// stamps it, copies it) sees the time as it did when it was a string made at once.
import type { ObservedCall } from '@flatmcp/runtime/server'
import { defineTool } from '@flatmcp/runtime'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const add = defineTool({ name: 'add', input: z.object({ a: z.number(), b: z.number() }), handler: ({ a, b }) => String(a + b) })

async function heardCall(onCall: (call: ObservedCall) => void): Promise<void> {
  const client = new Client({ name: 't', version: '1' })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await Promise.all([createMcpServer([add], { name: 's', version: '1' }, { onCall }).connect(serverSide), client.connect(clientSide)])
  await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })
  await client.close()
}

describe('the time of the record onCall hears', () => {
  it('is a string property, printed and written as one', async () => {
    const heard: ObservedCall[] = []
    await heardCall(call => heard.push(call))
    const [call] = heard
    const descriptor = Object.getOwnPropertyDescriptor(call, 'time')
    expect(typeof descriptor?.value).toBe('string')
    // What `console.log(call)` prints, in an onCall of the user's.
    expect(inspect(call)).toContain(call!.time)
  })

  it('can be set by an onCall (the type says `time: string`, not readonly)', async () => {
    const errors: unknown[] = []
    await heardCall((call) => {
      try {
        // A user's onCall stamping the record its own way (seconds only) before keeping it.
        call.time = call.time.slice(0, 19)
      }
      catch (error) {
        errors.push(error)
      }
    })
    expect(errors).toEqual([])
  })
})
