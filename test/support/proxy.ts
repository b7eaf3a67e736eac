// What the proxy tests share: the built CLI, servers started as processes that say where they listen,
// and real SDK 2.x clients over HTTP in either protocol era.
import type { ChildProcess } from 'node:child_process'
import type { Era } from './client'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { connect, createServer } from 'node:net'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { ROOT } from './client'
import { upstreamCommand } from './upstream-builds'

export const CLI = join(ROOT, 'packages/cli/dist/cli.mjs')

/** The SDK 2.x upstream of test/support/upstream-v2.ts, as a command (its bundle: upstream-builds.ts). */
export const UPSTREAM_V2 = await upstreamCommand('upstreamV2')

/** The SDK 1.x upstream of test/support/upstream-outputs.ts, written as npm servers are, as a command. */
export const UPSTREAM_OUTPUTS = await upstreamCommand('upstreamOutputs')

/** A port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    }).on('error', reject)
  })
}

/** Resolves once something listens on the port (bounded: 30 s). */
export async function listening(port: number): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end()
        resolve(true)
      }).on('error', () => resolve(false))
    })
    if (open)
      return
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`)
}

export interface Listening {
  /** The URL the process printed (`http://127.0.0.1:<port>/mcp`). */
  url: string
  child: ChildProcess
  stderr: () => string
  close: () => Promise<void>
}

/** Starts a process that prints `listening on http://127.0.0.1:<port>/mcp` on stderr once it listens. */
export async function startListening(command: string, args: string[], cwd = ROOT, env: Record<string, string> = {}): Promise<Listening> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from ${args.join(' ')}; stderr: ${stderr}`)), 60_000)
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      // An address that listens on every interface is reached on loopback.
      const match = /listening on (http:\/\/(?:127\.0\.0\.1|0\.0\.0\.0):\d+\/mcp)\b/.exec(stderr)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!.replace('0.0.0.0', '127.0.0.1'))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${args.join(' ')} exited with ${code}; stderr: ${stderr}`))
    })
  })
  return {
    url,
    child,
    stderr: () => stderr,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill()
        await once(child, 'exit')
      }
    },
  }
}

/** A real SDK 2.x client over Streamable HTTP, in a protocol era (legacy: the 2025 handshake; modern: 2026-07-28). */
export async function httpClient(url: string, era: Era = 'legacy', capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client({ name: 'flatmcp-test', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return client
}

/** A client's first line over stdio: a 2025 `initialize`. */
export const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flatmcp-test', version: '1' } } })}\n`

/** Runs the CLI to its end: exit code, stdout and stderr; `stdin` is written to it (and left open), else it reads nothing. */
export function runCli(args: string[], cwd = ROOT, timeoutMs = 120_000, stdin?: string, env: Record<string, string> = {}): Promise<{ code: number | null, stdout: string, stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env }, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] })
    if (stdin !== undefined)
      child.stdin!.write(stdin)
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const timer = setTimeout(() => child.kill(), timeoutMs)
    // Once its output is read whole: `exit` can come before the last of a pipe's data.
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/**
 * One tools/call with a progress token over a raw stdio session (no SDK on the client side, which
 * drops progress that shares a read with its answer): what came back, in order, `P` for each
 * progress notification and `R` for the answer.
 */
export async function progressOrder(command: string, args: string[], call: { name: string, arguments: Record<string, unknown> }, cwd = ROOT): Promise<string> {
  const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'ignore'] })
  const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`)
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer in 30 s')), 30_000)
      const seen: string[] = []
      let buffer = ''
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString()
        for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
          const message = JSON.parse(buffer.slice(0, end)) as { id?: number, method?: string }
          buffer = buffer.slice(end + 1)
          if (message.id === 1) {
            send({ jsonrpc: '2.0', method: 'notifications/initialized' })
            send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { ...call, _meta: { progressToken: 'progress' } } })
          }
          else if (message.method === 'notifications/progress') {
            seen.push('P')
          }
          else if (message.id === 2) {
            clearTimeout(timer)
            seen.push('R')
            resolve(seen.join(''))
          }
        }
      })
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flatmcp-test', version: '1' } } })
    })
  }
  finally {
    child.kill()
  }
}
