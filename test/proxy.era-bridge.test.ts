// `flatmcp proxy` in front of a server that speaks only MCP 2026-07-28 and asks its questions in the
// rounds of a call (`input_required`; test/support/rounds-upstream.ts, the real SDK 2.x server), with
// real clients over stdio: an SDK 1.x client (the 2025 era, as Codex is) asked each question as an
// `elicitation/create` request, or told in a tool error where it offers no elicitation; an SDK 2.x
// client in the 2026-07-28 era asked in its own rounds; and what a hostile server or client does
// (questions for ever, a huge one, one never answered, an answer to nothing asked) ends the call,
// never the proxy.
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI, startListening } from './support/proxy'
import { upstreamCommand } from './support/upstream-builds'

const PROXY = [CLI, 'proxy', '--', ...await upstreamCommand('rounds')]
type Result = { isError?: boolean, content: { type: string, text: string }[] }
type Answer = (message: string) => Promise<{ action: string, content?: Record<string, unknown> }>

const opened: { close: () => Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map(client => client.close()))
})

/** An SDK 1.x client of the proxy, answering forms with `answer` where given (else offering no elicitation). */
async function legacyClient(answer?: Answer, flags: string[] = []): Promise<Client> {
  const client = new Client({ name: 'codex-like', version: '1' }, { capabilities: answer ? { elicitation: {} } : {} })
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, request => answer(request.params.message))
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', ...flags, ...PROXY.slice(2)], cwd: ROOT, stderr: 'pipe' }))
  opened.push(client)
  return client
}

/** An SDK 2.x client of the proxy over stdio in the 2026-07-28 era that answers no round itself: each round comes back to the test. */
async function manualClient(): Promise<ClientV2> {
  const client = new ClientV2({ name: 'manual', version: '1' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { autoFulfill: false } })
  await client.connect(new StdioClientTransportV2({ command: process.execPath, args: PROXY, cwd: ROOT, stderr: 'pipe' }))
  opened.push(client)
  return client
}

type Round = Result & { resultType?: string, inputRequests?: Record<string, unknown>, requestState?: string }

/** One round of a call: its result, or the questions it asks and the state to call again with. */
const round = async (client: ClientV2, params: Record<string, unknown>): Promise<Round> =>
  await (client.callTool as (params: unknown, options: unknown) => Promise<Round>)(params, { allowInputRequired: true, timeout: 10_000 })

const call = async (client: Client | ClientV2, name: string, args: Record<string, unknown> = {}): Promise<Result> =>
  await (client.callTool as (params: unknown) => Promise<Result>)({ name, arguments: args })

describe('flatmcp proxy bridges a 2026-07-28-only server\'s questions to a client of either era', () => {
  it('an SDK 1.x client with elicitation is asked the question as elicitation/create, and the call completes with its answer', async () => {
    const asked: string[] = []
    const client = await legacyClient(async (message) => {
      asked.push(message)
      return { action: 'accept', content: { name: 'Ada' } }
    })
    const result = await call(client, 'confirm', { question: 'Who are you?' })
    expect(result.isError).toBeFalsy()
    expect(JSON.parse(result.content[0]!.text)).toEqual({ action: 'accept', content: { name: 'Ada' } })
    expect(asked).toEqual(['Who are you?'])
    // A decline reaches the server as a decline.
    const declined = await legacyClient(async () => ({ action: 'decline' }))
    expect(JSON.parse((await call(declined, 'confirm', { question: 'Who?' })).content[0]!.text)).toEqual({ action: 'decline', content: null })
  })

  it('an SDK 1.x client without elicitation gets a tool error naming the question, not a protocol error', async () => {
    const client = await legacyClient()
    const result = await call(client, 'confirm', { question: 'Who are you?' })
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toContain('needs an answer from the user that this client cannot give')
    expect(result.content[0]!.text).toContain('\'name\' (elicitation/create)')
  })

  it('an SDK 2.x client in the 2026-07-28 era is asked in the rounds of its own call, and its answer reaches the server', async () => {
    const client = new ClientV2({ name: 'modern', version: '1' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
    const asked: string[] = []
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(String(request.params.message))
      return { action: 'accept', content: { name: 'Grace' } }
    })
    await client.connect(new StdioClientTransportV2({ command: process.execPath, args: PROXY, cwd: ROOT, stderr: 'pipe' }))
    opened.push(client)
    const result = await call(client, 'confirm', { question: 'And you?' })
    expect(JSON.parse(result.content[0]!.text)).toEqual({ action: 'accept', content: { name: 'Grace' } })
    expect(asked).toEqual(['And you?'])
  })
})

describe('the era bridge is bounded: neither a hostile server nor a client stalls or stops the proxy', () => {
  it('a server asking round after round is stopped at 64 questions, a question or round state over 10 MiB is not passed on, and the proxy serves on', async () => {
    let asked = 0
    const client = await legacyClient(async () => {
      asked++
      return { action: 'accept', content: { name: 'Ada' } }
    })
    const pestered = await call(client, 'pester')
    expect(pestered.isError).toBe(true)
    expect(pestered.content[0]!.text).toContain('went on asking past 64 questions (or rounds) in one call, the last elicitation/create ("q65"): "question 65"')
    expect(asked).toBe(64)
    const huge = await call(client, 'huge')
    expect(huge.isError).toBe(true)
    expect(huge.content[0]!.text).toContain('a question over 10 MiB, which is not passed on')
    expect(asked).toBe(64)
    // The limit counts bytes: 6 Mi characters of two bytes each are 12 MiB.
    const wide = await call(client, 'wide')
    expect(wide.isError).toBe(true)
    expect(wide.content[0]!.text).toContain('a question over 10 MiB, which is not passed on')
    expect(asked).toBe(64)
    // A round state is held while the client answers and sent back: bounded as a question is.
    const bloated = await call(client, 'bloat')
    expect(bloated.isError).toBe(true)
    expect(bloated.content[0]!.text).toContain('a round state (requestState) over 10 MiB, which is not kept')
    expect(asked).toBe(64)
    // 64 rounds of pester, one each of huge, wide and bloat, and the proxy still answers.
    expect((await call(client, 'rounds')).content[0]!.text).toBe('68')
  })

  it('rounds that ask nothing are paced as the SDK paces them and stopped after 10: a server asking only to be called again spins no core, and other calls are served meanwhile', async () => {
    const client = await legacyClient(async () => ({ action: 'accept', content: { name: 'Ada' } }))
    let done = false
    const spun = call(client, 'spin').finally(() => {
      done = true
    })
    // Other calls are served while it goes on, and find it still going after two rounds.
    let rounds = 0
    while (rounds < 2)
      rounds = Number((await call(client, 'rounds')).content[0]!.text)
    expect(done).toBe(false)
    const result = await spun
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toContain('went on past 10 rounds that asked nothing but to be called again in one call')
    // Its first answer and 10 rounds more, not 64.
    expect((await call(client, 'rounds')).content[0]!.text).toBe('11')
  })

  it('a question never answered ends its call within the time limit with a tool error naming it; an answer to nothing asked is ignored', async () => {
    const client = await legacyClient(() => new Promise(() => {}), ['--timeout', '1000'])
    const result = await call(client, 'confirm', { question: 'Anyone there?' })
    expect(result.isError).toBe(true)
    expect(result.content[0]!.text).toContain('asked elicitation/create ("name"): "Anyone there?", and the client did not answer it')
    // A response to a request the proxy never sent: nothing goes upstream, and calls go on.
    await (client.transport as StdioClientTransport).send({ jsonrpc: '2.0', id: 4242, result: { action: 'accept', content: { name: 'Mallory' } } })
    expect((await call(client, 'rounds')).content[0]!.text).toBe('1')
  })
})

describe('a question goes only to the caller of the call that asked it', () => {
  it('over stdio, a 2026-07-28 client with two calls in flight is asked each question in the rounds of the call that asked it, not the newest', async () => {
    const client = await manualClient()
    // A's call asks once B's call, sent after it, is waiting too: the newest call waiting is B's.
    const a = round(client, { name: 'later', arguments: { question: 'for A only', ms: 1000 } })
    await new Promise(resolve => setTimeout(resolve, 200))
    const b = round(client, { name: 'wait', arguments: { ms: 2000 } })
    const asked = await a
    expect(asked.resultType).toBe('input_required')
    const [key, question] = Object.entries(asked.inputRequests!)[0]!
    expect((question as { params: { message: string } }).params.message).toBe('for A only')
    expect(await b).toMatchObject({ content: [{ text: 'waited' }] })
    const answered = await round(client, { name: 'later', arguments: { question: 'for A only', ms: 1000 }, inputResponses: { [key]: { action: 'accept', content: { name: 'Ann' } } }, requestState: asked.requestState })
    expect(answered).toMatchObject({ content: [{ text: '{"name":"Ann"}' }] })
  })

  it('a 2026-07-28 client calling again with a made-up or spent requestState starts a call of its own: its answers reach no question asked', async () => {
    const client = await manualClient()
    const confirm = { name: 'confirm', arguments: { question: 'Who are you?' } }
    const asked = await round(client, confirm)
    expect(asked.resultType).toBe('input_required')
    const mallory = { q0: { action: 'accept', content: { name: 'Mallory' } } }
    // A state the proxy never gave, shaped as its own are: the call is made anew and asks again.
    const madeUp = await round(client, { ...confirm, inputResponses: mallory, requestState: `q1:${crypto.randomUUID()}` })
    expect(madeUp.resultType).toBe('input_required')
    expect(madeUp.requestState).not.toBe(asked.requestState)
    // The question first asked still waits for its own caller, whose answer completes it.
    expect(await round(client, { ...confirm, inputResponses: { q0: { action: 'accept', content: { name: 'Ada' } } }, requestState: asked.requestState })).toMatchObject({ content: [{ text: '{"action":"accept","content":{"name":"Ada"}}' }] })
    // A state answered once is spent: calling again with it starts anew.
    expect((await round(client, { ...confirm, inputResponses: mallory, requestState: asked.requestState })).resultType).toBe('input_required')
  })

  it('over --http, where no client keeps a session, a hostile server\'s question reaches no client: its call fails naming it, another caller\'s newer call is untouched', async () => {
    const served = await startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--env', 'ASKS_ANYWAY=1', ...PROXY.slice(2)], ROOT)
    opened.push(served)
    const modern = async (name: string, asked: string[]): Promise<ClientV2> => {
      const client = new ClientV2({ name, version: '1' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } })
      client.setRequestHandler('elicitation/create', (request) => {
        asked.push(String(request.params.message))
        return { action: 'accept', content: { name } }
      })
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)))
      opened.push(client)
      return client
    }
    const asked: string[] = []
    const a = await modern('Ann', asked)
    const b = await modern('Bob', asked)
    // A's call asks once B's call, sent after it, is waiting too: the newest call waiting is B's.
    const called = call(a, 'later', { question: 'for A only', ms: 1000 })
    await new Promise(resolve => setTimeout(resolve, 200))
    const waited = call(b, 'wait', { ms: 2000 })
    const failed = await called
    expect(failed.isError).toBe(true)
    expect(failed.content[0]!.text).toContain('asked elicitation/create ("name"): "for A only", and the client did not answer it (no client behind this proxy keeps a session')
    expect(await waited).toMatchObject({ content: [{ text: 'waited' }] })
    expect(asked).toEqual([])
  })
})
