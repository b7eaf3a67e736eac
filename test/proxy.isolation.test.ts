// Each server behind a gateway is a bulkhead: its calls take slots of its own, so calls stuck on one
// that hangs never hold up or crowd out another's, and a server that floods notifications while the
// client is not reading costs the proxy a bounded backlog, said once.
import type { CallToolResult } from '@modelcontextprotocol/client'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { createGateway } from '@flatmcp/runtime/proxy'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI, INITIALIZE } from './support/proxy'

const MISBEHAVING = join(ROOT, 'test/support/misbehaving-upstream.mjs')
const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-isolation-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const textOf = (result: unknown): string => (result as CallToolResult).content.map(part => (part as { text?: string }).text ?? '').join('')

describe('a gateway\'s members are bulkheads', () => {
  it('calls stuck on a server that never answers take its own slots: another server\'s call is answered at once, and only the stuck server\'s are refused past its queue', async () => {
    const gateway = await createGateway([
      { name: 'well', target: { command: [process.execPath, MISBEHAVING, 'well'] } },
      { name: 'stall', target: { command: [process.execPath, MISBEHAVING, 'stall'] } },
    ], { maxInFlight: 2, timeoutMs: 600_000, log: () => {} })
    const client = new Client({ name: 'isolation', version: '1' })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await gateway.server().connect(serverSide)
    await client.connect(clientSide)
    try {
      await gateway.ready
      await expect.poll(() => [...gateway.tools().keys()].sort(), { timeout: 30_000 }).toEqual(['stall__echo', 'well__echo'])
      // 2 running and 8 waiting is the stuck server's room: the 11th call is refused at once, naming it.
      const stuck = Array.from({ length: 11 }, (_, i) => client.callTool({ name: 'stall__echo', arguments: { text: `${i}` } }, { timeout: 600_000 }).catch((error: unknown) => error))
      const refused = await Promise.race(stuck) as CallToolResult
      expect(refused.isError).toBe(true)
      expect(textOf(refused)).toBe('The server "stall" behind this proxy has 2 requests in flight and 8 waiting, its limit; try again shortly.')
      // The well server's call takes slots of its own.
      expect(textOf(await client.callTool({ name: 'well__echo', arguments: { text: 'hi' } }))).toBe('{"text":"hi"}')
      for (let i = 0; i < 3; i++)
        expect(textOf(await client.callTool({ name: 'well__echo', arguments: { text: `${i}` } }))).toBe(`{"text":"${i}"}`)
    }
    finally {
      await client.close()
      await gateway.close()
    }
  })
})

describe('a server that lists more tools than the bound', () => {
  it('is served with its first 10,000 (the rest left out, said), beside the others', async () => {
    const lines: string[] = []
    const gateway = await createGateway([
      { name: 'well', target: { command: [process.execPath, MISBEHAVING, 'well'] } },
      { name: 'many', target: { command: [process.execPath, MISBEHAVING, 'many', '--count', '10005'] } },
    ], { log: line => void lines.push(line) })
    try {
      await gateway.ready
      await expect.poll(() => gateway.tools().size, { timeout: 120_000 }).toBe(10_001)
      const names = [...gateway.tools().keys()]
      expect(names).toContain('well__echo')
      expect(names).toContain('many__tool9998')
      expect(names).not.toContain('many__tool9999')
      expect(lines).toContain('flatmcp proxy: server "many" listed 10006 tools; the first 10000 are served, the rest left out')
    }
    finally {
      await gateway.close()
    }
  })
})

/** The proxy over stdio, read line by line while `reading`; its stderr kept. */
function stdioProxy(args: string[]): { send: (message: object) => void, lines: string[], reading: (on: boolean) => void, stderr: () => string, close: () => void } {
  const child = spawn(process.execPath, [CLI, 'proxy', ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
  const lines: string[] = []
  let pending = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split('\n')
    pending = parts.pop()!
    lines.push(...parts)
  })
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
  return {
    send: message => child.stdin.write(`${JSON.stringify(message)}\n`),
    lines,
    reading: on => void (on ? child.stdout.resume() : child.stdout.pause()),
    stderr: () => stderr,
    close: () => void child.kill(),
  }
}

describe('notifications while the client is not reading', () => {
  const config = join(scratch, 'chatter.json')
  const chatter = ['--', process.execPath, MISBEHAVING, 'chatter', '--count', '5000']
  writeFileSync(config, JSON.stringify({ mcpServers: { well: { command: process.execPath, args: [MISBEHAVING, 'well'] }, chatter: { command: process.execPath, args: chatter.slice(2) } } }))

  for (const [what, args, call, said] of [
    ['one server behind --config', ['--config', config, '--surface', 'full'], 'chatter__echo', 'flatmcp proxy: server "chatter" sends notifications faster than the client reads them; past 256 waiting, its next are dropped'],
    ['the one upstream of a proxy', chatter, 'echo', 'flatmcp proxy: the client is not reading its notifications; past 1024 waiting (or 16 MiB) they are dropped, a list change told once'],
  ] as const) {
    it(`${what} that floods them costs the proxy a bounded backlog: past it they are dropped, said once, and the client then reads at most that backlog`, async () => {
      const proxy = stdioProxy([...args])
      try {
        proxy.send(JSON.parse(INITIALIZE))
        await expect.poll(() => proxy.lines.some(line => line.includes('"id":1')), { timeout: 60_000 }).toBe(true)
        proxy.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
        proxy.reading(false)
        proxy.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: call, arguments: { text: 'go' } } })
        // Every one of the 5,000 was read from the server before the client reads again.
        await expect.poll(proxy.stderr, { timeout: 60_000 }).toMatch(/poured 5000/)
        const before = proxy.lines.length
        proxy.send({ jsonrpc: '2.0', id: 3, method: 'ping' })
        proxy.reading(true)
        await expect.poll(() => proxy.lines.slice(before).some(line => /"id":3\b/.test(line)), { timeout: 60_000 }).toBe(true)
        const told = proxy.lines.slice(before).filter(line => line.includes('"notifications/message"')).length
        // The backlog, and what the pipes between hold (a few hundred lines).
        expect(told).toBeGreaterThan(0)
        expect(told).toBeLessThan(2500)
        expect(proxy.stderr().split(said).length).toBe(2)
        await expect.poll(proxy.stderr, { timeout: 60_000 }).toMatch(/were dropped/)
      }
      finally {
        proxy.close()
      }
    })
  }
})

describe('JSON nested past the bound from one server', () => {
  const config = join(scratch, 'deep.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { well: { command: process.execPath, args: [MISBEHAVING, 'well'] }, deep: { command: process.execPath, args: [MISBEHAVING, 'deep', '--depth', '20000', '--list'] }, nest: { command: process.execPath, args: [MISBEHAVING, 'deep', '--depth', '20000'] } } }))

  it('a tool list or an answer nested 20,000 deep is refused with an error naming the bound: the proxy lives on, and the other server is served', async () => {
    const proxy = stdioProxy(['--config', config, '--surface', 'full'])
    const answer = (id: number): Promise<string> => expect.poll(() => proxy.lines.find(line => line.includes(`"id":${id},`) || line.endsWith(`"id":${id}}`)), { timeout: 60_000 }).toBeDefined().then(() => proxy.lines.find(line => line.includes(`"id":${id},`) || line.endsWith(`"id":${id}}`))!)
    try {
      proxy.send(JSON.parse(INITIALIZE))
      await answer(1)
      proxy.send({ jsonrpc: '2.0', method: 'notifications/initialized' })
      proxy.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
      const names = (JSON.parse(await answer(2)) as { result: { tools: { name: string }[] } }).result.tools.map(tool => tool.name)
      expect(names.sort()).toEqual(['nest__echo', 'well__echo'])
      expect(proxy.stderr()).toMatch(/server "deep" did not list its tools \(.* nested deeper than 1024 levels; it was refused\)/)
      proxy.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'well__echo', arguments: { text: 'hi' } } })
      expect(await answer(3)).toContain('{\\"text\\":\\"hi\\"}')
      proxy.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nest__echo', arguments: { text: 'hi' } } })
      expect(JSON.parse(await answer(4))).toMatchObject({ error: { code: -32603, message: expect.stringMatching(/nested deeper than 1024 levels; it was refused$/) } })
    }
    finally {
      proxy.close()
    }
  })
})

describe('a gateway that closes', () => {
  it('says nothing of its servers\' lists failing because it closed them: a client leaving is no outage', async () => {
    const lines: string[] = []
    const gateway = await createGateway([
      { name: 'one', target: { command: [process.execPath, MISBEHAVING, 'well'] } },
      { name: 'two', target: { command: [process.execPath, MISBEHAVING, 'well'] } },
    ], { log: line => void lines.push(line) })
    await gateway.ready
    await gateway.close()
    // A list read after the close (a change heard as the servers stopped) finds them closed.
    await gateway.refresh().catch(() => {})
    expect(lines.filter(line => /did not list|no longer reads/.test(line))).toEqual([])
  })
})

