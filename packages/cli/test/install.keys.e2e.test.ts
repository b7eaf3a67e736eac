// `flatmcp install CLIENT` carries every key a client starts a server with, or keeps that server in
// the client's config with a line saying why: each client's config, as its docs write it, installed
// from the built command, and the installed entry started as that client starts it (Codex: only a few
// variables of its own and those `env_vars` names); each moved server reports the folder and the
// environment it was started with, which must be those the client would have given it.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { parseTOML } from 'confbox'
import { parse } from 'jsonc-parser'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../test/support/client'
import { runCli } from '../../../test/support/proxy'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-install-keys-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const REPORTER = path.join(ROOT, 'test/support/env-upstream.mjs')

const write = (file: string, text: string): void => {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
}

/** How a server reports it was started. */
interface Started { cwd: string, env: Record<string, string | undefined> }

interface Case {
  client: string
  key: string
  file: (home: string, project: string) => string
  /** The config, from the home and the project (whose `tools/` holds the reporting server). */
  text: (home: string, project: string) => string
  /** The variables of the environment the client runs in. */
  env: Record<string, string>
  /** What each moved server must report, from the home and the project. */
  started: (home: string, project: string) => Record<string, { cwd?: string, env: Record<string, string | undefined> }>
  /** The servers that stay, each with words of why. */
  kept: Record<string, string>
}

const CASES: Case[] = [
  {
    client: 'codex',
    key: 'mcp_servers',
    file: home => path.join(home, '.codex/config.toml'),
    text: (_, project) => `[mcp_servers.github]\ncommand = "node"\nargs = [${JSON.stringify(REPORTER)}]\ncwd = ${JSON.stringify(path.join(project, 'sub'))}\nenv_vars = ["GITHUB_PERSONAL_ACCESS_TOKEN"]\nstartup_timeout_sec = 30\ntool_timeout_sec = 90\nenabled_tools = ["whereami"]\n\n[mcp_servers.github.env]\nLABEL = "gh"\n\n[mcp_servers.plain]\ncommand = "node"\nargs = [${JSON.stringify(REPORTER)}]\n`,
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp-secret', UNRELATED: 'x' },
    // Codex passes a variable only to the server whose env_vars names it, though flatmcp's entry is handed them all.
    started: (_, project) => ({ github: { cwd: path.join(project, 'sub'), env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp-secret', LABEL: 'gh', UNRELATED: undefined } }, plain: { env: { GITHUB_PERSONAL_ACCESS_TOKEN: undefined } } }),
    kept: {},
  },
  {
    client: 'vscode',
    key: 'servers',
    file: (_, project) => path.join(project, '.vscode/mcp.json'),
    text: () => `{\n  "inputs": [{ "type": "promptString", "id": "token", "password": true }],\n  "servers": {\n    "files": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}\${/}tools/env-upstream.mjs"], "cwd": "\${workspaceFolder}/sub", "envFile": "\${workspaceFolder}/.env", "env": { "OVERRIDDEN": "by-env", "TOKEN": "\${env:API_TOKEN}", "SEEN_HOME": "\${userHome}", "NAME": "\${workspaceFolderBasename}" } },\n    "asks": { "type": "stdio", "command": "node", "args": ["tools/env-upstream.mjs"], "env": { "KEY": "\${input:token}" } }\n  }\n}\n`,
    env: { API_TOKEN: 'tok' },
    started: (home, project) => ({ files: { cwd: path.join(project, 'sub'), env: { TOKEN: 'tok', SEEN_HOME: home, NAME: path.basename(project), FROM_FILE: 'yes', OVERRIDDEN: 'by-env' } } }),
    kept: { asks: 'uses ${input:token}, which only VS Code answers' },
  },
  {
    client: 'cursor',
    key: 'mcpServers',
    file: (_, project) => path.join(project, '.cursor/mcp.json'),
    text: () => `{"mcpServers": {"files": {"command": "node", "args": ["\${workspaceFolder}/tools/env-upstream.mjs"], "envFile": ".env", "env": {"TOKEN": "\${env:API_TOKEN}", "SEEN_HOME": "\${userHome}"}}}}`,
    env: { API_TOKEN: 'tok' },
    started: home => ({ files: { env: { TOKEN: 'tok', SEEN_HOME: home, FROM_FILE: 'yes' } } }),
    kept: {},
  },
  {
    client: 'claude-code',
    key: 'mcpServers',
    file: (_, project) => path.join(project, '.mcp.json'),
    text: () => `{"mcpServers": {"files": {"command": "node", "args": [${JSON.stringify(REPORTER)}], "env": {"TOKEN": "\${API_TOKEN}", "REGION": "\${REGION:-eu}"}}}}`,
    env: { API_TOKEN: 'tok' },
    started: () => ({ files: { env: { TOKEN: 'tok', REGION: 'eu' } } }),
    kept: {},
  },
  {
    client: 'claude-desktop',
    key: 'mcpServers',
    file: home => path.join(home, '.config/Claude/claude_desktop_config.json'),
    text: (_, project) => JSON.stringify({ mcpServers: { files: { command: 'node', args: [REPORTER], cwd: path.join(project, 'sub'), env: { TOKEN: '${API_TOKEN}' } } } }),
    env: { API_TOKEN: 'tok' },
    started: (_, project) => ({ files: { cwd: path.join(project, 'sub'), env: { TOKEN: 'tok' } } }),
    kept: {},
  },
  {
    client: 'gemini',
    key: 'mcpServers',
    file: (_, project) => path.join(project, '.gemini/settings.json'),
    text: () => `{"mcpServers": {"files": {"command": "node", "args": [${JSON.stringify(REPORTER)}], "cwd": "$TOOLS_DIR", "env": {"TOKEN": "$API_TOKEN"}}}}`,
    env: { API_TOKEN: 'tok' },
    started: (_, project) => ({ files: { cwd: project, env: { TOKEN: 'tok' } } }),
    kept: {},
  },
]

/** What the moved server `name` reports when the installed entry is started as its client starts it. */
async function startedBy(entry: { command: string, args: string[], env_vars?: string[] }, client: string, outer: Record<string, string>, cwd: string, name: string): Promise<Started> {
  // Codex gives a server a few variables of its own and those its entry's env_vars name; the others their whole environment.
  const env = client === 'codex'
    ? { PATH: process.env.PATH!, HOME: process.env.HOME!, ...Object.fromEntries((entry.env_vars ?? []).filter(key => key in outer).map(key => [key, outer[key]!])) }
    : { ...process.env as Record<string, string>, ...outer }
  const mcp = new Client({ name: 'installed', version: '1' })
  await mcp.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env, cwd, stderr: 'ignore' }))
  try {
    const result = await mcp.callTool({ name: `${name}__whereami`, arguments: {} })
    return JSON.parse((result.content as { text: string }[])[0]!.text) as Started
  }
  finally {
    await mcp.close()
  }
}

/** A home and a project of their own (the project with the reporting server in tools/, a sub/ folder and a .env), and install run there. */
function place(env: Record<string, string> = {}): { home: string, project: string, install: (args: string[]) => ReturnType<typeof runCli> } {
  const home = mkdtempSync(path.join(scratch, 'home-'))
  const project = mkdtempSync(path.join(scratch, 'project-'))
  mkdirSync(path.join(project, 'sub'))
  mkdirSync(path.join(project, 'tools'))
  copyFileSync(REPORTER, path.join(project, 'tools/env-upstream.mjs'))
  write(path.join(project, '.env'), 'FROM_FILE=yes\nOVERRIDDEN=by-file\n')
  return { home, project, install: args => runCli(['install', ...args], project, 60_000, undefined, { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), CODEX_HOME: '', TOOLS_DIR: project, ...env }) }
}

const serversOf = (client: string, key: string, file: string): Record<string, { command: string, args: string[], env_vars?: string[] }> => {
  const text = readFileSync(file, 'utf8')
  return ((client === 'codex' ? parseTOML(text) : parse(text, [], { allowTrailingComma: true })) as Record<string, never>)[key]!
}

describe('flatmcp install carries the keys a client starts a server with', () => {
  it.each(CASES)('$client: each moved server starts as the client would have started it; one that cannot stays, said', async (c) => {
    const { home, project, install } = place(c.env)
    const file = c.file(home, project)
    write(file, c.text(home, project))
    const installed = await install([c.client])
    expect(installed.code, installed.stderr).toBe(0)
    for (const [name, why] of Object.entries(c.kept))
      expect(installed.stderr.split('\n').find(line => line.startsWith(`flatmcp install: ${name} stays in `))).toContain(`'s config: ${why}`)
    const servers = serversOf(c.client, c.key, file)
    expect(Object.keys(servers).sort()).toEqual([...Object.keys(c.kept), 'flatmcp'].sort())
    for (const [name, expected] of Object.entries(c.started(home, project))) {
      const started = await startedBy(servers.flatmcp!, c.client, { ...c.env, TOOLS_DIR: project }, project, name)
      expect(started.env).toMatchObject(Object.fromEntries(Object.entries(expected.env).filter(([, value]) => value !== undefined)))
      for (const [key] of Object.entries(expected.env).filter(([, value]) => value === undefined))
        expect(started.env, key).not.toHaveProperty(key)
      if (expected.cwd !== undefined)
        expect(started.cwd).toBe(expected.cwd)
    }
  })

  it('vscode, the user\'s config: a server that names ${workspaceFolder} (whichever folder VS Code has open) stays, and the proxy starts with the others', async () => {
    const { home, project, install } = place()
    const file = path.join(home, '.config/Code/User/mcp.json')
    write(file, JSON.stringify({ servers: { here: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/tools/env-upstream.mjs'] }, plain: { type: 'stdio', command: 'node', args: [REPORTER], env: { AT: '${userHome}' } } } }))
    const installed = await install(['vscode', '--scope', 'user'])
    expect(installed.code, installed.stderr).toBe(0)
    expect(installed.stderr).toContain('flatmcp install: here stays in VS Code\'s config: uses ${workspaceFolder}, the folder VS Code has open, which only a project\'s config names')
    const servers = serversOf('vscode', 'servers', file)
    expect(Object.keys(servers).sort()).toEqual(['flatmcp', 'here'])
    expect((await startedBy(servers.flatmcp!, 'vscode', {}, project, 'plain')).env.AT).toBe(home)
  })

  it('codex: flatmcp\'s entry names every variable its servers read (env_vars, a bearer token\'s, a header\'s), and an env_vars it cannot read keeps its server with Codex', async () => {
    const { home, install } = place()
    const file = path.join(home, '.codex/config.toml')
    write(file, `[mcp_servers.docs]\nurl = "https://docs.example.com/mcp"\nbearer_token_env_var = "DOCS_TOKEN"\nenv_http_headers = { "X-Team" = "TEAM_ID" }\n\n[mcp_servers.gh]\ncommand = "node"\nargs = [${JSON.stringify(REPORTER)}]\nenv_vars = ["GH_TOKEN"]\n\n[mcp_servers.odd]\ncommand = "node"\nenv_vars = [{ name = "A" }]\n`)
    const installed = await install(['codex'])
    expect(installed.code, installed.stderr).toBe(0)
    expect(installed.stderr).toContain('flatmcp install: odd stays in Codex\'s config: env_vars: must be a list of variable names')
    const servers = serversOf('codex', 'mcp_servers', file)
    expect(servers.flatmcp!.env_vars).toEqual(['DOCS_TOKEN', 'GH_TOKEN', 'TEAM_ID'])
    expect(Object.keys(servers).sort()).toEqual(['flatmcp', 'odd'])
  })
  it('vscode: a config changed since the install is undone by meaning with its servers as they were written, variables unresolved', async () => {
    const { project, install } = place()
    const file = path.join(project, '.vscode/mcp.json')
    const files = { type: 'stdio', command: 'node', args: ['${workspaceFolder}/tools/env-upstream.mjs'], envFile: '${workspaceFolder}/.env' }
    write(file, JSON.stringify({ servers: { files } }, null, 2))
    expect((await install(['vscode'])).code).toBe(0)
    const moved = JSON.parse(readFileSync(path.join(project, '.vscode/.flatmcp/vscode.servers.json'), 'utf8')) as { mcpServers: { files: { args: string[] } } }
    expect(moved.mcpServers.files.args).toEqual([`${project}/tools/env-upstream.mjs`])
    write(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')) as object, inputs: [] }, null, 2))
    const undone = await install(['vscode', '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ servers: { files }, inputs: [] })
  })
})
