// `flatmcp install CLIENT` for each client of the install table beyond the six install.e2e.test.ts
// covers, from the built command, on a config in that client's documented format (comments, other
// settings, a server that moves and one that stays): the servers move as the client had them, every
// line install does not own stays, the installed entry (run as the client runs it) serves the moved
// servers' tools, and `--undo` restores the file byte for byte.
import type { InstallClient } from '../src/install/clients'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../test/support/client'
import { runCli } from '../../../test/support/proxy'
import { INSTALL_CLIENTS } from '../src/install/clients'
import { serversTable, toFlatmcp } from '../src/install/entries'
import { parseConfig } from '../src/install/rewrite'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-install-clients-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const UPSTREAM = JSON.stringify(path.join(ROOT, 'test/golden/proxied/upstream.mjs'))
const TOOLS = (JSON.parse(readFileSync(path.join(ROOT, 'test/golden/proxied/tools.json'), 'utf8')) as { name: string }[]).map(tool => tool.name)

/** The clients install.e2e.test.ts covers with their own cases. */
const COVERED = new Set(['claude-code', 'claude-desktop', 'cursor', 'vscode', 'gemini', 'codex'])

interface Sample {
  /** The config as the client's docs write it. */
  text: string
  moved: string[]
  kept: string[]
  /** Lines that must be there after the install, as they were. */
  untouched: string[]
  /** What install says of a server that stays, where the test checks it. */
  said?: Record<string, string>
}

/** An `mcpServers` JSON config (Cline, Roo Code, Windsurf, Kiro, LM Studio), with each client's own keys. */
const mcpServersJson = (own: string, head = ''): Sample => ({
  text: `{\n${head}  "mcpServers": {\n    "calendar": {\n      "command": "node",\n      "args": [${UPSTREAM}],\n      "env": { "CAL_TOKEN": "\${CAL_TOKEN}" }${own}\n    },\n    "paused": { "command": "node", "args": [${UPSTREAM}], "disabled": true }\n  }\n}\n`,
  moved: ['calendar'],
  kept: ['paused'],
  untouched: [`    "paused": { "command": "node", "args": [${UPSTREAM}], "disabled": true }`, ...(head ? [head.trimEnd()] : [])],
})

const SAMPLES: Record<string, Sample> = {
  'cline': mcpServersJson(',\n      "disabled": false,\n      "autoApprove": [],\n      "timeout": 90,\n      "type": "stdio"'),
  'roo-code': mcpServersJson(',\n      "alwaysAllow": [],\n      "disabledTools": ["drop_database"],\n      "timeout": 60'),
  'windsurf': mcpServersJson(',\n      "disabled": false'),
  'kiro': mcpServersJson(',\n      "disabled": false,\n      "autoApprove": [],\n      "disabledTools": []'),
  'lm-studio': mcpServersJson(''),
  'zed': {
    text: `// Zed settings\n{\n  "theme": "One Dark",\n  "context_servers": {\n    // Our calendar.\n    "calendar": {\n      "source": "custom",\n      "enabled": true,\n      "command": "node",\n      "args": [${UPSTREAM}],\n      "env": { "CAL_TOKEN": "\${CAL_TOKEN}" }\n    },\n    "postgres": { "source": "extension", "enabled": true, "settings": {} },\n  },\n  "vim_mode": true,\n}\n`,
    moved: ['calendar'],
    kept: ['postgres'],
    untouched: ['// Zed settings', '  "theme": "One Dark",', '    "postgres": { "source": "extension", "enabled": true, "settings": {} },', '  "vim_mode": true,'],
    said: { postgres: 'postgres stays in Zed\'s config: is an extension Zed runs itself ("source": "extension"), not a command flatmcp starts' },
  },
  'opencode': {
    text: `{\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {\n    "calendar": {\n      "type": "local",\n      "command": ["node", ${UPSTREAM}],\n      "enabled": true,\n      "environment": { "CAL_TOKEN": "\${CAL_TOKEN}" },\n      "timeout": 10000\n    },\n    "remote-off": { "type": "remote", "url": "https://mcp.example.com/mcp", "enabled": false }\n  },\n  "theme": "opencode"\n}\n`,
    moved: ['calendar'],
    kept: ['remote-off'],
    untouched: ['  "$schema": "https://opencode.ai/config.json",', '    "remote-off": { "type": "remote", "url": "https://mcp.example.com/mcp", "enabled": false }', '  "theme": "opencode"'],
  },
  'crush': {
    text: `{\n  "$schema": "https://charm.land/crush.json",\n  "mcp": {\n    "calendar": {\n      "type": "stdio",\n      "command": "node",\n      "args": [${UPSTREAM}],\n      "env": { "CAL_TOKEN": "\${CAL_TOKEN}" },\n      "timeout": 120\n    },\n    "old": { "type": "sse", "url": "https://old.example.com/sse" }\n  }\n}\n`,
    moved: ['calendar'],
    kept: ['old'],
    untouched: ['  "$schema": "https://charm.land/crush.json",', '    "old": { "type": "sse", "url": "https://old.example.com/sse" }'],
  },
  'goose': {
    text: `# goose settings\nGOOSE_PROVIDER: anthropic\nGOOSE_MODEL: claude-sonnet-4\nextensions:\n  # Built in: stays.\n  developer:\n    bundled: true\n    display_name: Developer\n    enabled: true\n    name: developer\n    timeout: 300\n    type: builtin\n  calendar:\n    args:\n    - ${UPSTREAM}\n    bundled: null\n    cmd: node\n    description: Our calendar\n    enabled: true\n    env_keys: []\n    envs:\n      CAL_TOKEN: \${CAL_TOKEN}\n    name: Calendar\n    timeout: 120   # seconds\n    type: stdio\nGOOSE_MODE: smart_approve\n`,
    moved: ['calendar'],
    kept: ['developer'],
    untouched: ['# goose settings\nGOOSE_PROVIDER: anthropic\nGOOSE_MODEL: claude-sonnet-4\nextensions:\n', '  # Built in: stays.\n  developer:\n    bundled: true\n    display_name: Developer\n    enabled: true\n    name: developer\n    timeout: 300\n    type: builtin\n', 'GOOSE_MODE: smart_approve\n'],
  },
  'continue': {
    text: `name: My Assistant\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: Claude\n    provider: anthropic\n    model: claude-sonnet-4\nmcpServers:\n  # From the hub: stays.\n  - uses: anthropic/memory-mcp\n  - name: calendar\n    command: node\n    args:\n      - ${UPSTREAM}\n    env:\n      CAL_TOKEN: \${CAL_TOKEN}\n    connectionTimeout: 20000\n  - name: database\n    command: npx\n    args: ["-y", "mcp-sqlite"]\n    env:\n      DB_PASSWORD: \${{ secrets.DB_PASSWORD }}\n`,
    moved: ['calendar'],
    kept: ['database'],
    untouched: ['models:\n  - name: Claude\n    provider: anthropic\n    model: claude-sonnet-4\nmcpServers:\n', '  # From the hub: stays.\n  - uses: anthropic/memory-mcp\n', '  - name: database\n    command: npx\n    args: ["-y", "mcp-sqlite"]\n    env:\n      DB_PASSWORD: ${{ secrets.DB_PASSWORD }}\n'],
  },
}

/** The tools an entry in flatmcp's shape serves, run as its client runs it (over stdio), through describe_tools where --config's auto surface searches. */
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

/** The servers of a client's config text, by name, as the client writes them. */
const serversIn = (client: InstallClient, text: string): Record<string, unknown> => serversTable(parseConfig(text, client.format, 'config'), client.key, client.list).table ?? {}

describe('flatmcp install, each client of the table', () => {
  it.each(INSTALL_CLIENTS.filter(client => !COVERED.has(client.name)).map(client => [client.name, client] as const))('%s: its servable servers move as they were, every other line stays, the entry serves their tools, and --undo restores the file byte for byte', async (_, client) => {
    const sample = SAMPLES[client.name]
    expect(sample, `a sample config for ${client.name}`).toBeDefined()
    const home = mkdtempSync(path.join(scratch, 'home-'))
    const project = mkdtempSync(path.join(scratch, 'project-'))
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }
    const file = client.files.user!({ home, cwd: project, platform: process.platform, env })
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, sample!.text)
    const run = (args: string[]): ReturnType<typeof runCli> => runCli(args, project, 60_000, undefined, env)
    const installed = await run(['install', client.name])
    expect(installed.code, installed.stderr).toBe(0)
    const after = readFileSync(file, 'utf8')
    for (const text of sample!.untouched)
      expect(after).toContain(text)
    const servers = serversIn(client, after)
    expect(Object.keys(servers).sort()).toEqual([...sample!.kept, 'flatmcp'].sort())
    for (const name of sample!.kept)
      expect(installed.stderr).toContain(`flatmcp install: ${name} stays in`)
    for (const line of Object.values(sample!.said ?? {}))
      expect(installed.stderr.split('\n')).toContain(`flatmcp install: ${line}`)
    // Moved whole, in the shape --config reads: env and the client's own keys carried.
    const before = serversIn(client, sample!.text)
    const serversFile = path.join(path.dirname(file), '.flatmcp', `${client.name}.servers.json`)
    expect(JSON.parse(readFileSync(serversFile, 'utf8'))).toEqual({ mcpServers: Object.fromEntries(sample!.moved.map(name => [name, toFlatmcp(client.entry, before[name])])) })
    // Run as the client runs its entry: every tool of each moved server, as NAME__tool.
    const entry = toFlatmcp(client.entry, servers.flatmcp) as { command: string, args: string[] }
    expect(entry.args.slice(-2)).toEqual(['--config', serversFile])
    const every = sample!.moved.flatMap(name => TOOLS.map(tool => `${name}__${tool}`)).sort()
    const excluded = ((toFlatmcp(client.entry, before.calendar) as { excludeTools?: string[] }).excludeTools ?? []).map(tool => `calendar__${tool}`)
    expect((await listedBy(entry, every)).sort()).toEqual(every.filter(name => !excluded.includes(name)))
    const undone = await run(['install', client.name, '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(sample!.text)
  })

  it.each(INSTALL_CLIENTS.filter(client => client.format === 'yaml').map(client => [client.name, client] as const))('%s: a config the client changed since the install is undone by meaning, its change and every other line kept', async (_, client) => {
    const sample = SAMPLES[client.name]!
    const home = mkdtempSync(path.join(scratch, 'home-'))
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }
    const file = client.files.user!({ home, cwd: home, platform: process.platform, env })
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, sample.text)
    const run = (args: string[]): ReturnType<typeof runCli> => runCli(args, home, 60_000, undefined, env)
    expect((await run(['install', client.name])).code).toBe(0)
    writeFileSync(file, `${readFileSync(file, 'utf8')}# changed since\n`)
    const undone = await run(['install', client.name, '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    const after = readFileSync(file, 'utf8')
    expect(after.endsWith('# changed since\n')).toBe(true)
    for (const text of sample.untouched)
      expect(after).toContain(text)
    expect(serversIn(client, after)).toEqual(serversIn(client, sample.text))
  })
})
