import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Node with TypeScript support, for example servers run from source. */
export const TS_NODE = [process.execPath, '--import', 'tsx'] as const

export interface Connected {
  client: Client
  stderr: () => string
  close: () => Promise<void>
}

/** A real SDK client talking to a server process over stdio. */
export async function connectStdio(command: string, args: string[], cwd = ROOT): Promise<Connected> {
  const transport = new StdioClientTransport({ command, args, cwd, env: process.env as Record<string, string>, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const client = new Client({ name: 'flatmcp-test', version: '1.0.0' })
  await client.connect(transport)
  return { client, stderr: () => stderr, close: () => client.close() }
}

/** Starts an HTTP server process that prints its URL on stderr; a real SDK client talks to it. */
export async function connectHttp(command: string, args: string[], cwd = ROOT): Promise<Connected & { child: ChildProcess }> {
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
  const client = new Client({ name: 'flatmcp-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
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
