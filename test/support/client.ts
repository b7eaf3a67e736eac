import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from '@modelcontextprotocol/client'
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Node with TypeScript support, for example servers run from source. */
export const TS_NODE = [process.execPath, '--import', 'tsx'] as const

/** What the tests ask of a client: the same calls on either SDK major. */
export interface McpClient {
  listTools: Client['listTools']
  callTool: Client['callTool']
  close: () => Promise<void>
}

export interface Connected {
  client: McpClient
  stderr: () => string
  close: () => Promise<void>
}

interface StdioClient {
  connect: (transport: never) => Promise<void>
  close: () => Promise<void>
}
interface StdioClientTransportLike {
  stderr: { on: (event: 'data', listener: (chunk: Buffer) => void) => unknown } | null
}

/** A real SDK client, of either major, talking to a server process over stdio. */
async function connectOverStdio(
  makeClient: () => StdioClient,
  makeTransport: (options: { command: string, args: string[], cwd: string, env: Record<string, string>, stderr: 'pipe' }) => StdioClientTransportLike,
  command: string,
  args: string[],
  cwd: string,
): Promise<Connected> {
  const transport = makeTransport({ command, args, cwd, env: process.env as Record<string, string>, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const client = makeClient()
  await client.connect(transport as never)
  return { client: client as unknown as McpClient, stderr: () => stderr, close: () => client.close() }
}

/** A real MCP SDK 1.x client talking to a server process over stdio. */
export function connectStdio(command: string, args: string[], cwd = ROOT): Promise<Connected> {
  return connectOverStdio(() => new Client({ name: 'flatmcp-test', version: '1.0.0' }), options => new StdioClientTransport(options), command, args, cwd)
}

/** Which protocol era an SDK 2.x client speaks: 2025 sessions (`initialize`), or 2026-07-28 pinned. */
export type Era = 'legacy' | 'modern'

const negotiation = (era: Era): { versionNegotiation: { mode: 'legacy' | { pin: string } } } =>
  ({ versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } })

/** A real MCP SDK 2.x client talking to a server process over stdio. */
export function connectStdioV2(command: string, args: string[], cwd = ROOT, clientName = 'flatmcp-test', era: Era = 'legacy'): Promise<Connected> {
  return connectOverStdio(() => new ClientV2({ name: clientName, version: '1.0.0' }, negotiation(era)), options => new StdioClientTransportV2(options), command, args, cwd)
}

/** Starts an HTTP server process that prints its URL on stderr; a client made by `connect` talks to it. */
async function connectOverHttp(connect: (url: URL) => Promise<McpClient>, command: string, args: string[], cwd: string): Promise<Connected & { child: ChildProcess }> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from the server; stderr: ${stderr}`)), 30_000)
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      const match = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    child.once('exit', code => reject(new Error(`server exited with ${code}; stderr: ${stderr}`)))
  })
  const client = await connect(new URL(url))
  return {
    client,
    child,
    stderr: () => stderr,
    close: async () => {
      await client.close()
      child.kill()
      await once(child, 'exit')
    },
  }
}

/** A real MCP SDK 1.x client talking to an HTTP server process over Streamable HTTP. */
export function connectHttp(command: string, args: string[], cwd = ROOT): Promise<Connected & { child: ChildProcess }> {
  return connectOverHttp(async (url) => {
    const client = new Client({ name: 'flatmcp-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(url))
    return client
  }, command, args, cwd)
}

/** A real MCP SDK 2.x client talking to an HTTP server process over Streamable HTTP (`path` after the printed URL). */
export function connectHttpV2(command: string, args: string[], cwd = ROOT, era: Era = 'legacy', path = ''): Promise<Connected & { child: ChildProcess }> {
  return connectOverHttp(async (url) => {
    const client = new ClientV2({ name: 'flatmcp-test', version: '1.0.0' }, negotiation(era))
    await client.connect(new StreamableHTTPClientTransportV2(new URL(`${url.href}${path}`)))
    return client as unknown as McpClient
  }, command, args, cwd)
}
