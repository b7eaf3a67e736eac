// `flatmcp install` never loses, corrupts or shows a config: what it writes is no wider than the
// config it came from, a dry run shows no secret, a dotfiles link stays a link, every line it does
// not own stays, `--undo` writes no server twice, and a config the client writes meanwhile is left
// as the client wrote it.
import { spawn } from 'node:child_process'
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { clientConfigText } from '../../../test/support/client-configs'
import { flatmcpInProcess } from '../../../test/support/cli-run'
import { CLI, runCli } from '../../../test/support/proxy'
import { INSTALL_CLIENTS } from '../src/install/clients'
import { install } from '../src/install/install'
import { ChangedSinceRead, replaceFile } from '../src/install/write-through'

type Ran = Awaited<ReturnType<typeof runCli>>

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-install-safety-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/**
 * A home of its own; the command run in this process on a config named by --file (`run`), and the
 * binary run there, with that home (`spawned`): where the config is found from HOME and the working
 * folder, and one run of each exit the binary ends with (0, 2 said in one line, 2 for a usage error).
 */
function place(): { home: string, run: (args: string[]) => Promise<Ran>, spawned: (args: string[]) => Promise<Ran> } {
  const home = mkdtempSync(path.join(scratch, 'home-'))
  return { home, run: args => flatmcpInProcess(args, process.cwd()), spawned: args => runCli(args, home, 60_000, undefined, { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), CODEX_HOME: '' }) }
}

const write = (file: string, text: string, mode = 0o644): void => {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text, { mode })
}

const SECRETS = ['ghp_live_0123456789', 'sk-docs-abcdef', 'hunter2-password', 'cookie-jar-value', 'sk-args-98765']
const JSON_CONFIG = `{
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "server-github", "--api-key", "${SECRETS[4]}"], "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "${SECRETS[0]}", "DEBUG": "\${DEBUG_LEVEL}" } },
    "docs": { "type": "http", "url": "https://docs.example.com/mcp", "headers": { "Authorization": "Bearer ${SECRETS[1]}", "Cookie": "${SECRETS[3]}" } }
  },
  "apiPassword": "${SECRETS[2]}"
}
`
const TOML_CONFIG = `model = "gpt-5"
db_password = "${SECRETS[2]}"

[mcp_servers.github]
command = "npx"
args = ["-y", "server-github", "--api-key=${SECRETS[4]}"]
env = { GITHUB_PERSONAL_ACCESS_TOKEN = "${SECRETS[0]}" }

[mcp_servers.docs]
url = "https://docs.example.com/mcp"
http_headers = { "Authorization" = "Bearer ${SECRETS[1]}" }
`

/** This user's, for its own eyes only. */
const MINE = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, mode: 0o600 }

const modes = (folder: string): Record<string, number> => Object.fromEntries(readdirSync(folder).map(name => [name, statSync(path.join(folder, name)).mode & 0o777]))

describe('flatmcp install keeps a config\'s secrets private', () => {
  it.each(INSTALL_CLIENTS.map(client => client.name))('%s: a 0600 config\'s servers and its kept original are 0600 in a 0700 folder, and --undo keeps it 0600', async (client) => {
    const { home, run } = place()
    const row = INSTALL_CLIENTS.find(known => known.name === client)!
    const codex = client === 'codex'
    const file = path.join(home, `config.${row.format}`)
    const { mcpServers, ...top } = JSON.parse(JSON_CONFIG) as { mcpServers: Record<string, Record<string, unknown>> }
    write(file, codex ? TOML_CONFIG : clientConfigText(row, mcpServers, top), 0o600)
    const installed = await run(['install', client, '--file', file, '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    const folder = path.join(home, '.flatmcp')
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(modes(folder)).toEqual({ '.gitignore': 0o600, [`${client}.install.json`]: 0o600, [`${client}.servers.json`]: 0o600 })
    expect(modes(home)).toMatchObject({ [path.basename(file)]: 0o600 })
    // No temporary file left beside the config.
    expect(readdirSync(home).sort()).toEqual(['.flatmcp', path.basename(file)].sort())
    expect((await run(['install', client, '--file', file, '--undo'])).code).toBe(0)
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  /** The JSON config in a YAML client's own shape and format. */
  const yamlConfig = (name: string): string => {
    const { mcpServers, ...top } = JSON.parse(JSON_CONFIG) as { mcpServers: Record<string, Record<string, unknown>> }
    return clientConfigText(INSTALL_CLIENTS.find(known => known.name === name)!, mcpServers, top)
  }

  it.each([['claude-code', JSON_CONFIG], ['codex', TOML_CONFIG], ['goose', yamlConfig('goose')], ['continue', yamlConfig('continue')]])('%s: --dry-run and the install\'s own lines show no secret: env and header values, credential keys and a credential flag\'s argument read [redacted], variables stay', async (client, text) => {
    const { home, run } = place()
    const format = INSTALL_CLIENTS.find(known => known.name === client)!.format
    const file = path.join(home, `config.${format}`)
    write(file, text)
    const dry = await run(['install', client, '--file', file, '--command', 'flatmcp', '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    for (const secret of SECRETS)
      expect(`${dry.stdout}${dry.stderr}`).not.toContain(secret)
    expect(dry.stdout).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN": "[redacted]"')
    expect(dry.stdout).toContain('"server-github"')
    if (client !== 'codex')
      expect(dry.stdout).toContain('"DEBUG": "${DEBUG_LEVEL}"')
    write(path.join(home, 'tokens'), 'caller-secret-9\n', 0o600)
    const installed = await run(['install', client, '--file', file, '--command', 'flatmcp', '--', '--http', '8080', '--auth-token-file', path.join(home, 'tokens')])
    expect(installed.code, installed.stderr).toBe(0)
    expect(installed.stderr).not.toContain('caller-secret-9')
    const undoDry = await run(['install', client, '--file', file, '--undo', '--dry-run'])
    for (const secret of SECRETS)
      expect(undoDry.stdout).not.toContain(secret)
  })
})

describe('flatmcp install --dry-run shows no credential written inside a string', () => {
  const INLINE = ['url-pass-1', 'query-key-2', 'docker-tok-3', 'default-4', 'conn-pw-5']
  const servers = {
    db: { command: 'docker', args: ['run', '-e', `GITHUB_TOKEN=${INLINE[2]}`, '-e', 'LOG_LEVEL=debug', 'mcp/postgres', `postgresql://admin:${INLINE[4]}@db/prod`], env: { TOKEN: `\${TOKEN:-${INLINE[3]}}` } },
    remote: { type: 'http', url: `https://bot:${INLINE[0]}@mcp.example.com/mcp?team=core&api_key=${INLINE[1]}` },
  }
  it.each([
    ['cursor', 'config.json', `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`],
    ['codex', 'config.toml', `[mcp_servers.db]\ncommand = "docker"\nargs = ${JSON.stringify(servers.db.args)}\nenv = { TOKEN = ${JSON.stringify(servers.db.env.TOKEN)} }\n\n[mcp_servers.remote]\nurl = ${JSON.stringify(servers.remote.url)}\n`],
  ])('%s: a URL\'s password and credential query, a connection string, docker\'s -e NAME=VALUE and a variable\'s default read [redacted]; the rest stays', async (client, name, text) => {
    const { home, run } = place()
    const file = path.join(home, name)
    write(file, text)
    const dry = await run(['install', client, '--file', file, '--command', 'flatmcp', '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    for (const secret of INLINE)
      expect(`${dry.stdout}${dry.stderr}`).not.toContain(secret)
    for (const kept of ['LOG_LEVEL=debug', 'postgresql://admin:[redacted]@db/prod', '?team=core&api_key=[redacted]', 'https://bot:[redacted]@', '${TOKEN:-[redacted]}'])
      expect(dry.stdout).toContain(kept)
  })
})

describe('flatmcp install writes through a dotfiles link, and only where it means to', () => {
  it('a symlinked config stays a link to its file, which install and --undo write (byte for byte back)', async () => {
    const { home, spawned: run } = place()
    const target = path.join(home, 'dotfiles', 'mcp.json')
    write(target, JSON_CONFIG, 0o600)
    const link = path.join(home, '.cursor', 'mcp.json')
    mkdirSync(path.dirname(link), { recursive: true })
    symlinkSync('../dotfiles/mcp.json', link)
    expect((await run(['install', 'cursor', '--command', 'flatmcp'])).code).toBe(0)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, 'utf8')).toContain('"flatmcp"')
    expect(statSync(target).mode & 0o777).toBe(0o600)
    expect(readdirSync(path.dirname(target))).toEqual(['mcp.json'])
    const undone = await run(['install', 'cursor', '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect([lstatSync(link).isSymbolicLink(), readlinkSync(link)]).toEqual([true, '../dotfiles/mcp.json'])
    expect(readFileSync(target, 'utf8')).toBe(JSON_CONFIG)
  })

  it('a .flatmcp folder (or a file install would make in it) that is a symbolic link is refused, and nothing is written', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.json')
    write(file, JSON_CONFIG)
    const elsewhere = path.join(home, 'elsewhere')
    mkdirSync(elsewhere)
    symlinkSync(elsewhere, path.join(home, '.flatmcp'))
    const refused = await run(['install', 'cursor', '--file', file, '--command', 'flatmcp'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`${path.join(home, '.flatmcp')}: is a symbolic link`)
    expect(readdirSync(elsewhere)).toEqual([])
    expect(readFileSync(file, 'utf8')).toBe(JSON_CONFIG)
    rmSync(path.join(home, '.flatmcp'))
    mkdirSync(path.join(home, '.flatmcp'))
    symlinkSync(path.join(elsewhere, 'servers.json'), path.join(home, '.flatmcp', 'cursor.servers.json'))
    const file2 = await run(['install', 'cursor', '--file', file, '--command', 'flatmcp'])
    expect(file2.code).toBe(2)
    expect(file2.stderr).toContain('cursor.servers.json: is a symbolic link')
    expect(readdirSync(elsewhere)).toEqual([])
    expect(readFileSync(file, 'utf8')).toBe(JSON_CONFIG)
  })
})

describe('flatmcp install keeps what it does not own', () => {
  it('codex: a comment that introduces the next table and an array of tables after a moved server stay, in place', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.toml')
    const text = `model = "gpt-5"\n\n[mcp_servers.calendar]\ncommand = "node"\nargs = ["calendar.js"]\n\n# Profiles: the fast one for quick edits.\n[profiles.fast]\nmodel = "o4-mini"\n\n[mcp_servers.notes]\ncommand = "node"\n\n[[hooks]]\nevent = "start"\n\n[[hooks]]\nevent = "stop"\n# the end\n`
    write(file, text)
    const installed = await run(['install', 'codex', '--file', file, '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    const after = readFileSync(file, 'utf8')
    expect(after).toContain('# Profiles: the fast one for quick edits.\n[profiles.fast]\nmodel = "o4-mini"\n')
    expect(after).toContain('[[hooks]]\nevent = "start"\n\n[[hooks]]\nevent = "stop"\n# the end\n')
    expect(after).not.toContain('calendar.js')
    expect((await run(['install', 'codex', '--file', file, '--undo'])).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(text)
  })

  it.each([['cursor', 'config.json', `{\n  "theme": "dark",\n  "mcpServers": {\n    "calendar": { "command": "node", "args": ["calendar.js"] }\n  }\n}\n`], ['codex', 'config.toml', `model = "gpt-5"\n\n[mcp_servers.calendar]\ncommand = "node"\nargs = ["calendar.js"]\n`]])('%s: --undo after the client added a moved server back keeps it once, as the client has it now, and says so', async (client, name, text) => {
    const { home, run } = place()
    const file = path.join(home, name)
    write(file, text)
    expect((await run(['install', client, '--file', file, '--command', 'flatmcp'])).code).toBe(0)
    const installed = readFileSync(file, 'utf8')
    writeFileSync(file, client === 'codex'
      ? `${installed}\n[mcp_servers.calendar]\ncommand = "node"\nargs = ["calendar-v2.js"]\n`
      : installed.replace('"mcpServers": {', '"mcpServers": {\n    "calendar": { "command": "node", "args": ["calendar-v2.js"] },'))
    const undone = await run(['install', client, '--file', file, '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect(undone.stderr).toContain('calendar was in it again, so it was kept as it is now, not put back twice')
    const restored = readFileSync(file, 'utf8')
    expect(restored.match(/calendar/g)).toHaveLength(2) // its name and its file, once
    expect(restored).toContain('calendar-v2.js')
    expect(restored).not.toContain('"flatmcp"')
    expect(existsSync(path.join(home, '.flatmcp'))).toBe(false)
  })
})

describe('flatmcp install leaves a config the client wrote meanwhile as the client wrote it', () => {
  it('the client writes the config between install\'s read and its write: refused, the client\'s bytes kept, nothing of install\'s left', () => {
    const home = mkdtempSync(path.join(scratch, 'race-'))
    const file = path.join(home, 'config.json')
    const text = `{\n  "mcpServers": {\n    "calendar": { "command": "node" },\n    "old": { "type": "sse", "url": "https://old.example.com/sse" }\n  }\n}\n`
    write(file, text)
    const client = INSTALL_CLIENTS.find(known => known.name === 'cursor')!
    const theClients = text.replace('"mcpServers"', '"numStartups": 4,\n  "mcpServers"')
    // Install says "old stays" after it has read the config and before it writes: the client writes it then.
    const log = (line: string): void => {
      if (line.includes('old stays'))
        writeFileSync(file, theClients)
    }
    expect(() => install({ client, file, flatmcp: ['flatmcp'], proxyArgs: [], dryRun: false, log, out: () => {} })).toThrow(`${file}: changed while flatmcp install was working (Cursor, or another program, wrote it since it was read); nothing written, so that change is kept: run the command again`)
    expect(readFileSync(file, 'utf8')).toBe(theClients)
    expect(readdirSync(home)).toEqual(['config.json'])
  })

  it('replaceFile (install\'s and --undo\'s one way to write a config) writes nothing over bytes it did not read, and leaves no temporary file', () => {
    const home = mkdtempSync(path.join(scratch, 'replace-'))
    const file = path.join(home, 'config.json')
    write(file, 'the client\'s', 0o600)
    expect(() => replaceFile(file, 'install\'s', MINE, Buffer.from('what was read'))).toThrow(ChangedSinceRead)
    expect([readFileSync(file, 'utf8'), readdirSync(home)]).toEqual(['the client\'s', ['config.json']])
    replaceFile(file, 'install\'s', MINE, Buffer.from('the client\'s'))
    expect([readFileSync(file, 'utf8'), statSync(file).mode & 0o777, readdirSync(home)]).toEqual(['install\'s', 0o600, ['config.json']])
    // A link whose file is not there yet is written through, and stays a link.
    mkdirSync(path.join(home, 'dotfiles'))
    symlinkSync('dotfiles/later.json', path.join(home, 'later.json'))
    replaceFile(path.join(home, 'later.json'), 'new', MINE, Buffer.alloc(0))
    expect([lstatSync(path.join(home, 'later.json')).isSymbolicLink(), readFileSync(path.join(home, 'dotfiles', 'later.json'), 'utf8')]).toEqual([true, 'new'])
  })

  it('a .flatmcp that is a file is refused with its path, and nothing is written', async () => {
    const { home, spawned: run } = place()
    const file = path.join(home, 'config.json')
    write(file, JSON_CONFIG)
    writeFileSync(path.join(home, '.flatmcp'), '')
    const refused = await run(['install', 'cursor', '--file', file, '--command', 'flatmcp'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toBe(`flatmcp: ${path.join(home, '.flatmcp')}: is not a folder; flatmcp install keeps its own files in a folder of that name (move it away, then install again)\n`)
    expect(readFileSync(file, 'utf8')).toBe(JSON_CONFIG)
  })
})

describe('flatmcp install keeps one config\'s record to that config', () => {
  it('claude-code: ~/.claude.json and ~/.mcp.json share a folder: --undo of the one never writes the other\'s record into it, and the other is not installed over the first\'s record', async () => {
    const { home, spawned: run } = place()
    const user = path.join(home, '.claude.json')
    const project = path.join(home, '.mcp.json')
    const userText = `{\n  "mcpServers": {\n    "github": { "command": "npx", "args": ["server-github"], "env": { "GITHUB_TOKEN": "ghp_user_secret" } }\n  }\n}\n`
    const projectText = `{\n  "mcpServers": {\n    "notes": { "command": "node", "args": ["notes.js"] }\n  }\n}\n`
    write(user, userText)
    write(project, projectText)
    const installed = await run(['install', 'claude-code', '--scope', 'user', '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    const userInstalled = readFileSync(user, 'utf8')
    for (const force of [[], ['--force']]) {
      const undone = await run(['install', 'claude-code', '--undo', ...force])
      expect(undone.code).toBe(2)
      expect(undone.stderr).toContain(`${project}: flatmcp is not installed there: ${path.join(home, '.flatmcp', 'claude-code.install.json')} is the install into ${user}`)
      expect([readFileSync(project, 'utf8'), readFileSync(user, 'utf8')]).toEqual([projectText, userInstalled])
    }
    const other = await run(['install', 'claude-code', '--command', 'flatmcp'])
    expect(other.code).toBe(2)
    expect(other.stderr).toContain(`${project}: ${path.join(home, '.flatmcp', 'claude-code.install.json')} holds the install into ${user}`)
    expect(readFileSync(project, 'utf8')).toBe(projectText)
    const back = await run(['install', 'claude-code', '--scope', 'user', '--undo'])
    expect(back.code, back.stderr).toBe(0)
    expect([readFileSync(project, 'utf8'), readFileSync(user, 'utf8')]).toEqual([projectText, userText])
  })
})

/** Another local user (and a group neither it nor root's primary group is), as root can make them. */
const OTHER = { uid: 4321, gid: 4321 }
const GROUP = 3000
/** Whether another user can reach this checkout (every folder above it open to others): those tests run the CLI as another user. */
function reachableByOthers(folder: string): boolean {
  for (let at = path.resolve(folder); ; at = path.dirname(at)) {
    if ((statSync(at).mode & 0o001) === 0)
      return false
    if (path.dirname(at) === at)
      return true
  }
}
const root = process.getuid?.() === 0 && reachableByOthers(fileURLToPath(new URL('.', import.meta.url)))

/** The command run as `who` (root only: a test of what happens between users). */
function runAs(who: { uid: number, gid: number }, home: string, args: string[]): Promise<{ code: number | null, stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: home, uid: who.uid, gid: who.gid, env: { ...process.env, HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
    child.once('close', code => resolve({ code, stderr }))
  })
}

/** A home another user can reach and write: theirs, with its parents searchable. */
function homeOf(who: { uid: number, gid: number }): string {
  const home = mkdtempSync(path.join(scratch, 'user-'))
  chmodSync(scratch, 0o755)
  chownSync(home, who.uid, who.gid)
  return home
}

const planted = (folder: string, config: string): void => {
  writeFileSync(path.join(folder, 'cursor.servers.json'), JSON.stringify({ mcpServers: { evil: { command: 'touch', args: ['/tmp/pwned'] } } }))
  writeFileSync(path.join(folder, 'cursor.install.json'), JSON.stringify({ client: 'cursor', file: config, original: Buffer.from('{"evil": true}').toString('base64'), written: 'x' }))
}

describe('flatmcp install trusts no folder another user could write', () => {
  it('a .flatmcp of its own that others may write is made theirs no longer, and holds a .gitignore of *', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.json')
    write(file, JSON_CONFIG)
    mkdirSync(path.join(home, '.flatmcp'))
    chmodSync(path.join(home, '.flatmcp'), 0o777)
    const installed = await run(['install', 'cursor', '--file', file, '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    expect(statSync(path.join(home, '.flatmcp')).mode & 0o022).toBe(0)
    expect(readFileSync(path.join(home, '.flatmcp', '.gitignore'), 'utf8')).toMatch(/^\*$/m)
    expect((await run(['install', 'cursor', '--file', file, '--undo'])).code).toBe(0)
    expect(existsSync(path.join(home, '.flatmcp'))).toBe(false)
  })

  it.runIf(root)('a .flatmcp another user made, or a record another user put in one that was open to them, is refused, naming it; nothing is read from it or written', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.json')
    write(file, JSON_CONFIG)
    const folder = path.join(home, '.flatmcp')
    mkdirSync(folder)
    planted(folder, file)
    chownSync(folder, OTHER.uid, OTHER.gid)
    for (const args of [['--command', 'flatmcp'], ['--undo'], ['--undo', '--force']]) {
      const refused = await run(['install', 'cursor', '--file', file, ...args])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toBe(`flatmcp: ${folder}: belongs to user ${OTHER.uid}, neither you (0) nor the config's owner (0): files there could run commands as you or be written into the config (remove it, then install again)\n`)
      expect(readFileSync(file, 'utf8')).toBe(JSON_CONFIG)
    }
    // Ours, but it was open to others: what they put there is not read.
    chownSync(folder, 0, 0)
    chmodSync(folder, 0o777)
    chownSync(path.join(folder, 'cursor.install.json'), OTHER.uid, OTHER.gid)
    const undone = await run(['install', 'cursor', '--file', file, '--undo', '--force'])
    expect(undone.code).toBe(2)
    expect(undone.stderr).toContain(`${path.join(folder, 'cursor.install.json')}: belongs to user ${OTHER.uid}`)
    expect(readFileSync(file, 'utf8')).toBe(JSON_CONFIG)
    // A record that is a link is not followed.
    rmSync(path.join(folder, 'cursor.install.json'))
    writeFileSync(path.join(home, 'record.json'), '{}')
    symlinkSync(path.join(home, 'record.json'), path.join(folder, 'cursor.install.json'))
    const linked = await run(['install', 'cursor', '--file', file, '--undo', '--force'])
    expect(linked.stderr).toContain(`${path.join(folder, 'cursor.install.json')}: is a symbolic link`)
    expect(readFileSync(file, 'utf8')).toBe(JSON_CONFIG)
  })
})

describe('flatmcp install keeps a config its owner\'s and its group\'s', () => {
  it.runIf(root)('run as root on a user\'s 0640 config of group 3000: the config, .flatmcp and its files stay that user\'s and group\'s; the user undoes it', async () => {
    const home = homeOf(OTHER)
    const file = path.join(home, 'config.json')
    write(file, JSON_CONFIG, 0o640)
    chownSync(file, OTHER.uid, GROUP)
    const installed = await runAs({ uid: 0, gid: 0 }, home, ['install', 'cursor', '--file', file, '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    const folder = path.join(home, '.flatmcp')
    for (const made of [file, folder, ...readdirSync(folder).map(name => path.join(folder, name))]) {
      const stat = statSync(made)
      expect([made, stat.uid, stat.gid, stat.mode & 0o777]).toEqual([made, OTHER.uid, GROUP, made === folder ? 0o750 : 0o640])
    }
    const undone = await runAs(OTHER, home, ['install', 'cursor', '--file', file, '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(JSON_CONFIG)
  })

  it.runIf(root)('a user whose config\'s group it is not in: the new files are read by no group rather than by its own; a permission refused on --undo is said as that', async () => {
    const home = homeOf(OTHER)
    const file = path.join(home, 'config.json')
    write(file, JSON_CONFIG, 0o640)
    chownSync(file, OTHER.uid, GROUP)
    const installed = await runAs(OTHER, home, ['install', 'cursor', '--file', file, '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    const folder = path.join(home, '.flatmcp')
    for (const made of [file, folder, path.join(folder, 'cursor.servers.json')]) {
      const stat = statSync(made)
      expect([made, stat.uid, stat.gid, stat.mode & 0o777]).toEqual([made, OTHER.uid, OTHER.gid, made === folder ? 0o700 : 0o600])
    }
    chmodSync(path.join(folder, 'cursor.install.json'), 0)
    const undone = await runAs(OTHER, home, ['install', 'cursor', '--file', file, '--undo'])
    expect(undone.code).toBe(2)
    expect(undone.stderr).toContain(`${path.join(folder, 'cursor.install.json')}: could not be read (EACCES`)
  })
})

describe('flatmcp install reads a Codex config as TOML reads it', () => {
  it('a multi-line string holding a line like [mcp_servers.NAME] is a string, not a table: kept whole, and --undo gives the bytes back', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.toml')
    const text = `model = "gpt-5"\ninstructions = """\nServers to try:\n[mcp_servers.calendar]\ncommand = "from-the-string"\n"""\nnotes = '''\n[mcp_servers.calendar.env]\n'''\n\n[mcp_servers.calendar]\ncommand = "node"\nargs = ["calendar.js"]\n`
    write(file, text)
    const installed = await run(['install', 'codex', '--file', file, '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    const after = readFileSync(file, 'utf8')
    expect(after).toContain('instructions = """\nServers to try:\n[mcp_servers.calendar]\ncommand = "from-the-string"\n"""\nnotes = \'\'\'\n[mcp_servers.calendar.env]\n\'\'\'\n')
    expect(after).not.toContain('calendar.js')
    expect((await run(['install', 'codex', '--file', file, '--undo'])).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(text)
  })

  it('mixed line endings: each line it keeps keeps its own', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.toml')
    write(file, `model = "gpt-5"\r\n# the calendar\n[mcp_servers.calendar]\ncommand = "node"\n\n[profiles.fast]\r\nmodel = "o4-mini"\n`)
    const installed = await run(['install', 'codex', '--file', file, '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toMatch(/^model = "gpt-5"\r\n# the calendar\n\[profiles\.fast\]\r\nmodel = "o4-mini"\r?\n/)
  })

  it('--dry-run: after a line its reader cannot follow (a date and time with a space), every value that follows is redacted, a multi-line string\'s lines too', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.toml')
    write(file, `since = 1979-05-27 07:32:00Z\nnote = """\nml-secret-1\n"""\nraw = '''\nml-secret-2'''\n\n[mcp_servers.calendar]\ncommand = "node"\nenv = { CAL_TOKEN = "cal-secret-3" }\n`)
    const dry = await run(['install', 'codex', '--file', file, '--command', 'flatmcp', '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    for (const secret of ['ml-secret-1', 'ml-secret-2', 'cal-secret-3'])
      expect(dry.stdout).not.toContain(secret)
    expect(dry.stdout).toContain('[mcp_servers.calendar]')
  })
})

describe('flatmcp install refuses what it cannot edit in one line, and edits any size in one pass', () => {
  it('a JSON config with "mcpServers" twice, or a server named twice: one line naming the file and the key, nothing written', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.json')
    for (const [text, key] of [['{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {"b": {"command": "y"}}}\n', '"mcpServers"'], ['{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}\n', '"mcpServers"."a"']] as const) {
      write(file, text)
      const refused = await run(['install', 'cursor', '--file', file, '--command', 'flatmcp'])
      expect(refused.code).toBe(2)
      expect(refused.stderr).toBe(`flatmcp: ${file}: ${key} is given twice, so which one the client reads is unsure; keep one, then install again\n`)
      expect([readFileSync(file, 'utf8'), existsSync(path.join(home, '.flatmcp'))]).toEqual([text, false])
    }
  })

  it('a .flatmcp/CLIENT.servers.json that is a folder: one line naming it, no record left behind', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.json')
    write(file, JSON_CONFIG)
    mkdirSync(path.join(home, '.flatmcp', 'cursor.servers.json'), { recursive: true })
    const refused = await run(['install', 'cursor', '--file', file, '--command', 'flatmcp'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toBe(`flatmcp: ${path.join(home, '.flatmcp', 'cursor.servers.json')}: is not a file; flatmcp install writes its own file there (move it away, then install again)\n`)
    expect(readdirSync(path.join(home, '.flatmcp'))).toEqual(['cursor.servers.json'])
    expect(readFileSync(file, 'utf8')).toBe(JSON_CONFIG)
  })

  it('a JSON config that starts with a byte order mark is installed, and keeps it; --undo gives the bytes back', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.json')
    write(file, `\uFEFF${JSON_CONFIG}`)
    const installed = await run(['install', 'cursor', '--file', file, '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).toMatch(/^\uFEFF\{\n {2}"apiPassword"|^\uFEFF\{\n {2}"mcpServers": \{\n {4}"flatmcp"/)
    expect((await run(['install', 'cursor', '--file', file, '--undo'])).code).toBe(0)
    expect(readFileSync(file, 'utf8')).toBe(`\uFEFF${JSON_CONFIG}`)
  })

  it('a config that is no file (a link to /dev/zero) or over 16 MiB is refused at once, naming it', async () => {
    const { home, run } = place()
    const file = path.join(home, 'config.json')
    symlinkSync('/dev/zero', file)
    const device = await run(['install', 'cursor', '--file', file, '--command', 'flatmcp'])
    expect([device.code, device.stderr]).toEqual([2, `flatmcp: ${file}: is not a file, so not a config flatmcp install edits\n`])
    const big = path.join(home, 'big.json')
    write(big, `{"mcpServers": {"a": {"command": "x"}}, "pad": "${'x'.repeat(16 * 2 ** 20)}"}`)
    const large = await run(['install', 'cursor', '--file', big, '--command', 'flatmcp'])
    expect(large.code).toBe(2)
    expect(large.stderr).toContain(`${big}: is ${statSync(big).size} bytes, over the 16 MiB flatmcp install reads`)
  })

  it.each([['cursor', 'config.json'], ['codex', 'config.toml']])('%s: 20,000 servers are moved and put back in one pass each (it took time by the square of their number)', async (client, name) => {
    const { home, run } = place()
    const file = path.join(home, name)
    const names = Array.from({ length: 20_000 }, (_, i) => `s${i}`)
    write(file, client === 'codex'
      ? `model = "x"\n\n${names.map(n => `[mcp_servers.${n}]\ncommand = "node"\nargs = ["${n}.js"]\n`).join('\n')}`
      : `{\n  "theme": "dark",\n  "mcpServers": {\n${names.map(n => `    "${n}": { "command": "node", "args": ["${n}.js"] }`).join(',\n')}\n  }\n}\n`)
    const installed = await run(['install', client, '--file', file, '--command', 'flatmcp'])
    expect(installed.code, installed.stderr).toBe(0)
    expect(readFileSync(file, 'utf8')).not.toContain('s19999.js')
    // Changed since: undone by meaning, every server put back.
    writeFileSync(file, readFileSync(file, 'utf8').replace(client === 'codex' ? 'model = "x"' : '"theme": "dark"', client === 'codex' ? 'model = "y"' : '"theme": "light"'))
    const undone = await run(['install', client, '--file', file, '--undo'])
    expect(undone.code, undone.stderr).toBe(0)
    expect(readFileSync(file, 'utf8').match(/\.js"/g)).toHaveLength(20_000)
  }, 120_000)
})

describe('flatmcp install puts no proxy credential on a client\'s command line', () => {
  it.each([['--auth-token', 'caller-secret-9'], ['--auth-token=caller-secret-9']])('%s after --: refused, pointing to FLATMCP_PROXY_TOKEN and --auth-token-file; nothing written', async (...flag) => {
    const { home, spawned: run } = place()
    const file = path.join(home, 'config.json')
    write(file, JSON_CONFIG)
    const refused = await run(['install', 'cursor', '--file', file, '--command', 'flatmcp', '--', '--http', '8080', ...flag.filter(Boolean)])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('after --: --auth-token would write the proxy\'s token into Cursor\'s config and onto its command line, which any local user reads (ps): give it by FLATMCP_PROXY_TOKEN in the environment flatmcp runs in, or --auth-token-file file')
    expect(refused.stderr).not.toContain('caller-secret-9')
    expect([readFileSync(file, 'utf8'), existsSync(path.join(home, '.flatmcp'))]).toEqual([JSON_CONFIG, false])
  })
})

describe('names from a config someone else wrote', () => {
  it('are said with their control characters escaped', () => {
    const { home } = place()
    const file = path.join(home, 'mcp.json')
    write(file, JSON.stringify({ servers: { 'ok': { command: 'gh-mcp' }, 'x\u001B]0;owned\u0007': { command: 'gh-mcp', env: { A: '${input:token}' } } } }))
    const lines: string[] = []
    const client = INSTALL_CLIENTS.find(entry => entry.name === 'vscode')!
    install({ client, file, flatmcp: ['flatmcp'], proxyArgs: [], dryRun: true, log: line => lines.push(line), out: line => lines.push(line) })
    expect(lines.join('\n')).toContain('x\\x1b]0;owned\\x07')
    // eslint-disable-next-line no-control-regex
    expect(lines.join('\n')).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/)
  })
})
