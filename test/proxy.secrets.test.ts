// The proxy's own credentials (its callers' tokens, FLATMCP_PROXY_TOKEN) kept from every server behind
// `flatmcp proxy --config`, whatever the transport and under `--check` alike: an entry that would put
// one on a server's command line is refused before anything starts, and a variable that holds one,
// whole or inside a longer value, is left out of every server's environment (issue 65).
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI, INITIALIZE, runCli } from './support/proxy'

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-proxy-secrets-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const TOKEN = 'caller-token-0123456789'

/** A server that records its command line and environment in `file` when it starts, then ends. */
const recording = (file: string): Record<string, unknown> => ({
  command: process.execPath,
  args: ['-e', `require('fs').writeFileSync(${JSON.stringify(file)}, JSON.stringify({ argv: process.argv, env: process.env }))`],
})

function file(name: string, value: unknown): string {
  const at = join(scratch, name)
  writeFileSync(at, JSON.stringify(value))
  return at
}

const CALLERS = file('callers.json', { callers: { stdio: { inFlight: 2 }, ci: { token: '${CI_TOKEN}' } } })

/** What a server started by `flatmcp proxy ARGS` over stdio (a client connected) recorded, once it has. */
async function recorded(args: string[], env: Record<string, string>, record: string): Promise<{ argv: string[], env: Record<string, string>, stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'proxy', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  child.stdin.write(INITIALIZE)
  try {
    await expect.poll(() => existsSync(record) || child.exitCode !== null, { timeout: 60_000 }).toBe(true)
    expect(existsSync(record), stderr).toBe(true)
    return { ...JSON.parse(readFileSync(record, 'utf8')) as { argv: string[], env: Record<string, string> }, stderr }
  }
  finally {
    child.kill()
  }
}

describe('the proxy\'s credentials and the servers behind --config', () => {
  it('--check withholds and refuses as serving does: an entry whose arguments hold --auth-token\'s token, a --callers token\'s variable, or a variable holding FLATMCP_PROXY_TOKEN\'s value is refused (exit 2), and the server never starts', async () => {
    const cases: [string, string[], Record<string, string>][] = [
      ['${TOKEN_ARG}', ['--http', '0', '--auth-token', TOKEN], { TOKEN_ARG: TOKEN }],
      ['--key=${CI_TOKEN}', ['--http', '0', '--callers', CALLERS], { CI_TOKEN: TOKEN }],
      ['${ALIAS}', ['--http', '0'], { ALIAS: TOKEN, FLATMCP_PROXY_TOKEN: TOKEN }],
      ['${ALIAS}', [], { ALIAS: TOKEN, FLATMCP_PROXY_TOKEN: TOKEN }],
    ]
    for (const [n, [arg, flags, env]] of cases.entries()) {
      const record = join(scratch, `check-${n}.json`)
      const server = recording(record)
      const config = file(`check-${n}-config.json`, { mcpServers: { leaky: { ...server, args: [...server.args as string[], arg] } } })
      for (const check of [['--check'], []]) {
        const run = await runCli(['proxy', ...flags, '--config', config, ...check], ROOT, 60_000, check.length > 0 ? undefined : INITIALIZE, env)
        expect([run.code, run.stderr.split('\n')[0]], `${arg} ${flags.join(' ')} ${check.join('')}`).toEqual([2, `flatmcp: ${config}.mcpServers["leaky"].args[2]: holds a credential of the proxy's own (a caller's token), which never goes to a server: on its command line any local user would read it`])
        expect(run.stderr).not.toContain(TOKEN)
        expect(existsSync(record)).toBe(false)
      }
    }
  })

  it('over stdio, a --callers token and FLATMCP_PROXY_TOKEN\'s value are withheld: a variable holding one, whole or inside a longer value, reaches no server; an unset token variable is unused and stops nothing', async () => {
    const record = join(scratch, 'stdio.json')
    const config = file('stdio-config.json', { mcpServers: { member: recording(record) } })
    const seen = await recorded(['--callers', CALLERS, '--config', config], { CI_TOKEN: TOKEN, AUTHHDR: `Bearer ${TOKEN}`, FLATMCP_PROXY_TOKEN: 'proxy-token-9876543210', ALIAS: 'proxy-token-9876543210', KEPT: 'kept' }, record)
    expect(JSON.stringify(seen)).not.toContain(TOKEN)
    expect(JSON.stringify(seen)).not.toContain('proxy-token-9876543210')
    expect(seen.env.KEPT).toBe('kept')
    rmSync(record)
    const unset = await recorded(['--callers', CALLERS, '--config', config], { AUTHHDR: `Bearer ${TOKEN}` }, record)
    expect(unset.env.AUTHHDR).toBe(`Bearer ${TOKEN}`)
  })

  it('a caller\'s token in an entry\'s env, an unset variable there, and a header that names FLATMCP_PROXY_TOKEN are config errors: refused at start in one line naming the file, the entry and the key (exit 2), never retried', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ command: 'server', env: { KEY: '${CI_TOKEN}' } }, 'env.KEY', 'names ${CI_TOKEN}, which holds a credential of the proxy\'s own (a caller\'s token), which never goes to a server'],
      [{ command: 'server', env: { KEY: 'Bearer ${AUTH_LIKE}' } }, 'env.KEY', 'names ${AUTH_LIKE}, which holds a credential of the proxy\'s own (a caller\'s token), which never goes to a server'],
      [{ command: 'server', env: { KEY: '${FLATMCP_TEST_UNSET}' } }, 'env.KEY', 'names ${FLATMCP_TEST_UNSET}, which is not set in the environment'],
      [{ url: 'https://x.example/mcp', headers: { 'X-Key': '${FLATMCP_TEST_UNSET}' } }, 'headers.X-Key', 'names ${FLATMCP_TEST_UNSET}, which is not set in the environment'],
      [{ url: 'https://x.example/mcp', bearer_token_env_var: 'FLATMCP_PROXY_TOKEN' }, 'bearer_token_env_var', 'names ${FLATMCP_PROXY_TOKEN}, the proxy\'s own credential, which never goes to a server'],
      [{ url: 'https://x.example/mcp', env_http_headers: { 'X-Key': 'FLATMCP_PROXY_TOKEN' } }, 'env_http_headers.X-Key', 'names ${FLATMCP_PROXY_TOKEN}, the proxy\'s own credential, which never goes to a server'],
    ]
    for (const [n, [entry, key, why]] of cases.entries()) {
      const config = file(`static-${n}.json`, { mcpServers: { bad: entry } })
      for (const transport of [['--http', '0'], []]) {
        const run = await runCli(['proxy', ...transport, '--callers', CALLERS, '--config', config], ROOT, 60_000, transport.length > 0 ? undefined : INITIALIZE, { CI_TOKEN: TOKEN, AUTH_LIKE: `Bearer ${TOKEN}`, FLATMCP_PROXY_TOKEN: 'proxy-token-9876543210' })
        expect([run.code, run.stderr], `${key} ${transport.join(' ')}`).toEqual([2, `flatmcp: ${config}.mcpServers["bad"].${key}: ${why}\n`])
      }
    }
  })
})
