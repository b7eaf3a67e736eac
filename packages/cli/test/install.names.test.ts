// A server a cloned project's config names `__proto__` or `constructor` is a server like any other
// (issue 69): moved behind flatmcp with the rest, or kept in the client's config with a line saying why.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { INSTALL_CLIENTS } from '../src/install/clients'
import { rewriteConfig } from '../src/install/rewrite'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-install-names-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

it('a server named __proto__ or constructor moves behind flatmcp as one named plain does', () => {
  const client = INSTALL_CLIENTS.find(known => known.name === 'claude-code')!
  const server = { command: 'node', args: ['server.mjs'] }
  // Computed keys: a literal `__proto__:` would set the prototype, not a key.
  const servers = { ['__proto__']: server, constructor: server, plain: server }
  const text = JSON.stringify({ mcpServers: servers }, null, 2)
  expect(text).toContain('"__proto__"')
  const rewritten = rewriteConfig(text, client, path.join(scratch, '.mcp.json'), { command: 'flatmcp', args: ['proxy', '--config', 'servers.json'] })
  expect(rewritten.kept).toEqual([])
  expect(Object.keys(rewritten.moved).sort()).toEqual(['__proto__', 'constructor', 'plain'])
  expect(JSON.stringify(rewritten.moved)).toBe(JSON.stringify(servers))
  expect(Object.keys(JSON.parse(rewritten.text).mcpServers)).toEqual(['flatmcp'])
})
