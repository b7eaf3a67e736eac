// The proxy's cost, side by side with going straight to the upstream (the catalogue's 100 tools on a
// plain SDK 2.x server): tools/list and tools/call per request over stdio and over HTTP; start-up to
// the first list from a snapshot and compiling at start-up; the proxy's memory after 10,000 calls;
// a caller token's cost; the chooser on recursive unions; 40 clients that never read their answers.
import type { ChildProcess } from 'node:child_process'
import { execFileSync, spawn } from 'node:child_process'
import type { Socket } from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createProxy } from '@flatmcp/runtime/proxy'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { upstreamInput } from '../packages/runtime/src/proxy/compile/chooser'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { measure, median } from './measure'

const ROOT = new URL('..', import.meta.url).pathname
const CLI = path.join(ROOT, 'packages/cli/dist/cli.mjs')
const TSX = [process.execPath, '--import', 'tsx']
const UPSTREAM = [...TSX, path.join(ROOT, 'bench/proxy-upstream.ts')]
export const PROXY_TOOLS = 100
/** Calls made before the proxy's memory is read again. */
export const PROXY_CALLS = 10_000

export interface ProxyResults {
  /** Median ms per request, straight to the upstream and through the proxy. */
  requests: { transport: 'stdio' | 'http', request: 'tools/list' | 'tools/call', direct: number, proxied: number }[]
  /** Median ms from spawning to the first tools/list answer: the upstream alone, and the proxy in front of it from a snapshot or compiling. */
  startup: { direct: number, snapshot: number, compile: number }
  /** The heap in use (MB, after a full GC) of a proxy served in process, after warming up and after PROXY_CALLS more calls. */
  memory: { before: number, after: number }
  /** Median ms per tools/call through the proxy over HTTP, without and with a caller token. */
  auth: { off: number, on: number }
  /** ms to choose a reading of a call nested `depth` levels in a recursive union: the bounded chooser, ajv alone, and the chooser on a schema without unions. */
  chooser: { depth: number, bounded: number, ajv: number, plain: number }[]
  /** The proxy's resident size (MB) before and while 40 clients do not read a 9 MB answer each. */
  slowReaders: { before: number, held: number, dropped: number }
}

/** A recursive union: each level two branches that both step into `arg` (a validator tries both). */
const RECURSIVE = {
  type: 'object',
  properties: { expr: { $ref: '#/$defs/e' } },
  $defs: { e: { anyOf: [
    { type: 'object', properties: { arg: { $ref: '#/$defs/e' }, op: { const: 'neg' } }, required: ['op'] },
    { type: 'object', properties: { arg: { $ref: '#/$defs/e' }, op: { const: 'not' } }, required: ['op'] },
    { type: 'object', properties: { value: { type: 'number' }, op: { const: 'lit' } }, required: ['op', 'value'] },
  ] } },
}
/** The same nesting without a union. */
const PLAIN = { type: 'object', properties: { expr: { $ref: '#/$defs/e' } }, $defs: { e: { type: 'object', properties: { arg: { $ref: '#/$defs/e' }, op: { type: 'string' } } } } }

/** The chooser's cost on a call nested `depth` levels deep: bounded, ajv alone (once, at 20 levels: seconds), and on a plain schema. */
function chooserCost(): ProxyResults['chooser'] {
  const ajv = new Ajv2020({ strict: false, logger: false })
  const validator = (schema: object) => ajv.compile(schema) as (value: unknown) => boolean
  const chooses = (schema: object) => {
    const input = upstreamInput(schema, 'json-schema', validator)['~standard']
    return (value: unknown) => input.validate(value)
  }
  const [bounded, plain, raw] = [chooses(RECURSIVE), chooses(PLAIN), validator(RECURSIVE)]
  const rows: ProxyResults['chooser'] = []
  for (const depth of [5, 10, 20]) {
    let expr: unknown = { op: 'lit', value: 1 }
    for (let i = 0; i < depth; i++)
      expr = { arg: expr, op: 'x' }
    const value = { expr }
    const once = (run: () => unknown): number => {
      const started = performance.now()
      run()
      return performance.now() - started
    }
    const timed = (run: () => unknown): number => median(Array.from({ length: 9 }, () => once(run)))
    rows.push({ depth, bounded: timed(() => bounded(value)), ajv: depth >= 20 ? once(() => raw(value)) : timed(() => raw(value)), plain: timed(() => plain(value)) })
  }
  return rows
}

/** 40 clients that ask for a 9 MB answer and read nothing, in front of a proxy over HTTP: its resident size, and the drops it counts. */
async function slowReaders(): Promise<ProxyResults['slowReaders']> {
  const { url, child } = await listeningAt([process.execPath, CLI, 'proxy', '--http', '0', '--', ...TSX, path.join(ROOT, 'test/support/upstream-outputs.ts')])
  const resident = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const readers: Socket[] = []
  try {
    const { port } = new URL(url)
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: { megabytes: 9 } } })
    const before = resident()
    for (let i = 0; i < 40; i++) {
      const reader = createConnection(Number(port), '127.0.0.1').on('error', () => {})
      reader.pause()
      reader.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`)
      readers.push(reader)
    }
    let held = before
    for (let second = 0; second < 15; second++) {
      await new Promise(resolve => setTimeout(resolve, 1000))
      held = Math.max(held, resident())
    }
    const dropped = Math.max(0, ...[...stderr.matchAll(/; (\d+) so far/g)].map(match => Number(match[1])))
    return { before, held, dropped }
  }
  finally {
    readers.forEach(reader => reader.destroy())
    child.kill()
  }
}

/** A call of a union tool, in the shape a model sends (one key as JSON text). */
const CALL = { name: 'send_0', arguments: { kind: 'mediaGroup', media: '[{"url":"https://a.example/1.png"},{"url":"https://a.example/2.png"}]' } }
const CLEAN = { name: 'send_0', arguments: { kind: 'mediaGroup', media: [{ url: 'https://a.example/1.png' }, { url: 'https://a.example/2.png' }] } }

async function stdioClient(command: string[], env?: Record<string, string>): Promise<{ client: Client }> {
  const transport = new StdioClientTransport({ command: command[0]!, args: command.slice(1), cwd: ROOT, stderr: 'ignore', ...(env ? { env: { ...process.env, ...env } as Record<string, string> } : {}) })
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(transport)
  return { client }
}

async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))
  return client
}

/** A process that prints `listening on <url>`: its URL once it does. */
async function listeningAt(command: string[]): Promise<{ url: string, child: ChildProcess }> {
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\b/.exec(stderr)
      if (match)
        resolve(match[1]!)
    })
    child.once('exit', code => reject(new Error(`exited ${code}: ${stderr}`)))
  })
  return { url, child }
}

const perRequest = (client: Client, request: 'tools/list' | 'tools/call'): Promise<number> =>
  measure(() => request === 'tools/list' ? client.listTools() : client.callTool(CALL), { min: 20, max: 200, budgetMs: 2000 })

/** A full garbage collection, without starting Node with --expose-gc. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

/**
 * The heap in use after a full GC, with a proxy served in this process (its upstream a child
 * process, its client on an in-memory transport), after warming up and after PROXY_CALLS more calls:
 * what the proxy keeps per call, if anything, without the noise of another process's resident size.
 */
async function heapAfterCalls(upstream: string[]): Promise<ProxyResults['memory']> {
  const gc = collector()
  const { client: upstreamClient } = await stdioClient(upstream)
  const proxy = await createProxy(upstreamClient as never, { log: () => {} })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await proxy.server().connect(serverSide)
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(clientSide)
  const heap = (): number => {
    gc()
    return process.memoryUsage().heapUsed / 1024 / 1024
  }
  for (let i = 0; i < 500; i++)
    await client.callTool(CALL)
  const before = heap()
  for (let i = 0; i < PROXY_CALLS; i += 50)
    await Promise.all(Array.from({ length: 50 }, () => client.callTool(CALL)))
  const after = heap()
  await Promise.all([client.close(), upstreamClient.close()])
  return { before, after }
}

export async function runProxyBench(log: (line: string) => void): Promise<ProxyResults> {
  const requests: ProxyResults['requests'] = []
  const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-proxy-bench-'))
  const upstream = [...UPSTREAM, String(PROXY_TOOLS)]
  try {
    log('proxy: tools/list and tools/call over stdio, direct and proxied')
    const direct = await stdioClient(upstream)
    const proxied = await stdioClient([process.execPath, CLI, 'proxy', '--', ...upstream])
    for (const request of ['tools/list', 'tools/call'] as const) {
      // The direct client sends the call's clean form: the upstream's zod refuses JSON text.
      const directMs = request === 'tools/call' ? await measure(() => direct.client.callTool(CLEAN), { min: 20, max: 200, budgetMs: 2000 }) : await perRequest(direct.client, request)
      requests.push({ transport: 'stdio', request, direct: directMs, proxied: await perRequest(proxied.client, request) })
    }

    await Promise.all([direct.client.close(), proxied.client.close()])

    log('proxy: tools/list and tools/call over HTTP, direct and proxied')
    const httpUpstream = await listeningAt([...upstream, '--http', '0'])
    const httpProxy = await listeningAt([process.execPath, CLI, 'proxy', '--http', '0', httpUpstream.url])
    const guarded = await listeningAt([process.execPath, CLI, 'proxy', '--http', '0', '--auth-token', 'bench-token', httpUpstream.url])
    let auth: ProxyResults['auth']
    try {
      const [a, b, c] = await Promise.all([httpClient(httpUpstream.url), httpClient(httpProxy.url), httpClient(guarded.url, { authorization: 'Bearer bench-token' })])
      for (const request of ['tools/list', 'tools/call'] as const) {
        const directMs = request === 'tools/call' ? await measure(() => a.callTool(CLEAN), { min: 20, max: 200, budgetMs: 2000 }) : await perRequest(a, request)
        requests.push({ transport: 'http', request, direct: directMs, proxied: await perRequest(b, request) })
      }
      log('proxy: tools/call over HTTP with a caller token and without, interleaved')
      // In alternating rounds, so drift in the machine's speed touches both alike.
      const rounds = { off: [] as number[], on: [] as number[] }
      for (let round = 0; round < 6; round++) {
        rounds.off.push(await measure(() => b.callTool(CALL), { min: 20, max: 60, budgetMs: 500 }))
        rounds.on.push(await measure(() => c.callTool(CALL), { min: 20, max: 60, budgetMs: 500 }))
      }
      auth = { off: median(rounds.off), on: median(rounds.on) }
      await Promise.all([a.close(), b.close(), c.close()])
    }
    finally {
      httpProxy.child.kill()
      guarded.child.kill()
      httpUpstream.child.kill()
    }

    log('proxy: start-up to the first list, from a snapshot and compiling')
    const file = path.join(scratch, 'bench.mcp.json')
    execFileSync(process.execPath, [CLI, 'snapshot', '--out', file, '--', ...upstream], { cwd: ROOT, stdio: 'ignore' })
    const firstList = async (command: string[], env?: Record<string, string>): Promise<number> => {
      const started = performance.now()
      const { client } = await stdioClient(command, env)
      await client.listTools()
      const ms = performance.now() - started
      await client.close()
      return ms
    }
    const times = { direct: [] as number[], snapshot: [] as number[], compile: [] as number[] }
    for (let run = 0; run < 5; run++) {
      times.direct.push(await firstList(upstream))
      times.snapshot.push(await firstList([process.execPath, CLI, 'proxy', '--artifact', file, '--', ...upstream]))
      // Compiling every time: no list kept from the start before (section 14 times a start with one kept).
      times.compile.push(await firstList([process.execPath, CLI, 'proxy', '--', ...upstream], { FLATMCP_DISABLE_LIST_CACHE: '1' }))
    }

    log(`proxy: heap after ${PROXY_CALLS} calls`)
    const memory = await heapAfterCalls(upstream)
    log('proxy: the chooser on recursive unions, 5, 10 and 20 levels deep')
    const chooser = chooserCost()
    log('proxy: 40 clients that do not read a 9 MB answer')
    return { requests, startup: { direct: median(times.direct), snapshot: median(times.snapshot), compile: median(times.compile) }, memory, auth: auth!, chooser, slowReaders: await slowReaders() }
  }
  finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
