// The tool list of `flatmcp proxy --config` as members come and go: once a member is said down, the
// list served holds none of its tools, and clients are told the list changed only when the list they
// would be served differs (issue 65).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI } from './support/proxy'

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-proxy-gateway-lists-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const NAMED = join(ROOT, 'test/support/named-upstream.mjs')
const MISBEHAVING = join(ROOT, 'test/support/misbehaving-upstream.mjs')

describe('a gateway\'s list as members come and go', () => {
  it('the list served once a member is said down holds none of its tools; list_changed is sent for that and for its return, never when nothing changed', async () => {
    const config = join(scratch, 'servers.json')
    writeFileSync(config, JSON.stringify({ mcpServers: {
      a: { command: process.execPath, args: [NAMED] },
      crash: { command: process.execPath, args: [MISBEHAVING, 'crash'] },
    } }))
    const client = new Client({ name: 'flatmcp-test', version: '1.0.0' })
    let told = 0
    client.setNotificationHandler('notifications/tools/list_changed', () => void told++)
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--config', config, '--surface', 'full'], cwd: ROOT, stderr: 'pipe' })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    await client.connect(transport)
    const names = async (): Promise<string[]> => (await client.listTools()).tools.map(tool => tool.name).sort()
    try {
      // The first list waits for servers still starting: both are in it.
      expect(await names()).toEqual(['a__whoami', 'crash__echo'])
      expect((await client.callTool({ name: 'a__whoami', arguments: {} })).isError).not.toBe(true)
      // Its first call ends it.
      await client.callTool({ name: 'crash__echo', arguments: { text: 'x' } }).catch(() => undefined)
      await expect.poll(() => stderr, { timeout: 30_000 }).toContain('server "crash" ended; its tools are left out')
      expect(await names()).toEqual(['a__whoami'])
      // Started again after a second, and listed again.
      await expect.poll(names, { timeout: 30_000 }).toEqual(['a__whoami', 'crash__echo'])
      await expect.poll(() => told, { timeout: 30_000 }).toBeGreaterThanOrEqual(2)
      // A round trip more: anything told meanwhile has come.
      await client.callTool({ name: 'a__whoami', arguments: {} })
      expect(told, stderr).toBe(2)
    }
    finally {
      await client.close()
    }
  })
})
