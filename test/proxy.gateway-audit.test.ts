// What the audit log and the debug log say of requests through `flatmcp proxy --config`: a call
// through `call_tool` is repaired where the called tool's own arguments were (paths of those), and
// every request names the member it was routed to, a server that is down or a resource's and a
// prompt's own included; over stdio the caller is the stdio client (issue 65).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI } from './support/proxy'

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-proxy-gateway-audit-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const NAMED = join(ROOT, 'test/support/named-upstream.mjs')
const ASKING = join(ROOT, 'test/support/asking-upstream.mjs')

function file(name: string, value: unknown): string {
  const at = join(scratch, name)
  writeFileSync(at, JSON.stringify(value))
  return at
}

describe('the audit trail of a gateway', () => {
  it('a call through call_tool is repaired at its own arguments\' paths; each line names the member it went to, one that is down, a resource\'s and a prompt\'s too; over stdio the caller is "stdio"', async () => {
    const config = file('servers.json', { mcpServers: {
      a: { command: process.execPath, args: [NAMED] },
      notes: { command: process.execPath, args: [ASKING, 'plain', '--scheme', 'notes'] },
      ghost: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
    } })
    const callers = file('callers.json', { callers: { stdio: { inFlight: 4 } } })
    const audit = join(scratch, 'audit.jsonl')
    const client = new Client({ name: 'flatmcp-test', version: '1.0.0' })
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--config', config, '--surface', 'search', '--audit-log', audit, '--callers', callers, '--log-level', 'debug'], cwd: ROOT, stderr: 'pipe' })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    await client.connect(transport)
    try {
      await expect.poll(async () => JSON.stringify(await client.callTool({ name: 'find_tools', arguments: { query: 'whoami' } })), { timeout: 30_000 }).toContain('a__whoami')
      expect((await client.callTool({ name: 'call_tool', arguments: { name: 'a__whoami', arguments: { n: 2 } } })).isError).not.toBe(true)
      expect((await client.callTool({ name: 'call_tool', arguments: { name: 'a__whoami', arguments: { n: '2' } } })).isError).not.toBe(true)
      expect((await client.callTool({ name: 'call_tool', arguments: { name: 'ghost__x', arguments: {} } })).isError).toBe(true)
      await client.readResource({ uri: 'notes://readme' })
      await client.getPrompt({ name: 'notes__greet' })
      await expect.poll(() => existsSync(audit) ? readFileSync(audit, 'utf8').split('\n').filter(Boolean).length : 0).toBe(6)
      // find_tools first, answered by the proxy itself.
      const lines = readFileSync(audit, 'utf8').trim().split('\n').slice(1).map(line => JSON.parse(line) as Record<string, unknown>)
      expect(lines.map(({ caller, method, tool, uri, prompt, upstream, repaired }) => ({ caller, method, what: tool ?? uri ?? prompt, upstream, repaired }))).toEqual([
        { caller: 'stdio', method: 'tools/call', what: 'a__whoami', upstream: 'a', repaired: [] },
        { caller: 'stdio', method: 'tools/call', what: 'a__whoami', upstream: 'a', repaired: ['/n'] },
        { caller: 'stdio', method: 'tools/call', what: 'ghost__x', upstream: 'ghost', repaired: [] },
        { caller: 'stdio', method: 'resources/read', what: 'notes://readme', upstream: 'notes', repaired: [] },
        { caller: 'stdio', method: 'prompts/get', what: 'notes__greet', upstream: 'notes', repaired: [] },
      ])
      const debug = stderr.split('\n').filter(line => line.includes(' → ') && !line.includes('find_tools'))
      expect(debug.map(line => line.replace(/ in \d+ ms/, ''))).toEqual([
        'flatmcp proxy: call "a__whoami" (a) by stdio → ok',
        'flatmcp proxy: call "a__whoami" (a) by stdio → ok; repaired /n',
        'flatmcp proxy: call "ghost__x" (ghost) by stdio → tool-error',
        'flatmcp proxy: resources/read "notes://readme" (notes) by stdio → ok',
        'flatmcp proxy: prompts/get "notes__greet" (notes) by stdio → ok',
      ])
    }
    finally {
      await client.close()
    }
  })
})
