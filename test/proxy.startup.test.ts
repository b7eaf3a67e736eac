// `flatmcp proxy` checks the operator's files against the upstream's list at start, before any client
// is served (issue 68): a file that is off stops it with the file, the JSON path and what is wrong,
// exit 2, over stdio with no client (stdin at /dev/null) or one attached (which sees no half session),
// over --http before it listens, and behind --config; a good file serves; a slow upstream is waited
// for, one that never lists is a bounded stop.
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { connectStdioV2, ROOT } from './support/client'
import { CLI, INITIALIZE, runCli, UPSTREAM_V2 } from './support/proxy'
import { SLOW } from './support/timeouts'

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-startup-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const WELL = [process.execPath, join(ROOT, 'test/support/misbehaving-upstream.mjs')]

/** A file in the scratch folder, as JSON. */
function file(name: string, value: unknown): string {
  const path = join(scratch, name)
  writeFileSync(path, JSON.stringify(value))
  return path
}

/** The misspelled parameter of the issue: `page` takes `limit`. */
const MISSPELLED = { tools: { page: { params: { limt: { hide: true } } } } }
const MISSPELLED_LINE = '.json: overrides.tools["page"].params["limt"]: tool "page" has no parameter "limt" (did you mean "limit"?)'

describe('flatmcp proxy checks its files against the list at start', () => {
  it('stdio, stdin at /dev/null: a misspelled parameter exits 2 with the file and the JSON path; a good file exits 0 once it would serve', async () => {
    const bad = file('misspelled.json', MISSPELLED)
    const stopped = await runCli(['proxy', '--overrides', bad, '--', ...UPSTREAM_V2])
    expect(stopped.code, stopped.stderr).toBe(2)
    expect(stopped.stderr).toContain(`flatmcp: ${bad.slice(0, -'.json'.length)}${MISSPELLED_LINE}`)
    expect(stopped.stdout).toBe('')
    const good = file('good.json', { tools: { page: { params: { limit: { fix: 5 } } } } })
    const checked = await runCli(['proxy', '--overrides', good, '--', ...UPSTREAM_V2])
    expect(checked.code, checked.stderr).toBe(0)
    expect(checked.stderr).toContain('flatmcp proxy: tool "page": "limit" fixed to 5 (overrides)')
    expect(checked.stderr).toMatch(/flatmcp proxy: serving \d+ tools of /)
  }, SLOW)

  it('stdio with a client attached: its initialize is never answered (no half session), the proxy ends with exit 2', async () => {
    const bad = file('attached.json', MISSPELLED)
    const stopped = await runCli(['proxy', '--overrides', bad, '--', ...UPSTREAM_V2], ROOT, 60_000, INITIALIZE)
    expect(stopped.code, stopped.stderr).toBe(2)
    expect(stopped.stdout).toBe('')
    expect(stopped.stderr).toContain(MISSPELLED_LINE)
  }, SLOW)

  it('a tool the overrides name that the list lacks, and a view\'s tool not served or hidden, are each a line at their path: a misspelled hide would leave the tool served', async () => {
    const bad = file('unlisted.json', { tools: { sned: { hide: true }, filter: { hide: true } }, views: { triage: { tools: ['page', 'filter', 'sned'] } } })
    const stopped = await runCli(['proxy', '--overrides', bad, '--', ...UPSTREAM_V2])
    expect(stopped.code, stopped.stderr).toBe(2)
    const lines = stopped.stderr.split('\n').filter(line => line.startsWith('flatmcp: '))
    expect(lines).toEqual([
      `flatmcp: ${bad}: overrides.tools["sned"]: the upstream lists no tool "sned" (did you mean "send"?); the overrides name tools as the proxy serves them`,
      `flatmcp: ${bad}: overrides.views["triage"].tools[1]: tool "filter" is hidden by the overrides, so the view cannot serve it`,
      `flatmcp: ${bad}: overrides.views["triage"].tools[2]: no tool "sned" is served (did you mean "send"?)`,
    ])
  }, SLOW)

  it('--http: a misspelled parameter exits 2 before it listens; a good file serves', async () => {
    const bad = file('http.json', MISSPELLED)
    const stopped = await runCli(['proxy', '--http', '0', '--overrides', bad, '--', ...UPSTREAM_V2])
    expect(stopped.code, stopped.stderr).toBe(2)
    expect(stopped.stderr).toContain(MISSPELLED_LINE)
    expect(stopped.stderr).not.toContain('listening on')
  }, SLOW)

  it('--http on a port another process holds (a replica still draining) is one line naming the port and what to do, exit 2, no stack', async () => {
    const holder = createServer()
    await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', () => resolve()))
    const { port } = holder.address() as AddressInfo
    try {
      const stopped = await runCli(['proxy', '--http', String(port), '--', ...UPSTREAM_V2])
      expect(stopped.code, stopped.stderr).toBe(2)
      const lines = stopped.stderr.split('\n').filter(line => line !== '' && !line.startsWith('flatmcp proxy: ') && !line.startsWith('[upstream]'))
      expect(lines).toEqual([`flatmcp: --http ${port}: the port is in use by another process (a replica still draining?): wait for it to exit or stop it, or give another port`])
    }
    finally {
      holder.close()
    }
  })

  it('behind --config: one server\'s override that is off stops the gateway with exit 2 and its path', async () => {
    const config = file('servers.json', { mcpServers: { chat: { command: UPSTREAM_V2[0], args: UPSTREAM_V2.slice(1) }, well: { command: WELL[0], args: [WELL[1], 'well'] } } })
    const bad = file('gateway.json', { tools: { well__echo: { params: { txet: { hide: true } } } } })
    for (const serving of [[], ['--http', '0']]) {
      const stopped = await runCli(['proxy', ...serving, '--config', config, '--overrides', bad])
      expect(stopped.code, stopped.stderr).toBe(2)
      expect(stopped.stderr).toContain(`${bad}: overrides.tools["well__echo"].params["txet"]: tool "well__echo" has no parameter "txet" (did you mean "text"?)`)
      expect(stopped.stderr).not.toContain('listening on')
    }
  }, SLOW)

  it('a slow upstream is waited for, the client\'s initialize with it; one that never lists stops the proxy within --timeout, exit 2', async () => {
    const gate = join(scratch, 'gate')
    const good = file('slow.json', { tools: { page: { description: 'Pages.' } } })
    const opened = setTimeout(() => writeFileSync(gate, ''), 1500)
    const proxied = await connectStdioV2(process.execPath, [CLI, 'proxy', '--overrides', good, '--', ...UPSTREAM_V2, '--gate', gate])
    try {
      clearTimeout(opened)
      const { tools } = await proxied.client.listTools()
      expect(tools.find(tool => tool.name === 'page')?.description).toBe('Pages.')
    }
    finally {
      await proxied.close()
    }
    const hung = await runCli(['proxy', '--timeout', '1000', '--', ...WELL, 'hang'])
    expect(hung.code, hung.stderr).toBe(2)
    expect(hung.stderr).toContain('could not be read: Request timed out')
  }, SLOW)
})
