// Tool names some clients refuse (Copilot in Visual Studio, Kimi, Gemini: `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`),
// through the command a user runs: the snapshot records the fitted name and says so, the probe reads
// the live upstream as the proxy does (no drift), and a real client lists and calls the fitted name.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectStdioV2 } from './support/client'
import { CLI, runCli } from './support/proxy'
import { REPLICA_UPSTREAM } from './support/replica-snapshot'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'

const ENV = { TOOL_NAME: 'who.am.i' }
let scratch = ''

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'flatmcp-names-'))
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('a tool name clients refuse', () => {
  it('is served fitted by snapshot, probe and proxy alike, and a call to the fitted name reaches the upstream\'s tool', async () => {
    const snapshot = join(scratch, 'names.mcp.json')
    const made = await runCli(['snapshot', '--out', snapshot, '--', process.execPath, REPLICA_UPSTREAM], undefined, undefined, undefined, ENV)
    expect(made.code, made.stderr).toBe(0)
    expect(made.stderr).toContain('flatmcp snapshot: tool "who.am.i" is served as "who_am_i"')
    const probed = await runCli(['probe', snapshot, '--', process.execPath, REPLICA_UPSTREAM], undefined, undefined, undefined, ENV)
    expect(probed.stdout + probed.stderr).not.toMatch(/not current|no longer|drift/i)
    expect(probed.code, probed.stdout + probed.stderr).toBe(0)
    process.env.TOOL_NAME = ENV.TOOL_NAME
    const served = await connectStdioV2(process.execPath, [CLI, 'proxy', '--artifact', snapshot, '--', process.execPath, REPLICA_UPSTREAM])
    delete process.env.TOOL_NAME
    try {
      expect((await served.client.listTools()).tools.map(tool => tool.name)).toEqual(['who_am_i'])
      const result = await served.client.callTool({ name: 'who_am_i', arguments: { n: '7' } }) as { content: { text: string }[], isError?: boolean }
      expect(result.isError, served.stderr()).not.toBe(true)
      expect(JSON.parse(result.content[0]!.text).n).toBe(7)
    }
    finally {
      await served.close()
    }
  })
})

describe('only served names are callable (issue 65)', () => {
  it('flatmcp proxy: a hidden tool served under a fitted name is not reached by the upstream\'s own name', async () => {
    const overrides = join(scratch, 'hide.json')
    writeFileSync(overrides, JSON.stringify({ tools: { files_delete: { hide: true } } }))
    process.env.TOOL_NAME = 'files.delete'
    const served = await connectStdioV2(process.execPath, [CLI, 'proxy', '--overrides', overrides, '--', process.execPath, REPLICA_UPSTREAM])
    delete process.env.TOOL_NAME
    try {
      expect((await served.client.listTools()).tools).toEqual([])
      for (const name of ['files.delete', 'files_delete'])
        await expect(served.client.callTool({ name, arguments: { n: 1 } })).rejects.toThrow(`Unknown tool ${JSON.stringify(name)}.`)
    }
    finally {
      await served.close()
    }
  })
})
