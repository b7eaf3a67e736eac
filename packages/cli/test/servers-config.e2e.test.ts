// A client's own MCP server config, read as `flatmcp proxy --config` serves it: each client's shape as
// its docs write it, variables as that client reads them, entries switched off skipped, and anything
// flatmcp cannot serve one error naming the file, the entry and the key.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI } from '../../../test/support/proxy'
import { INSTALL_CLIENTS } from '../src/install/clients'
import { CONFIG_SHAPES, SERVED_SHAPES, servedShapesSpelled } from '../src/install/shapes'
import { readServersConfigFile } from '../src/proxy/config-file'
import { readServersConfig } from '../src/proxy/servers-config'

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-servers-config-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const ENV = { HOME: '/home/ada', GH_TOKEN: 'gh-secret', DOCS_TOKEN: 'docs-secret' }

function read(name: string, text: string, env: Record<string, string> = ENV): ReturnType<typeof readServersConfigFile> {
  const file = join(scratch, name)
  writeFileSync(file, text)
  return readServersConfigFile(file, env)
}

const refused = (name: string, text: string): string => {
  try {
    read(name, text)
  }
  catch (error) {
    return (error as Error).message.replaceAll(scratch, '<dir>')
  }
  throw new Error('read')
}

describe('a client\'s server config', () => {
  it('Claude Desktop\'s mcpServers: commands with their arguments and environment, a variable in env left for the proxy to read', () => {
    const config = read('claude_desktop_config.json', JSON.stringify({
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '${HOME}/Desktop'] },
        github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GH_TOKEN}' } },
      },
    }))
    expect(config).toEqual({
      shape: 'mcpServers',
      skipped: [],
      entries: [
        // GH_TOKEN is github's (HOME every server's): the filesystem server starts without it.
        { name: 'filesystem', target: { command: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/home/ada/Desktop'], othersVariables: ['GH_TOKEN'] } },
        { name: 'github', target: { command: ['npx', '-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GH_TOKEN}' } } },
      ],
    })
  })

  it('Claude Code\'s .mcp.json: a server over HTTP with headers, ${NAME:-default} read as Claude Code reads it, and disabled entries skipped', () => {
    const config = read('.mcp.json', JSON.stringify({
      mcpServers: {
        docs: { type: 'http', url: 'https://docs.example.com/${REGION:-eu}/mcp', headers: { Authorization: 'Bearer ${DOCS_TOKEN}', 'X-Team': '${TEAM:-core}' } },
        old: { command: 'old-server', disabled: true },
      },
    }))
    expect(config.entries).toEqual([{ name: 'docs', target: { url: 'https://docs.example.com/eu/mcp', headers: { 'Authorization': 'Bearer ${DOCS_TOKEN}', 'X-Team': 'core' } } }])
    expect(config.skipped).toEqual([{ name: 'old', why: 'switched off in the config ("disabled": true)' }])
  })

  it('VS Code\'s mcp.json: servers with type, comments and trailing commas, ${env:NAME}, and a folder to run in', () => {
    const config = read('mcp.json', `{
      // The workspace's servers
      "servers": {
        "memory": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory",], "cwd": "\${env:HOME}/work", "env": { "TOKEN": "\${env:GH_TOKEN}" } },
      },
    }`)
    expect(config).toEqual({ shape: 'servers', skipped: [], entries: [{ name: 'memory', target: { command: ['npx', '-y', '@modelcontextprotocol/server-memory'], cwd: '/home/ada/work', env: { TOKEN: '${GH_TOKEN}' } } }] })
  })

  it('Codex\'s config.toml: [mcp_servers.NAME] commands and URLs, its bearer token variable, tools it keeps, and enabled = false skipped', () => {
    const config = read('config.toml', `
model = "gpt-5"

[mcp_servers.fs]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/srv"]
enabled_tools = ["read_text_file", "list_directory"]

[mcp_servers.fs.env]
DEBUG = "mcp:*"

[mcp_servers.docs]
url = "https://docs.example.com/mcp"
bearer_token_env_var = "DOCS_TOKEN"
startup_timeout_sec = 20

[mcp_servers.off]
command = "unused"
enabled = false
`)
    expect(config).toEqual({
      shape: 'mcp_servers',
      entries: [
        { name: 'fs', target: { command: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/srv'], env: { DEBUG: 'mcp:*' }, othersVariables: ['DOCS_TOKEN'] }, tools: { only: ['read_text_file', 'list_directory'] } },
        { name: 'docs', target: { url: 'https://docs.example.com/mcp', headers: { Authorization: 'Bearer ${DOCS_TOKEN}' } } },
      ],
      skipped: [{ name: 'off', why: 'switched off in the config ("enabled": false)' }],
    })
  })

  it('Codex\'s env_vars and VS Code\'s envFile: the variables passed through from the proxy\'s environment where set, and a file\'s variables read as the proxy starts, env over both', () => {
    writeFileSync(join(scratch, 'vars.env'), '# a comment\nFROM_FILE=yes\nexport QUOTED="a b"\nTOKEN=from-file\n')
    const codex = read('passes.toml', '[mcp_servers.gh]\ncommand = "gh-server"\nenv_vars = ["GH_TOKEN", "NOT_SET_HERE"]\n')
    expect(codex.entries).toEqual([{ name: 'gh', target: { command: ['gh-server'], env: { GH_TOKEN: '${GH_TOKEN}' } } }])
    const vscode = read('envfile.json', JSON.stringify({ servers: { x: { command: 'y', envFile: 'vars.env', env: { TOKEN: 'from-env' } } } }))
    expect(vscode.entries).toEqual([{ name: 'x', target: { command: ['y'], env: { FROM_FILE: 'yes', QUOTED: 'a b', TOKEN: 'from-env' } } }])
  })

  it('Gemini CLI\'s settings: httpUrl for Streamable HTTP, excludeTools kept with the entry', () => {
    const config = read('settings.json', JSON.stringify({ theme: 'dark', mcpServers: { remote: { httpUrl: 'https://mcp.example.com/mcp', timeout: 30000, trust: false, excludeTools: ['delete_everything'] } } }))
    expect(config.entries).toEqual([{ name: 'remote', target: { url: 'https://mcp.example.com/mcp' }, tools: { except: ['delete_everything'] } }])
  })

  it('refuses what it cannot serve in one line naming the file, the entry and the key', () => {
    expect(refused('a.json', '{"mcpServers": {"legacy": {"type": "sse", "url": "https://x.example/sse"}}}')).toBe('<dir>/a.json.mcpServers["legacy"].type: "sse" is the 2024 SSE transport, which flatmcp does not reach: give the server\'s Streamable HTTP URL')
    expect(refused('b.json', '{"servers": {"x": {"command": "y", "dev": {"watch": "src/**"}}}}')).toBe('<dir>/b.json.servers["x"].dev: is not a key flatmcp reads (command, args, env, cwd, env_vars, envFile for a command; url and headers for a URL)')
    expect(refused('b2.json', '{"servers": {"x": {"command": "y", "envFile": "missing.env"}}}')).toBe('<dir>/b2.json.servers["x"].envFile: <dir>/missing.env could not be read (ENOENT)')
    expect(refused('b3.toml', '[mcp_servers.x]\ncommand = "y"\nenv_vars = [{ name = "A" }]\n')).toBe('<dir>/b3.toml.mcp_servers["x"].env_vars: must be a list of variable names')
    expect(refused('c.json', '{"servers": {"x": {"command": "y", "args": ["${input:token}"]}}}')).toBe('<dir>/c.json.servers["x"].args[0]: ${input:token} is a variable flatmcp cannot read (it reads ${NAME}, ${env:NAME} and ${NAME:-default} from the environment)')
    expect(refused('d.json', '{"mcpServers": {"x": {"command": "y", "args": ["${NOT_SET_HERE}"]}}}')).toBe('<dir>/d.json.mcpServers["x"].args[0]: names ${NOT_SET_HERE}, which is not set in the environment')
    expect(refused('e.json', '{"mcpServers": {"x": {"command": "y", "url": "https://x.example/mcp"}}}')).toBe('<dir>/e.json.mcpServers["x"].url: an entry is a command or a URL, not both')
    expect(refused('f.json', '{"mcpServers": {"x": {"args": ["a"]}}}')).toBe('<dir>/f.json.mcpServers["x"].command: is missing: give the command that starts the server, or its url')
    expect(refused('g.json', '{"mcpServers": {"x": {"url": "https://x.example/mcp", "env": {"A": "b"}}}}')).toBe('<dir>/g.json.mcpServers["x"].env: is for a command, and this entry is a URL')
    expect(refused('h.json', '{"editor": {}}')).toBe('<dir>/h.json: holds no servers: give a client\'s config ({"mcpServers": {…}}, VS Code\'s {"servers": {…}}, or Codex\'s [mcp_servers.NAME])')
    expect(refused('i.json', '{"mcpServers": {"x": {"command": "y", "disabled": true}}}')).toBe('<dir>/i.json.mcpServers: every server is switched off (x)')
    expect(refused('j.json', '{"mcpServers": {"x": {"url": "ftp://x.example"}}}')).toBe('<dir>/j.json.mcpServers["x"].url: must start with http:// or https:// (it is "ftp://x.example")')
    expect(refused('k.json', '{"mcpServers": {')).toMatch(/^<dir>\/k\.json: not JSON \(/)
    expect(refused('l.toml', '[mcp_servers.x\ncommand =')).toMatch(/^<dir>\/l\.toml: not TOML \(/)
    expect(refused('empty.json', '')).toBe('<dir>/empty.json: not JSON (ValueExpected at line 1, column 1)')
    expect(() => readServersConfigFile(join(scratch, 'nowhere.json'))).toThrow(/^--config: ENOENT/)
  })
})

describe('the shapes\' table (install/shapes.ts)', () => {
  const entry = { command: 'node', args: ['server.js'] }

  it.each(CONFIG_SHAPES.map(shape => [shape.key, shape] as const))('%s: read by --config as it is where the table says so, else refused naming every shape it reads', (key, shape) => {
    const parsed = { [key]: { files: entry } }
    if (shape.served)
      expect(readServersConfig(parsed, 'c.json', {})).toEqual({ shape: key, skipped: [], entries: [{ name: 'files', target: { command: ['node', 'server.js'] } }] })
    else
      expect(() => readServersConfig(parsed, 'c.json', {})).toThrow(`c.json: holds no servers: give a client's config (${servedShapesSpelled()})`)
  })

  it('a file holding two shapes is read by the first the table lists', () => {
    const parsed = Object.fromEntries(SERVED_SHAPES.map(({ key }) => [key, { [key]: entry }]).reverse())
    expect(readServersConfig(parsed, 'c.json', {}).shape).toBe(SERVED_SHAPES[0]!.key)
  })

  it('names every key a client of install keeps its servers under, and each shape is some client\'s', () => {
    expect(new Set(INSTALL_CLIENTS.map(client => client.key))).toEqual(new Set(CONFIG_SHAPES.map(shape => shape.key)))
  })
})

describe('the proxy\'s own credentials in a server\'s command line', () => {
  it('are refused naming the entry and the key: ${FLATMCP_PROXY_TOKEN} anywhere, and a caller\'s token in a command, its arguments, its folder or a URL', () => {
    expect(refused('p.json', '{"mcpServers": {"leaky": {"command": "server", "args": ["--token", "${FLATMCP_PROXY_TOKEN}"]}}}')).toBe('<dir>/p.json.mcpServers["leaky"].args[1]: names ${FLATMCP_PROXY_TOKEN}, the proxy\'s own credential, which never goes to a server')
    expect(refused('q.json', '{"mcpServers": {"leaky": {"command": "${FLATMCP_OAUTH_CLIENT_SECRET}"}}}')).toMatch(/\.mcpServers\["leaky"\]\.command: names \$\{FLATMCP_OAUTH_CLIENT_SECRET\}, the proxy's own credential/)
    const withheld = (text: string): string => {
      const file = join(scratch, 'withheld.json')
      writeFileSync(file, text)
      try {
        readServersConfigFile(file, { ...ENV, CI_TOKEN: 'ci-secret-1' }, ['ci-secret-1'])
      }
      catch (error) {
        return (error as Error).message.replaceAll(scratch, '<dir>')
      }
      throw new Error('read')
    }
    const why = 'holds a credential of the proxy\'s own (a caller\'s token), which never goes to a server: on its command line any local user would read it'
    expect(withheld('{"mcpServers": {"leaky": {"command": "server", "args": ["--key=${CI_TOKEN}"]}}}')).toBe(`<dir>/withheld.json.mcpServers["leaky"].args[0]: ${why}`)
    expect(withheld('{"mcpServers": {"leaky": {"command": "server", "cwd": "/srv/${CI_TOKEN}"}}}')).toBe(`<dir>/withheld.json.mcpServers["leaky"].cwd: ${why}`)
    expect(withheld('{"mcpServers": {"leaky": {"url": "https://x.example/mcp?key=${CI_TOKEN}"}}}')).toBe(`<dir>/withheld.json.mcpServers["leaky"].url: ${why}`)
    // In env the variable is left for the proxy to read when it starts the server, and one that holds a caller's token is refused now.
    expect(withheld('{"mcpServers": {"leaky": {"command": "server", "env": {"KEY": "${CI_TOKEN}"}}}}')).toBe('<dir>/withheld.json.mcpServers["leaky"].env.KEY: names ${CI_TOKEN}, which holds a credential of the proxy\'s own (a caller\'s token), which never goes to a server')
    writeFileSync(join(scratch, 'withheld.json'), '{"mcpServers": {"fine": {"command": "server", "env": {"KEY": "${GH_TOKEN}"}}}}')
    expect(readServersConfigFile(join(scratch, 'withheld.json'), ENV, ['ci-secret-1']).entries[0]!.target).toEqual({ command: ['server'], env: { KEY: '${GH_TOKEN}' } })
  })

  it('flatmcp proxy --http --callers refuses a --config entry whose arguments name a caller\'s token, before starting anything', () => {
    const callers = join(scratch, 'callers.json')
    writeFileSync(callers, JSON.stringify({ callers: { ci: { token: '${CI_TOKEN}' } } }))
    const servers = join(scratch, 'servers.json')
    writeFileSync(servers, JSON.stringify({ mcpServers: { leaky: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', '${CI_TOKEN}'] } } }))
    const run = spawnSync(process.execPath, [CLI, 'proxy', '--http', '0', '--callers', callers, '--config', servers], { encoding: 'utf8', env: { ...process.env, CI_TOKEN: 'ci-secret-1' }, timeout: 60_000 })
    expect(run.status, run.stderr).toBe(2)
    expect(run.stderr).toContain(`${servers}.mcpServers["leaky"].args[2]: holds a credential of the proxy's own`)
    expect(run.stderr).not.toContain('ci-secret-1')
  })
})
