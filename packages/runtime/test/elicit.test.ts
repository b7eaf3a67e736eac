// A handler asks the user for a value of any schema (`context.elicit`): the forms a real client
// gets are spec-valid, a union comes in rounds, the answers are rebuilt and parsed by the schema,
// a bad answer is asked again with the reason, and decline and cancel come back as such; on the
// MCP SDK 2.x (a 2025 session, and 2026-07-28 through input_required rounds) and 1.x. Where the
// client cannot be asked, `elicit` is undefined.
import type { ToolDefinition } from '@flatmcp/runtime'
import { compileForm } from '@flatmcp/core'
import { attachForm, defineTool, elicitForm } from '@flatmcp/runtime'
import { createMcpServer as createV1 } from '@flatmcp/runtime/sdk'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client } from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js'
import { ElicitRequestFormParamsSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { elicitValue } from '../src/elicit/ask'

const Address = z.object({ city: z.string().min(2), zip: z.string().optional() })
const Payment = z.discriminatedUnion('method', [
  z.object({ method: z.literal('card'), card: z.object({ number: z.string().regex(/^\d{4}$/), holder: z.string() }) }).describe('Pay by card'),
  z.object({ method: z.literal('invoice'), address: Address }).describe('Send an invoice'),
])

const pay: ToolDefinition = defineTool({
  name: 'pay',
  input: z.object({}),
  handler: async (_input, { elicit }) => elicit ? JSON.stringify(await elicit(Payment, 'How will you pay?')) : 'cannot ask',
}) as ToolDefinition

type Answer = { action: string, content?: Record<string, unknown> }
interface Asked { message: string, requestedSchema: { properties: Record<string, unknown> } }

/** A client that answers each form with the next scripted answer, and records what it was asked. */
async function askedThrough(sdk: 'v2' | 'v1', answers: Answer[], capable = true, era: 'legacy' | 'modern' = 'legacy'): Promise<{ call: () => Promise<string>, asked: Asked[] }> {
  const asked: Asked[] = []
  const answer = (params: unknown): Answer => {
    // The SDK's own schema for a form request keeps nothing it does not know: nothing may be dropped.
    const parsed = ElicitRequestFormParamsSchema.safeParse(params)
    expect(parsed.success).toBe(true)
    const { mode: _mode, ...rest } = params as Record<string, unknown>
    expect({ ...parsed.data, mode: undefined }).toEqual({ ...rest, mode: undefined })
    asked.push(params as Asked)
    return answers.shift() ?? { action: 'cancel' }
  }
  const capabilities = capable ? { elicitation: { form: {} } } : {}
  if (sdk === 'v2') {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    serveStdio(request => createMcpServer([pay], { name: 'pay', version: '1' }, { request }), { transport: serverSide })
    const client = new Client({ name: 'test', version: '1' }, { capabilities, versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } })
    if (capable)
      (client as unknown as { setRequestHandler: (method: string, handler: (request: { params: unknown }) => unknown) => void }).setRequestHandler('elicitation/create', request => answer(request.params))
    await client.connect(clientSide)
    return { asked, call: async () => ((await client.callTool({ name: 'pay', arguments: {} })).content as { text: string }[])[0]!.text }
  }
  const [clientSide, serverSide] = InMemoryV1.createLinkedPair()
  await createV1([pay], { name: 'pay', version: '1' }).connect(serverSide)
  const client = new ClientV1({ name: 'test', version: '1' }, { capabilities })
  if (capable)
    client.setRequestHandler(ElicitRequestSchema, request => answer(request.params) as never)
  await client.connect(clientSide)
  return { asked, call: async () => ((await client.callTool({ name: 'pay', arguments: {} })).content as { text: string }[])[0]!.text }
}

describe('elicitForm()', () => {
  it('validates as its schema does, and asks with the forms a build attached (no compiling)', async () => {
    const form = elicitForm(Payment, { name: 'payment' })
    expect(form['~standard'].validate({ method: 'invoice', address: { city: 'Oslo' } })).toEqual(Payment['~standard'].validate({ method: 'invoice', address: { city: 'Oslo' } }))
    const built = compileForm(Payment)
    built.first.requestedSchema.properties.method!.title = 'Paid how (as built)'
    attachForm(form, built)
    const asked: string[] = []
    const outcome = await elicitValue(async (params) => {
      asked.push(String((params.requestedSchema.properties.method as { title?: string } | undefined)?.title))
      return asked.length === 1 ? { action: 'accept', content: { method: 'invoice' } } : { action: 'accept', content: { 'address.city': 'Oslo' } }
    }, form, 'How?')
    expect(outcome).toEqual({ action: 'accept', value: { method: 'invoice', address: { city: 'Oslo' } } })
    expect(asked[0]).toBe('Paid how (as built)')
  })
})

describe.each(['v2', 'v1'] as const)('context.elicit on the MCP SDK %s', (sdk) => {
  it('asks a union in rounds (its tag as a titled choice, then the variant\'s fields) and gives the value the schema parses', async () => {
    const { call, asked } = await askedThrough(sdk, [{ action: 'accept', content: { method: 'invoice' } }, { action: 'accept', content: { 'address.city': 'Oslo' } }])
    expect(JSON.parse(await call())).toEqual({ action: 'accept', value: { method: 'invoice', address: { city: 'Oslo' } } })
    expect(asked.map(form => Object.keys(form.requestedSchema.properties))).toEqual([['method'], ['address.city', 'address.zip']])
    expect(asked[0]!.requestedSchema.properties.method).toEqual({ type: 'string', title: 'Method', oneOf: [{ const: 'card', title: 'Pay by card' }, { const: 'invoice', title: 'Send an invoice' }] })
    expect(asked[1]!.requestedSchema.properties['address.city']).toEqual({ type: 'string', minLength: 2, title: 'Address › City' })
  })

  it('asks again with the reason when the schema refuses the answer, and says invalid after the last attempt', async () => {
    const card = (number: string): Answer[] => [{ action: 'accept', content: { method: 'card' } }, { action: 'accept', content: { 'card.number': number, 'card.holder': 'Ada' } }]
    const fixed = await askedThrough(sdk, [...card('12x4'), ...card('1234')])
    expect(JSON.parse(await fixed.call())).toEqual({ action: 'accept', value: { method: 'card', card: { number: '1234', holder: 'Ada' } } })
    expect(fixed.asked).toHaveLength(4)
    expect(fixed.asked[2]!.message).toMatch(/^How will you pay\?\n\nThe last answer was not accepted: card\.number: /)
    const never = await askedThrough(sdk, [...card('a'), ...card('b'), ...card('c')])
    expect(JSON.parse(await never.call())).toMatchObject({ action: 'invalid', message: expect.stringMatching(/^card\.number: /) })
    expect(never.asked).toHaveLength(6)
  })

  it('a decline or a cancel comes back as such, at any round; a client without elicitation gets no elicit', async () => {
    expect(JSON.parse(await (await askedThrough(sdk, [{ action: 'decline' }])).call())).toEqual({ action: 'decline' })
    expect(JSON.parse(await (await askedThrough(sdk, [{ action: 'accept', content: { method: 'card' } }, { action: 'cancel' }])).call())).toEqual({ action: 'cancel' })
    expect(await (await askedThrough(sdk, [], false)).call()).toBe('cannot ask')
  })
})

describe('context.elicit in MCP 2026-07-28 (input_required rounds, the handler run again with the answers so far)', () => {
  it('asks a union in rounds, asks again with the reason, and reports decline', async () => {
    const rounds = await askedThrough('v2', [{ action: 'accept', content: { method: 'invoice' } }, { action: 'accept', content: { 'address.city': 'O' } }, { action: 'accept', content: { method: 'invoice' } }, { action: 'accept', content: { 'address.city': 'Oslo' } }], true, 'modern')
    expect(JSON.parse(await rounds.call())).toEqual({ action: 'accept', value: { method: 'invoice', address: { city: 'Oslo' } } })
    expect(rounds.asked.map(form => Object.keys(form.requestedSchema.properties))).toEqual([['method'], ['address.city', 'address.zip'], ['method'], ['address.city', 'address.zip']])
    expect(rounds.asked[2]!.message).toMatch(/The last answer was not accepted: address\.city: /)
    expect(JSON.parse(await (await askedThrough('v2', [{ action: 'decline' }], true, 'modern')).call())).toEqual({ action: 'decline' })
    expect(await (await askedThrough('v2', [], false, 'modern')).call()).toBe('cannot ask')
  })

  it('a forged round state is refused before the handler sees it: no answer the user never gave is replayed', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    let ran = 0
    const counted = { ...pay, handler: async (...args: Parameters<ToolDefinition['handler']>) => (ran++, pay.handler(...args)) } as ToolDefinition
    serveStdio(request => createMcpServer([counted], { name: 'pay', version: '1' }, { request }), { transport: serverSide })
    const answers: { id?: unknown, error?: { code: number, message: string }, result?: unknown }[] = []
    clientSide.onmessage = message => void answers.push(message as never)
    await clientSide.start()
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'forger', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } }
    // What an unsealed state looked like: the answers so far as JSON.
    const forged = JSON.stringify([{ action: 'accept', content: { method: 'invoice' } }, { action: 'accept', content: { 'address.city': 'Oslo' } }])
    for (const [id, requestState] of [[1, forged], [2, `v1.${Buffer.from('{"p":[],"exp":9999999999}').toString('base64url')}.AAAA`]] as const)
      await clientSide.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'pay', arguments: {}, _meta: meta, requestState, inputResponses: { ask2: { action: 'accept', content: { 'address.zip': '0150' } } } } } as never)
    await expect.poll(() => answers.length).toBe(2)
    for (const answer of answers)
      expect(answer.error, JSON.stringify(answer)).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' })
    expect(ran).toBe(0)
  })
})
