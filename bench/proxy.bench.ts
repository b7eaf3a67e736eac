// The proxy's cost, side by side with going straight to the upstream (the catalogue's 100 tools on a
// plain SDK 2.x server): tools/list and tools/call per request over stdio and over HTTP; start-up to
// the first list from a snapshot and compiling at start-up; the proxy's memory after 10,000 calls.
import type { ChildProcess } from 'node:child_process'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createProxy } from '@flatmcp/runtime/proxy'
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
}

/** A call of a union tool, in the shape a model sends (one key as JSON text). */
const CALL = { name: 'send_0', arguments: { kind: 'mediaGroup', media: '[{"url":"https://a.example/1.png"},{"url":"https://a.example/2.png"}]' } }
const CLEAN = { name: 'send_0', arguments: { kind: 'mediaGroup', media: [{ url: 'https://a.example/1.png' }, { url: 'https://a.example/2.png' }] } }

async function stdioClient(command: string[]): Promise<{ client: Client }> {
  const transport = new StdioClientTransport({ command: command[0]!, args: command.slice(1), cwd: ROOT, stderr: 'ignore' })
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(transport)
  return { client }
}

async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
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
    try {
      const [a, b] = await Promise.all([httpClient(httpUpstream.url), httpClient(httpProxy.url)])
      for (const request of ['tools/list', 'tools/call'] as const) {
        const directMs = request === 'tools/call' ? await measure(() => a.callTool(CLEAN), { min: 20, max: 200, budgetMs: 2000 }) : await perRequest(a, request)
        requests.push({ transport: 'http', request, direct: directMs, proxied: await perRequest(b, request) })
      }
      await Promise.all([a.close(), b.close()])
    }
    finally {
      httpProxy.child.kill()
      httpUpstream.child.kill()
    }

    log('proxy: start-up to the first list, from a snapshot and compiling')
    const file = path.join(scratch, 'bench.mcp.json')
    execFileSync(process.execPath, [CLI, 'snapshot', '--out', file, '--', ...upstream], { cwd: ROOT, stdio: 'ignore' })
    const firstList = async (command: string[]): Promise<number> => {
      const started = performance.now()
      const { client } = await stdioClient(command)
      await client.listTools()
      const ms = performance.now() - started
      await client.close()
      return ms
    }
    const times = { direct: [] as number[], snapshot: [] as number[], compile: [] as number[] }
    for (let run = 0; run < 5; run++) {
      times.direct.push(await firstList(upstream))
      times.snapshot.push(await firstList([process.execPath, CLI, 'proxy', '--artifact', file, '--', ...upstream]))
      times.compile.push(await firstList([process.execPath, CLI, 'proxy', '--', ...upstream]))
    }

    log(`proxy: heap after ${PROXY_CALLS} calls`)
    const memory = await heapAfterCalls(upstream)
    return { requests, startup: { direct: median(times.direct), snapshot: median(times.snapshot), compile: median(times.compile) }, memory }
  }
  finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
