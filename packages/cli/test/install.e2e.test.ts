// `flatmcp install CLIENT`, from the built command, on each client's own config format as its docs
// write it, in a home and a project of their own: the servers flatmcp can serve move into flatmcp's
// config as they were, one entry runs them all, everything else in the file stays as it was; the
// installed entry, run as the client runs it, lists every tool; `--undo` restores the file byte
// for byte; `--dry-run` writes nothing.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { parseTOML } from 'confbox'
import { parse } from 'jsonc-parser'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../test/support/client'
import { runCli } from '../../../test/support/proxy'
import { INSTALL_CLIENTS } from '../src/install/clients'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-install-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const UPSTREAM = path.join(ROOT, 'test/golden/proxied/upstream.mjs')
const TOOLS = (JSON.parse(readFileSync(path.join(ROOT, 'test/golden/proxied/tools.json'), 'utf8')) as { name: string }[]).map(tool => tool.name)

/** A home and a project folder of their own, and the command run there. */
function place(): { home: string, project: string, run: (args: string[]) => ReturnType<typeof runCli> } {
  const home = mkdtempSync(path.join(scratch, 'home-'))
  const project = mkdtempSync(path.join(scratch, 'project-'))
  return { home, project, run: args => runCli(args, project, 60_000, undefined, { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), CODEX_HOME: '' }) }
}

const write = (file: string, text: string): void => {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
}

interface Case {
  client: string
  /** Where its config is, from the home and the project. */
  file: (home: string, project: string) => string
  text: string
  /** The servers that move, and those that stay. */
  moved: string[]
  kept: string[]
  /** Text of the file that must be there after the install, as it was. */
  untouched: string[]
}

const stdio = (extra = ''): string => `"command": "node", "args": [${JSON.stringify(UPSTREAM)}]${extra}`

const CASES: Case[] = [
  {
    client: 'claude-code',
    file: (_, project) => path.join(project, '.mcp.json'),
    text: `{\n  "mcpServers": {\n    "calendar": { ${stdio(', "env": { "CAL_TOKEN": "${CAL_TOKEN:-none}" }')} },\n    "docs": { "type": "http", "url": "https://docs.example.com/mcp", "headers": { "Authorization": "Bearer \${DOCS_KEY}" } },\n    "legacy": { "type": "sse", "url": "https://old.example.com/sse" }\n  }\n}\n`,
    moved: ['calendar', 'docs'],
    kept: ['legacy'],
    untouched: ['"legacy": { "type": "sse", "url": "https://old.example.com/sse" }'],
  },
  {
    client: 'claude-desktop',
    file: home => path.join(home, '.config/Claude/claude_desktop_config.json'),
    text: `{\n    "globalShortcut": "Ctrl+Space",\n    "mcpServers": {\n        "calendar": { ${stdio()} },\n        "notes": { ${stdio(', "env": { "NOTES_DIR": "/tmp/notes" }')} }\n    }\n}\n`,
    moved: ['calendar', 'notes'],
    kept: [],
    untouched: ['    "globalShortcut": "Ctrl+Space",'],
  },
  {
    client: 'cursor',
    file: (_, project) => path.join(project, '.cursor/mcp.json'),
    text: `{\n  "mcpServers": {\n    "calendar": { ${stdio()} },\n    "paused": { ${stdio()}, "disabled": true }\n  }\n}\n`,
    moved: ['calendar'],
    kept: ['paused'],
    untouched: ['"paused"'],
  },
  {
    client: 'vscode',
    file: (_, project) => path.join(project, '.vscode/mcp.json'),
    text: `// The workspace's servers.\n{\n\t"inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],\n\t"servers": {\n\t\t// Our calendar.\n\t\t"calendar": { "type": "stdio", ${stdio()} },\n\t\t"api": { "type": "http", "url": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },\n\t},\n}\n`,
    moved: ['calendar'],
    kept: ['api'],
    untouched: ['// The workspace\'s servers.', '\t"inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],'],
  },
  {
    client: 'gemini',
    file: home => path.join(home, '.gemini/settings.json'),
    text: `{\n  "theme": "GitHub",\n  "mcpServers": {\n    "calendar": { ${stdio(', "env": { "CAL_TOKEN": "$CAL_TOKEN" }, "timeout": 30000, "trust": false, "includeTools": ["create_event"]')} }\n  }\n}\n`,
    moved: ['calendar'],
    kept: [],
    untouched: ['  "theme": "GitHub",'],
  },
  {
    client: 'codex',
    file: home => path.join(home, '.codex/config.toml'),
    text: `model = "gpt-5-codex"\n\n[mcp_servers.calendar]\ncommand = "node"\nargs = [${JSON.stringify(UPSTREAM)}]\n\n[mcp_servers.notes]\ncommand = "node"\nargs = [${JSON.stringify(UPSTREAM)}]\nstartup_timeout_sec = 20\n\n[mcp_servers.notes.env]\nNOTES_DIR = "/tmp/notes"\n\n[profiles.fast]\nmodel = "o4-mini"\n`,
    moved: ['calendar', 'notes'],
    kept: [],
    untouched: ['model = "gpt-5-codex"', '[profiles.fast]\nmodel = "o4-mini"'],
  },
]

const parsed = (client: string, text: string): Record<string, unknown> => client === 'codex' ? parseTOML(text) as Record<string, unknown> : parse(text, [], { allowTrailingComma: true }) as Record<string, unknown>
const serversKey = (client: string): string => INSTALL_CLIENTS.find(known => known.name === client)!.key

/**
 * The tools an entry serves as its client runs it (its command and arguments, over stdio): its list,
 * or behind the search surface (--config's auto for a list this size), those of `expected` it describes.
 */
async function listedBy(entry: { command: string, args: string[] }, expected: string[]): Promise<string[]> {
  const client = new Client({ name: 'installed', version: '1' })
  await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...process.env, CAL_TOKEN: 'cal-secret' } as Record<string, string>, stderr: 'ignore' }))
  try {
    const listed = (await client.listTools()).tools.map(tool => tool.name)
    if (!listed.includes('describe_tools'))
      return listed
    const described = await client.callTool({ name: 'describe_tools', arguments: { names: expected } })
    return (JSON.parse((described.content as { text: string }[])[0]!.text) as { tools: { name: string }[] }).tools.map(tool => tool.name)
  }
  finally {
    await client.close()
  }
}

describe('flatmcp install', () => {
  it.each(CASES)('$client: its servable servers move behind flatmcp as they were, the rest of the file stays, the entry lists every tool, and --undo restores it byte for byte', async (c) => {
    const { home, project, run } = place()
    const file = c.file(home, project)
    write(file, c.text)
    const installed = await run(['install', c.client])
    expect(installed.code, installed.stderr).toBe(0)
    const after = readFileSync(file, 'utf8')
    for (const text of c.untouched)
      expect(after).toContain(text)
    // No line left blank where an entry was.
    expect(after.split('\n').filter(line => line !== '' && line.trim() === '')).toEqual([])
    const servers = parsed(c.client, after)[serversKey(c.client)] as Record<string, { command: string, args: string[], type?: string }>
    expect(Object.keys(servers).sort()).toEqual([...c.kept, 'flatmcp'].sort())
    const entry = servers.flatmcp!
    expect([entry.args.includes('proxy'), entry.args.at(-2)]).toEqual([true, '--config'])
    const serversFile = entry.args.at(-1)!
    expect(serversFile).toBe(path.join(path.dirname(file), '.flatmcp', `${c.client}.servers.json`))
    if (c.client === 'vscode')
      expect(entry.type).toBe('stdio')
    // How the client starts and trusts a server, carried onto the entry: the largest time it gave any, and trust only where it trusted all.
    if (c.client === 'gemini')
      expect(entry).toMatchObject({ timeout: 30000 })
    if (c.client === 'codex')
      expect(entry).toMatchObject({ startup_timeout_sec: 20 })
    expect(entry).not.toHaveProperty('trust')
    // Moved as the client had them: env, variables, its own keys and all.
    const before = parsed(c.client, c.text)[serversKey(c.client)] as Record<string, unknown>
    // (Gemini CLI reads a bare $NAME in env as a variable: moved as ${NAME}, which flatmcp reads.)
    const movedAs = (name: string): unknown => c.client === 'gemini' ? JSON.parse(JSON.stringify(before[name]).replace('"$CAL_TOKEN"', '"${CAL_TOKEN}"')) : before[name]
    expect(JSON.parse(readFileSync(serversFile, 'utf8'))).toEqual({ mcpServers: Object.fromEntries(c.moved.map(name => [name, movedAs(name)])) })
    for (const name of c.kept)
      expect(installed.stderr).toContain(`flatmcp install: ${name} stays in`)
    // Run as the client runs it: every tool of every server it can start, by NAME__tool.
    // (Gemini's includeTools keeps one tool; a URL entry has no server here to list.)
    const startable = c.moved.filter(name => (before[name] as { command?: string }).command !== undefined)
    const kept = (name: string): string[] => (before[name] as { includeTools?: string[] }).includeTools ?? TOOLS
    const every = startable.flatMap(name => kept(name).map(tool => `${name}__${tool}`)).sort()
    if (startable.length === c.moved.length)
      expect((await listedBy(entry, every)).sort()).toEqual(every)
    // Claude Code defers MCP tools itself: it gets every schema, not --config's auto surface.
    expect(entry.args.includes('--surface')).toBe(c.client === 'claude-code')
    const undone = await run(['install', c.client, '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(c.text)
    expect(existsSync(path.join(path.dirname(file), '.flatmcp'))).toBe(false)
  })

  it('--dry-run prints the change and writes nothing; a second install is refused; a config the client changed since is undone by meaning, its changes kept (--force: the original bytes)', async () => {
    const { home, project, run } = place()
    const file = path.join(home, '.claude.json')
    const text = `{\n  "numStartups": 3,\n  "mcpServers": {\n    "calendar": { ${stdio()} }\n  }\n}\n`
    write(file, text)
    const dry = await run(['install', 'claude-code', '--dry-run', '--', '--surface', 'search'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout).toMatch(/^\+.*"flatmcp"/m)
    expect(dry.stdout).toMatch(/^-.*"calendar"/m)
    expect(dry.stdout).toContain('"--surface",')
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(existsSync(path.join(home, '.flatmcp'))).toBe(false)
    expect((await run(['install', 'claude-code'])).code).toBe(0)
    const again = await run(['install', 'claude-code'])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('installed already')
    // Claude Code keeps its state in ~/.claude.json and writes it anew as it runs.
    const changedBy = (before: string): string => JSON.stringify({ ...JSON.parse(before), numStartups: 4, userID: 'u1' })
    writeFileSync(file, changedBy(readFileSync(file, 'utf8')))
    const undone = await run(['install', 'claude-code', '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect(undone.stderr).toContain('changed since the install, so flatmcp\'s entry was taken out and its servers put back')
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ...JSON.parse(text), numStartups: 4, userID: 'u1' })
    expect(existsSync(path.join(home, '.flatmcp'))).toBe(false)
    // --force: the bytes it had before the install, whatever changed since.
    const before = readFileSync(file, 'utf8')
    expect((await run(['install', 'claude-code'])).code).toBe(0)
    writeFileSync(file, changedBy(readFileSync(file, 'utf8')))
    expect((await run(['install', 'claude-code', '--undo', '--force'])).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(before)
    expect(project).not.toBe(home)
  })

  it('a Codex config changed since the install is undone by meaning: its tables back as they were, the change kept', async () => {
    const c = CASES.find(known => known.client === 'codex')!
    const { home, project, run } = place()
    const file = c.file(home, project)
    write(file, c.text)
    expect((await run(['install', 'codex'])).code).toBe(0)
    writeFileSync(file, readFileSync(file, 'utf8').replace('model = "gpt-5-codex"', 'model = "gpt-5.1-codex"'))
    const undone = await run(['install', 'codex', '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(`model = "gpt-5.1-codex"\n\n[profiles.fast]\nmodel = "o4-mini"\n\n[mcp_servers.calendar]\ncommand = "node"\nargs = [${JSON.stringify(UPSTREAM)}]\n\n[mcp_servers.notes]\ncommand = "node"\nargs = [${JSON.stringify(UPSTREAM)}]\nstartup_timeout_sec = 20\n\n[mcp_servers.notes.env]\nNOTES_DIR = "/tmp/notes"\n`)
  })

  it('keeps a config of secrets its owner\'s alone, and refuses what it cannot do with the file named', async () => {
    const { home, run } = place()
    const file = path.join(home, '.cursor/mcp.json')
    write(file, `{"mcpServers": {"calendar": {${stdio()}}}}`)
    const { chmodSync } = await import('node:fs')
    chmodSync(file, 0o600)
    expect((await run(['install', 'cursor'])).code).toBe(0)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const none = await run(['install', 'gemini'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain(`${path.join(home, '.gemini/settings.json')}: no such file`)
    write(path.join(home, '.gemini/settings.json'), '{"mcpServers": {"old": {"type": "sse", "url": "https://old.example.com/sse"}}}')
    const nothing = await run(['install', 'gemini'])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('no server flatmcp can serve (old: ')
    write(path.join(home, '.gemini/settings.json'), '{"mcpServers": {}}')
    const empty = await run(['install', 'gemini'])
    expect([empty.code, empty.stderr]).toEqual([2, `flatmcp: ${path.join(home, '.gemini/settings.json')}: lists no MCP servers ("mcpServers" is empty), so there is nothing to put behind flatmcp\n`])
    const flag = await run(['install', 'cursor', '--', '--surface', 'everything'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain('after --: --surface must be')
  })
})
