// `flatmcp proxy` with no snapshot keeps the list it compiled in the user's cache folder, and its next
// start with the same command line takes from it each live tool whose definition it holds, compiling
// only the rest. The kept list is never served in the live one's stead. A tool taken from it shows
// here by a mark put in the kept file by hand: compiled anew, it would not carry it. Each case has a
// cache folder of its own (XDG_CACHE_HOME); the upstream's list comes from its TOOLS variable, which
// is not part of the command line.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../test/support/client'
import { CLI } from '../../../test/support/proxy'
import { SLOW } from '../../../test/support/timeouts'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-lists-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const NAMED = path.join(ROOT, 'test/support/named-upstream.mjs')
let caches = 0

/** A cache folder of its own, and the lists kept in it. */
function cache(): { env: { XDG_CACHE_HOME: string }, folder: string, kept: () => string[] } {
  const home = path.join(scratch, `cache-${caches++}`)
  const folder = path.join(home, 'flatmcp', 'lists')
  return { env: { XDG_CACHE_HOME: home }, folder, kept: () => existsSync(folder) ? readdirSync(folder).filter(name => name.endsWith('.json')).map(name => path.join(folder, name)) : [] }
}

/** One client's start: the proxy in front of the named upstream listing `tools`; each tool's name and description. */
async function listed(tools: string[], env: Record<string, string>, flags: string[] = [], upstreamArgs: string[] = []): Promise<[string, string | undefined][]> {
  const client = new Client({ name: 'lists-test', version: '1' })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', ...flags, '--', process.execPath, NAMED, ...upstreamArgs], cwd: scratch, env: { ...process.env, ...env, TOOLS: JSON.stringify(tools) } as Record<string, string>, stderr: 'ignore' }))
  try {
    return (await client.listTools()).tools.map(tool => [tool.name, tool.description])
  }
  finally {
    await client.close()
  }
}

/** Waits (up to 10 s) until `done` holds: the list is kept once it is served, beside the client's answers. */
async function until(done: () => boolean): Promise<void> {
  for (const bound = Date.now() + 10_000; Date.now() < bound && !done();)
    await new Promise(resolve => setTimeout(resolve, 50))
  expect(done()).toBe(true)
}

/** Marks a tool's description in the kept list, as only a list taken from the file would carry it. */
function mark(file: string, name: string): void {
  const kept = JSON.parse(readFileSync(file, 'utf8')) as { tools: { name: string, description?: string }[] }
  for (const tool of kept.tools.filter(tool => tool.name === name))
    tool.description = `${tool.description} (kept)`
  writeFileSync(file, JSON.stringify(kept))
}

describe('flatmcp proxy\'s list cache', () => {
  it('keeps the list compiled (owner-only), takes from it at the next start what the live list still holds, and compiles and keeps what changed', { timeout: SLOW }, async () => {
    const { env, folder, kept } = cache()
    expect(await listed(['a', 'b'], env)).toEqual([['a', 'Tool a.'], ['b', 'Tool b.']])
    await until(() => kept().length === 1)
    const [file] = kept()
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(statSync(file!).mode & 0o777).toBe(0o600)
    mark(file!, 'a')
    // The log level is not part of the command line's key.
    expect(await listed(['a', 'b'], env, ['--log-level', 'debug'])).toEqual([['a', 'Tool a. (kept)'], ['b', 'Tool b.']])
    // The live list first: a tool it no longer holds is not listed, a new one is compiled, and the list kept anew.
    expect(await listed(['a', 'c'], env)).toEqual([['a', 'Tool a. (kept)'], ['c', 'Tool c.']])
    await until(() => readFileSync(file!, 'utf8').includes('Tool c.'))
    expect(kept()).toEqual([file])
  })

  it('takes nothing for another command line, with FLATMCP_DISABLE_LIST_CACHE, from a folder others can write to, or from a kept file that is not a list or no file at all', { timeout: SLOW }, async () => {
    const { env, folder, kept } = cache()
    await listed(['a'], env)
    await until(() => kept().length === 1)
    const [file] = kept()
    mark(file!, 'a')
    expect(await listed(['a'], env, [], ['another'])).toEqual([['a', 'Tool a.']])
    expect(await listed(['a'], { ...env, FLATMCP_DISABLE_LIST_CACHE: '1' })).toEqual([['a', 'Tool a.']])
    expect(await listed(['a'], env)).toEqual([['a', 'Tool a. (kept)']])
    chmodSync(folder, 0o777)
    expect(await listed(['a'], env)).toEqual([['a', 'Tool a.']])
    chmodSync(folder, 0o700)
    // Not JSON, then JSON that is no snapshot: compiled, and a list kept in its place.
    for (const text of ['{"tools": [', '{"tools": "Tool a. (kept)"}']) {
      writeFileSync(file!, text)
      expect(await listed(['a'], env)).toEqual([['a', 'Tool a.']])
      await until(() => readFileSync(file!, 'utf8') !== text)
      expect(JSON.parse(readFileSync(file!, 'utf8'))).toMatchObject({ tools: [{ name: 'a', description: 'Tool a.' }] })
    }
    // No file at all where the list was kept (a pipe that never ends, as /dev/zero would not): passed over, not read.
    rmSync(file!)
    execFileSync('mkfifo', [file!])
    expect(await listed(['a'], env)).toEqual([['a', 'Tool a.']])
    await until(() => statSync(file!).isFile())
  })
})
