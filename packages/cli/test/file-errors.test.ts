// The files the proxy and install read hold secrets (a caller's token, a server's env, the original
// config an install keeps): a file that is no JSON is said with where it breaks, never its text.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { INSTALL_CLIENTS } from '../src/install/clients'
import { install, undo } from '../src/install/install'
import { readCallersFile } from '../src/proxy/callers-file'
import { readServersConfigFile } from '../src/proxy/config-file'
import { readOverridesFile } from '../src/proxy/files'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-file-errors-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const SECRET = 'ghp_Secret42'
const fileOf = (name: string, text: string): string => {
  const file = path.join(scratch, name)
  writeFileSync(file, text)
  return file
}
const messageOf = (read: () => unknown): string => {
  try {
    read()
  }
  catch (error) {
    return (error as Error).message
  }
  throw new Error('read a file that is no JSON')
}

describe('a file that is no JSON', () => {
  // V8 quotes the text around an unexpected token: `..."ghp_Secret42", nope}" is not valid JSON`.
  const broken = `{"callers": {"ci": {"token": "${SECRET}", "x": nope}}}\n`
  it.each([
    ['--callers', (file: string) => readCallersFile(file)],
    ['--config', (file: string) => readServersConfigFile(file, {})],
    ['--overrides', (file: string) => readOverridesFile(file)],
  ])('%s says the line and column it breaks at, not the text around it', (_flag, read) => {
    const message = messageOf(() => read(fileOf('broken.json', broken)))
    expect(message).not.toContain('Secret')
    expect(message).not.toContain('nope')
    expect(message).toMatch(/InvalidSymbol at line 1, column 51/)
  })
})

describe('install\'s own files, no JSON', () => {
  it('--undo says where flatmcp\'s config breaks, not the secrets around it', () => {
    const client = INSTALL_CLIENTS.find(entry => entry.name === 'cursor')!
    const file = fileOf('mcp.json', `{"mcpServers": {"gh": {"command": "gh-mcp", "env": {"TOKEN": "${SECRET}"}}}}\n`)
    const run = { client, file, flatmcp: ['flatmcp'], proxyArgs: [], dryRun: false, log: () => {}, out: () => {} }
    expect(install(run)).toBe(0)
    // The client changed its config since (so --undo reads flatmcp's), and flatmcp's was broken by hand.
    writeFileSync(file, `${readFileSync(file, 'utf8').trimEnd()}\n`.replace('{', '{"theme": "dark", '))
    writeFileSync(path.join(scratch, '.flatmcp', 'cursor.servers.json'), `{"mcpServers": {"gh": {"env": {"TOKEN": "${SECRET}", "x": nope}}}}\n`)
    const message = messageOf(() => undo(run))
    expect(message).toMatch(/not JSON \(InvalidSymbol at line 1, column \d+\)/)
    expect(message).not.toContain('Secret')
  })
})
