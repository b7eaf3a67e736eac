// What the two npm-server test files share: the installed binaries, a scratch folder per file, a
// server's own folder, command and environment, a real SDK 2.x client over stdio, and a snapshot made
// as an operator makes one.
import type { CallToolResult } from '@modelcontextprotocol/client'
import type { NpmServer } from './npm-servers'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { ROOT } from './client'
import { installNpmServers } from './npm-servers'
import { runCli } from './proxy'

export interface Tool { name: string, description?: string, inputSchema: Record<string, unknown>, outputSchema?: Record<string, unknown> }

export interface ServerRuns {
  scratch: string
  /** A server's own folder, command and environment. */
  setUp: (server: NpmServer) => { folder: string, command: string[], env: Record<string, string> }
  /** The folder of installed binaries. */
  bin: () => string
  /** Removes the scratch folder (kept with KEEP_SCRATCH). */
  cleanUp: () => void
}

/** A test file's scratch folder and its servers' places in it; `install` is called from its beforeAll. */
export function serverRuns(prefix: string): ServerRuns & { install: () => void } {
  const scratch = mkdtempSync(join(tmpdir(), prefix))
  let bin = ''
  return {
    scratch,
    install: () => {
      bin = installNpmServers()
    },
    bin: () => bin,
    setUp: (server) => {
      const folder = join(scratch, server.name)
      mkdirSync(folder, { recursive: true })
      return { folder, command: server.command(bin, folder), env: server.env(folder) }
    },
    cleanUp: () => process.env.KEEP_SCRATCH ? undefined : rmSync(scratch, { recursive: true, force: true }),
  }
}

/** A real SDK 2.x client over stdio, the environment given, offering nothing. */
export async function connect(command: string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'flatmcp-test', version: '1' }, { versionNegotiation: { mode: 'legacy' } })
  await client.connect(new StdioClientTransport({ command: command[0]!, args: command.slice(1), cwd: ROOT, env: { ...process.env, ...env } as Record<string, string>, stderr: 'ignore' }))
  return client
}

/** A server's own list, straight from it. */
export async function listDirectly(command: string[], env: Record<string, string>): Promise<Tool[]> {
  const direct = await connect(command, env)
  try {
    return (await direct.listTools()).tools as Tool[]
  }
  finally {
    await direct.close()
  }
}

export const textOf = (result: unknown): string => (result as CallToolResult).content.map(part => part.type === 'text' ? part.text : '').join('')

/** The same variables, each set empty. */
export const emptied = (env: Record<string, string>): Record<string, string> => Object.fromEntries(Object.keys(env).map(name => [name, '']))

/**
 * A server's snapshot, as an operator makes one: a server that does not start without its environment
 * is given it by `--env` alone, its own variables emptied (what the environment test asks of it).
 */
export function snapshotOf(server: NpmServer, command: string[], env: Record<string, string>, file: string): ReturnType<typeof runCli> {
  if (!server.needsEnv)
    return runCli(['snapshot', '--out', file, '--', ...command], ROOT, 120_000, undefined, env)
  const flags = Object.entries(env).flatMap(([name, value]) => ['--env', `${name}=${value}`])
  return runCli(['snapshot', '--out', file, ...flags, '--', ...command], ROOT, 120_000, undefined, emptied(env))
}
