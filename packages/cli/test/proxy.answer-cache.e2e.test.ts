// `flatmcp proxy --artifact` over stdio keeps its first answers (initialize, the first tools/list) in the
// user's cache folder and gives them at its next start with the same command line before the proxy
// loads; the proxy then answers the same requests itself, sends nothing twice, and tells the client of
// a list that differs. Each test has a cache folder of its own (XDG_CACHE_HOME), spoken to over raw
// JSON-RPC lines so every line the client gets is seen.
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI, runCli, UPSTREAM_V2 } from '../../../test/support/proxy'
import { SLOW } from '../../../test/support/timeouts'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-answers-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const snapshot = path.join(scratch, 'upstream.mcp.json')
beforeAll(async () => {
  const made = await runCli(['snapshot', '--out', snapshot, '--', ...UPSTREAM_V2])
  expect(made.code, made.stderr).toBe(0)
})

const CACHED_LINE = 'initialize and tools/list answered from the answer cache before the proxy loaded'
const INITIALIZE_PARAMS = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'answers-test', version: '1' } }

interface Message { id?: number, method?: string, result?: Record<string, unknown>, error?: unknown }

/** A raw stdio session with the proxy: lines sent, every message received kept in order. */
class Session {
  readonly received: Message[] = []
  stderr = ''
  readonly child: ChildProcessWithoutNullStreams
  private readonly exited: Promise<number | null>
  private buffer = ''
  private waiting: (() => void)[] = []

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [CLI, ...args], { cwd: scratch, env: { ...process.env, ...env } })
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString()
      for (let end = this.buffer.indexOf('\n'); end !== -1; end = this.buffer.indexOf('\n')) {
        this.received.push(JSON.parse(this.buffer.slice(0, end)) as Message)
        this.buffer = this.buffer.slice(end + 1)
      }
      for (const wake of this.waiting.splice(0)) wake()
    })
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString()
    })
    this.exited = new Promise(resolve => this.child.once('close', resolve))
  }

  send(message: object): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
  }

  /** The first message received that `match` accepts (waiting up to 30 s). */
  async next(match: (message: Message) => boolean): Promise<Message> {
    const bound = Date.now() + 30_000
    for (;;) {
      const found = this.received.find(match)
      if (found)
        return found
      if (Date.now() > bound)
        throw new Error(`no such message in 30 s; received ${JSON.stringify(this.received)}; stderr ${this.stderr}`)
      await new Promise<void>(resolve => this.waiting.push(resolve) && setTimeout(resolve, 200))
    }
  }

  answer(id: number): Promise<Message> {
    return this.next(message => message.id === id && message.method === undefined)
  }

  /** Ends the client's input; the proxy's exit code. */
  async end(): Promise<number | null> {
    this.child.stdin.end()
    return this.exited
  }
}

/** A cache folder of its own for a test: XDG_CACHE_HOME, and where the entries go. */
function cacheOf(name: string): { env: Record<string, string>, entries: () => string[] } {
  const home = path.join(scratch, name)
  const answers = path.join(home, 'flatmcp', 'answers')
  return { env: { XDG_CACHE_HOME: home }, entries: () => existsSync(answers) ? readdirSync(answers).filter(file => file.endsWith('.json')).map(file => path.join(answers, file)) : [] }
}

/** Waits (up to 30 s) for `check` to hold. */
async function eventually(check: () => boolean): Promise<void> {
  const bound = Date.now() + 30_000
  while (!check()) {
    if (Date.now() > bound)
      throw new Error('not within 30 s')
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

const ARGS = ['proxy', '--log-level', 'debug', '--artifact', snapshot, '--', ...UPSTREAM_V2]

/** A client's whole session: initialize, initialized, tools/list, one call; what it got, and the proxy's exit code. */
async function session(env: Record<string, string>, clientInfo = INITIALIZE_PARAMS.clientInfo, args = ARGS): Promise<{ initialize: Message, list: Message, call: Message, stderr: string, code: number | null, received: Message[] }> {
  const client = new Session(args, env)
  client.send({ id: 1, method: 'initialize', params: { ...INITIALIZE_PARAMS, clientInfo } })
  const initialize = await client.answer(1)
  client.send({ method: 'notifications/initialized' })
  client.send({ id: 2, method: 'tools/list', params: {} })
  const list = await client.answer(2)
  client.send({ id: 3, method: 'tools/call', params: { name: 'send', arguments: { kind: 'message', text: 'hi' } } })
  const call = await client.answer(3)
  const code = await client.end()
  return { initialize, list, call, stderr: client.stderr, code, received: client.received }
}

/** A cache folder of its own with the answers of one whole session kept in it. */
async function keptFor(name: string): Promise<ReturnType<typeof cacheOf>> {
  const cache = cacheOf(name)
  await session(cache.env)
  await eventually(() => cache.entries().length === 1)
  return cache
}

describe('flatmcp proxy keeps its first answers for its next start', () => {
  it('a second start with the same command line answers initialize and tools/list from the cache, once each, as the first start did; calls go through', async () => {
    const cache = cacheOf('same')
    const first = await session(cache.env)
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).not.toContain(CACHED_LINE)
    await eventually(() => cache.entries().length === 1)
    const entry = JSON.parse(readFileSync(cache.entries()[0]!, 'utf8')) as { files: { path: string }[], answers: { method: string }[] }
    expect(entry.files.map(file => file.path)).toEqual([snapshot])
    expect(entry.answers.map(answer => answer.method)).toEqual(['initialize', 'tools/list'])

    const second = await session(cache.env)
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toContain(CACHED_LINE)
    expect(second.initialize).toEqual(first.initialize)
    expect(second.list).toEqual(first.list)
    expect(second.call).toEqual(first.call)
    expect((second.list.result!.tools as unknown[]).length).toBeGreaterThan(0)
    // Each request answered once: the proxy's own answers to what was answered early are not sent.
    expect(second.received.filter(message => message.id !== undefined).map(message => message.id)).toEqual([1, 2, 3])
    expect(second.received.filter(message => message.method === 'notifications/tools/list_changed')).toEqual([])
  }, SLOW)

  it('answers that differ from the proxy\'s own are told: the client hears its list changed, and the entry is made again', async () => {
    const cache = await keptFor('differs')
    const file = cache.entries()[0]!
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { answers: { method: string, result: string }[] }
    const list = entry.answers.find(answer => answer.method === 'tools/list')!
    const right = list.result
    list.result = JSON.stringify({ tools: [] })
    writeFileSync(file, JSON.stringify(entry))
    const stale = await session(cache.env)
    expect(stale.stderr).toContain(CACHED_LINE)
    expect(stale.list.result).toEqual({ tools: [] })
    expect(stale.received.filter(message => message.method === 'notifications/tools/list_changed')).toHaveLength(1)
    expect(stale.stderr).toContain('this start\'s answer to tools/list differs from the one kept from an earlier start and given ahead; the client is told its tool list changed')
    await eventually(() => (JSON.parse(readFileSync(file, 'utf8')) as typeof entry).answers.find(answer => answer.method === 'tools/list')!.result === right)
  }, SLOW)

  it('a changed snapshot, another client, FLATMCP_DISABLE_ANSWER_CACHE, or a cache folder others can write to: no answer from the cache', async () => {
    const cache = await keptFor('changed')
    // Another client (its initialize differs): the proxy answers it, and keeps its answers in place of the first's.
    const other = await session(cache.env, { name: 'another-client', version: '2' })
    expect(other.stderr).not.toContain(CACHED_LINE)
    expect(other.code).toBe(0)
    // A snapshot whose bytes changed: answered by the proxy, then kept anew.
    const changed = path.join(scratch, 'changed.mcp.json')
    writeFileSync(changed, readFileSync(snapshot, 'utf8'))
    const args = ['proxy', '--log-level', 'debug', '--artifact', changed, '--', ...UPSTREAM_V2]
    await session(cache.env, undefined, args)
    await eventually(() => cache.entries().length === 2)
    expect((await session(cache.env, undefined, args)).stderr).toContain(CACHED_LINE)
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}\n `)
    expect((await session(cache.env, undefined, args)).stderr).not.toContain(CACHED_LINE)

    const off = cacheOf('off')
    await session({ ...off.env, FLATMCP_DISABLE_ANSWER_CACHE: '1' })
    expect(off.entries()).toEqual([])

    const shared = cacheOf('shared')
    mkdirSync(path.join(scratch, 'shared', 'flatmcp', 'answers'), { recursive: true })
    chmodSync(path.join(scratch, 'shared', 'flatmcp', 'answers'), 0o777)
    const open = await session(shared.env)
    expect(open.code, open.stderr).toBe(0)
    expect(shared.entries()).toEqual([])
  }, SLOW)

  it('a call before tools/list: initialize is answered early and the call goes to the proxy; input that ends at once still ends the proxy cleanly', async () => {
    const cache = await keptFor('call-first')
    const client = new Session(ARGS, cache.env)
    client.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS })
    await client.answer(1)
    client.send({ method: 'notifications/initialized' })
    client.send({ id: 7, method: 'tools/call', params: { name: 'send', arguments: { kind: 'message', text: 'first' } } })
    const call = await client.answer(7)
    expect(call.error, JSON.stringify(call)).toBeUndefined()
    client.send({ id: 8, method: 'tools/list', params: {} })
    expect((await client.answer(8)).result!.tools).toBeInstanceOf(Array)
    expect(await client.end()).toBe(0)
    expect(client.stderr).toContain('flatmcp proxy: initialize answered from the answer cache before the proxy loaded')

    const brief = new Session(ARGS, cache.env)
    brief.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS })
    brief.send({ method: 'notifications/initialized' })
    brief.send({ id: 2, method: 'tools/list', params: {} })
    const code = await brief.end()
    expect(code, brief.stderr).toBe(0)
    expect(brief.stderr).toContain(CACHED_LINE)
    expect(brief.received.map(message => message.id)).toEqual([1, 2])
  }, SLOW)

  it('a client that gives tools/list the id of its initialize gets one answer to each, the list from the proxy', async () => {
    const cache = await keptFor('same-id')
    const client = new Session(ARGS, cache.env)
    client.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS })
    await client.answer(1)
    client.send({ method: 'notifications/initialized' })
    client.send({ id: 1, method: 'tools/list', params: {} })
    await client.next(message => Array.isArray(message.result?.tools))
    expect(await client.end()).toBe(0)
    expect(client.stderr).toContain('flatmcp proxy: initialize answered from the answer cache before the proxy loaded')
    expect(client.received.map(message => message.id ?? message.method)).toEqual([1, 1])
  }, SLOW)

  it('a callers file that held only limits, then a rule that denies a tool: the tool is not listed from the cache', async () => {
    const cache = cacheOf('callers')
    const callers = path.join(scratch, 'callers.json')
    writeFileSync(callers, JSON.stringify({ callers: { stdio: { callsPerMinute: 600 } } }))
    const args = ['proxy', '--callers', callers, '--artifact', snapshot, '--', ...UPSTREAM_V2]
    const first = await session(cache.env, undefined, args)
    expect((first.list.result!.tools as { name: string }[]).map(tool => tool.name)).toContain('page')
    await eventually(() => cache.entries().length === 1)
    writeFileSync(callers, JSON.stringify({ callers: { stdio: { callsPerMinute: 600, deny: ["page"] } } }))
    const denied = await session(cache.env, undefined, args)
    expect((denied.list.result!.tools as { name: string }[]).map(tool => tool.name)).not.toContain('page')
    expect(denied.received.filter(message => message.method === 'notifications/tools/list_changed')).toEqual([])
  }, SLOW)

  it('the log level is not part of the key: a start at debug is answered from what a start at info kept, and says why when nothing is', async () => {
    const cache = cacheOf('log-level')
    const quiet = ['proxy', '--artifact', snapshot, '--', ...UPSTREAM_V2]
    const first = await session(cache.env, undefined, ARGS)
    expect(first.stderr).toContain('flatmcp proxy: nothing answered from the answer cache: none kept for this command line')
    await eventually(() => cache.entries().length === 1)
    expect((await session(cache.env, undefined, quiet)).stderr).not.toContain('answer cache')
    expect((await session(cache.env, undefined, ['proxy', '--log-level=debug', '--artifact', snapshot, '--', ...UPSTREAM_V2])).stderr).toContain(CACHED_LINE)
    const other = await session(cache.env, { name: 'another-client', version: '2' })
    expect(other.stderr).toContain('flatmcp proxy: nothing answered from the answer cache: the client\'s initialize is not the one whose answer was kept (another client, or another version of it)')
  }, SLOW)

  it('what the proxy would refuse or not answer as kept is left to it: a request without jsonrpc, params that are null, a second initialized; a start that stops answers nothing', async () => {
    const cache = await keptFor('refused')
    const bare = new Session(ARGS, cache.env)
    bare.child.stdin.write(`${JSON.stringify({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS })}\n`)
    const refused = await bare.answer(1)
    expect(await bare.end()).toBe(0)
    expect(refused.error, JSON.stringify(refused)).toBeDefined()
    expect(bare.stderr).not.toContain('differs')

    const nullParams = new Session(ARGS, cache.env)
    nullParams.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS })
    await nullParams.answer(1)
    nullParams.send({ method: 'notifications/initialized' })
    nullParams.send({ id: 2, method: 'tools/list', params: null })
    expect((await nullParams.answer(2)).error).toBeDefined()
    expect(await nullParams.end()).toBe(0)
    expect(nullParams.received.map(message => message.id ?? message.method)).toEqual([1, 2])

    const chatty = new Session(ARGS, cache.env)
    chatty.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS })
    for (let line = 0; line < 70; line++)
      chatty.send({ method: 'notifications/initialized' })
    chatty.send({ id: 2, method: 'tools/list', params: {} })
    await chatty.answer(2)
    expect(await chatty.end()).toBe(0)
    expect(chatty.received.map(message => message.id ?? message.method)).toEqual([1, 2])

    // The audit log's folder went since the answers were kept: the start stops (exit 2), and the client got nothing first.
    const folder = path.join(scratch, 'audit-folder')
    mkdirSync(folder)
    const audited = [...ARGS.slice(0, 3), '--audit-log', path.join(folder, 'audit.jsonl'), ...ARGS.slice(3)]
    await session(cache.env, undefined, audited)
    await eventually(() => cache.entries().length === 2)
    expect((await session(cache.env, undefined, audited)).stderr).toContain(CACHED_LINE)
    rmSync(folder, { recursive: true })
    const stopped = new Session(audited, cache.env)
    stopped.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS })
    expect(await stopped.end()).toBe(2)
    expect(stopped.received).toEqual([])
  }, SLOW)

  it('keeps nothing where its answers are not the snapshot\'s alone: overrides given, or no snapshot', async () => {
    const cache = cacheOf('not-ahead')
    const overrides = path.join(scratch, 'overrides.json')
    writeFileSync(overrides, JSON.stringify({ tools: { page: { params: { limit: { fix: 5 } } } } }))
    const client = new Session(['proxy', '--overrides', overrides, '--artifact', snapshot, '--', ...UPSTREAM_V2], cache.env)
    client.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS })
    await client.answer(1)
    client.send({ id: 2, method: 'tools/list', params: {} })
    await client.answer(2)
    await new Promise(resolve => setTimeout(resolve, 1000))
    expect(await client.end()).toBe(0)
    const plain = new Session(['proxy', '--', ...UPSTREAM_V2], cache.env)
    plain.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS })
    await plain.answer(1)
    plain.send({ id: 2, method: 'tools/list', params: {} })
    await plain.answer(2)
    await new Promise(resolve => setTimeout(resolve, 1000))
    expect(await plain.end()).toBe(0)
    expect(cache.entries()).toEqual([])
  }, SLOW)
})
