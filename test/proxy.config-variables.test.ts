// A variable one entry of `flatmcp proxy --config` names (Codex's `env_vars`, `${NAME}` in its env or
// headers) reaches that entry's server only, as in the client the entry came from: the others start
// without it, while a variable no entry names is the proxy's environment, which every server gets (issue 68).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI } from './support/proxy'

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-config-variables-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const REPORTER = join(ROOT, 'test/support/env-upstream.mjs')

describe('flatmcp proxy --config: a variable an entry names goes to that entry only', () => {
  it('Codex\'s env_vars and ${NAME} in env go to the entry that names them; the others, and a variable no entry names, as the proxy has them', async () => {
    const config = join(scratch, 'config.toml')
    writeFileSync(config, `[mcp_servers.gh]\ncommand = "node"\nargs = [${JSON.stringify(REPORTER)}]\nenv_vars = ["GH_TOKEN"]\n\n[mcp_servers.db]\ncommand = "node"\nargs = [${JSON.stringify(REPORTER)}]\nenv = { DSN = "\${DB_URL}" }\n\n[mcp_servers.plain]\ncommand = "node"\nargs = [${JSON.stringify(REPORTER)}]\n`)
    const mcp = new Client({ name: 'config-variables', version: '1' })
    await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--config', config], cwd: ROOT, env: { ...process.env as Record<string, string>, GH_TOKEN: 'ghp-secret', DB_URL: 'postgres://x', SHARED: 'all' }, stderr: 'ignore' }))
    try {
      const seen = async (server: string, name: string): Promise<boolean> => {
        const result = await mcp.callTool({ name: `${server}__variable`, arguments: { name } })
        return (JSON.parse((result.content as { text: string }[])[0]!.text) as { set: boolean }).set
      }
      const table: Record<string, Record<string, boolean>> = {}
      for (const server of ['gh', 'db', 'plain'])
        table[server] = Object.fromEntries(await Promise.all(['GH_TOKEN', 'DB_URL', 'DSN', 'SHARED'].map(async name => [name, await seen(server, name)])))
      expect(table).toEqual({
        gh: { GH_TOKEN: true, DB_URL: false, DSN: false, SHARED: true },
        db: { GH_TOKEN: false, DB_URL: true, DSN: true, SHARED: true },
        plain: { GH_TOKEN: false, DB_URL: false, DSN: false, SHARED: true },
      })
    }
    finally {
      await mcp.close()
    }
  })
})
