// `flatmcp install --list`, from the built command: every client of the table in each scope it has,
// its config here, whether flatmcp is installed there and the servers behind it; nothing written.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../../../test/support/proxy'
import { ROOT } from '../../../test/support/client'
import { INSTALL_CLIENTS } from '../src/install/clients'
import { renderInstalls } from '../src/install/list'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-install-list-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const write = (file: string, text: string): void => {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
}

/** Every file under a folder, with its bytes. */
const snapshot = (folder: string): Record<string, string> => Object.fromEntries(readdirSync(folder, { recursive: true, withFileTypes: true }).filter(entry => entry.isFile()).map((entry) => {
  const file = path.join(entry.parentPath, entry.name)
  return [file, readFileSync(file, 'utf8')]
}))

describe('flatmcp install --list', () => {
  it('says for each client and scope its config, whether flatmcp is installed there and the servers behind it, as text and --json, and writes nothing', async () => {
    const home = mkdtempSync(path.join(scratch, 'home-'))
    const project = mkdtempSync(path.join(scratch, 'project-'))
    const run = (args: string[]): ReturnType<typeof runCli> => runCli(args, project, 60_000, undefined, { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), CODEX_HOME: '' })
    write(path.join(project, '.mcp.json'), '{"mcpServers": {"calendar": {"command": "node", "args": ["cal.js"]}, "docs": {"type": "http", "url": "https://docs.example.com/mcp"}, "legacy": {"type": "sse", "url": "https://old.example.com/sse"}}}')
    write(path.join(home, '.cursor/mcp.json'), '{"mcpServers": {"notes": {"command": "notes-server"}}}')
    write(path.join(home, '.codex/config.toml'), '[mcp_servers.gh]\ncommand = "gh-server"\n')
    expect((await run(['install', 'claude-code', '--command', 'flatmcp'])).code).toBe(0)
    expect((await run(['install', 'codex', '--command', 'flatmcp'])).code).toBe(0)
    const before = { ...snapshot(home), ...snapshot(project) }
    const listed = await run(['install', '--list', '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    const places = JSON.parse(listed.stdout) as { client: string, scope: string, file: string, state: string, behind: string[], own: string[] }[]
    // Every client of the table, in each scope it has.
    expect(places.map(place => `${place.client} ${place.scope}`)).toEqual(INSTALL_CLIENTS.flatMap(client => (['project', 'user'] as const).filter(scope => client.files[scope]).map(scope => `${client.name} ${scope}`)))
    const at = (client: string, scope: string): unknown => places.find(place => place.client === client && place.scope === scope)
    expect(at('claude-code', 'project')).toMatchObject({ file: path.join(project, '.mcp.json'), state: 'installed', behind: ['calendar', 'docs'], own: ['legacy'] })
    expect(at('claude-code', 'user')).toMatchObject({ file: path.join(home, '.claude.json'), state: 'no file', behind: [], own: [] })
    expect(at('cursor', 'user')).toMatchObject({ state: 'not installed', behind: [], own: ['notes'] })
    expect(at('codex', 'user')).toMatchObject({ file: path.join(home, '.codex/config.toml'), state: 'installed', behind: ['gh'], own: [] })
    const text = await run(['install', '--list'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toMatch(new RegExp(`^claude-code +project +installed +${path.join(project, '.mcp.json')}\n {4}behind flatmcp \\(${path.join(project, '.flatmcp/claude-code.servers.json')}\\): calendar, docs\n {4}in Claude Code's config beside flatmcp: legacy$`, 'm'))
    expect(text.stdout).toMatch(/^cursor +user +not installed .*\n {4}in Cursor's config: notes$/m)
    expect({ ...snapshot(home), ...snapshot(project) }).toEqual(before)
    const wrong = await run(['install', '--list', 'cursor'])
    expect([wrong.code, wrong.stderr.split('\n')[0]]).toEqual([2, 'flatmcp: --list takes no client (cursor): it lists every client\'s configs here'])
  })
  it('prints docs/proxy.md\'s example as it shows it', () => {
    const docs = readFileSync(path.join(ROOT, 'docs/proxy.md'), 'utf8')
    const shown = /```\n(claude-code {5}project {2}installed[^`]*)```/.exec(docs)![1]!.trimEnd()
    const place = { title: 'Claude Code', behind: [], own: [] }
    expect(renderInstalls([
      { ...place, client: 'claude-code', scope: 'project', file: '/work/app/.mcp.json', state: 'installed', behind: ['calendar', 'docs'], own: ['legacy'], servers: '/work/app/.flatmcp/claude-code.servers.json' },
      { ...place, client: 'claude-code', scope: 'user', file: '/home/ada/.claude.json', state: 'no file' },
      { ...place, client: 'cursor', title: 'Cursor', scope: 'user', file: '/home/ada/.cursor/mcp.json', state: 'not installed', own: ['notes'] },
    ])).toBe(shown)
  })
})

describe('names from a config someone else wrote', () => {
  it('are listed with their control characters escaped: a cloned project\'s server name cannot retitle or rewrite the terminal', () => {
    const name = 'gh\u001B]0;owned\u0007\u001B[2J'
    const text = renderInstalls([{ client: 'cursor', title: 'Cursor', scope: 'project', file: '/p/.cursor/mcp.json', state: 'not installed', behind: [], own: [name], error: `"${name}": oops` }])
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/)
    expect(text).toContain('gh\\x1b]0;owned\\x07\\x1b[2J')
  })
})
