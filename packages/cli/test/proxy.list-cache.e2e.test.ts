// `flatmcp proxy` with no snapshot keeps the list it compiled in the user's cache folder, and its next
// start with the same command line takes from it each live tool whose definition it holds, compiling
// only the rest. The kept list is never served in the live one's stead. A tool taken from it shows
// here by a mark put in the kept file by hand: compiled anew, it would not carry it. Each case has a
// cache folder of its own (XDG_CACHE_HOME); the upstream's list comes from its TOOLS variable, which
// is not part of the command line.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../test/support/client'
import { CLI } from '../../../test/support/proxy'
import { SLOW } from '../../../test/support/timeouts'
import { readAnswers } from '../src/proxy/answer-cache'

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

/** The proxy's debug lines of its last start (`listed`), once the list is kept or not. */
let said = ''

/** One client's start, at `--log-level debug`: the proxy in front of the named upstream listing `tools`; each tool's name and description. */
async function listed(tools: string[], env: Record<string, string>, flags: string[] = [], upstreamArgs: string[] = []): Promise<[string, string | undefined][]> {
  const client = new Client({ name: 'lists-test', version: '1' })
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--log-level', 'debug', ...flags, '--', process.execPath, NAMED, ...upstreamArgs], cwd: scratch, env: { ...process.env, ...env, TOOLS: JSON.stringify(tools) } as Record<string, string>, stderr: 'pipe' })
  let stderr = ''
  transport.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  await client.connect(transport)
  try {
    return (await client.listTools()).tools.map(tool => [tool.name, tool.description])
  }
  finally {
    // The line of what was taken and kept comes once the list is served: waited for (up to 10 s).
    await until(() => /flatmcp proxy: (?:the list cache is off|no list kept|the list kept in|\d+ of \d+ tools taken)/.test(stderr))
    said = stderr
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
    expect(said).toContain(`flatmcp proxy: no list kept for this command line (${file}); 2 tools compiled; this list kept for the next start`)
    // Without a snapshot the answer cache keeps nothing, and says nothing.
    expect(said).not.toContain('answer cache')
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(statSync(file!).mode & 0o777).toBe(0o600)
    mark(file!, 'a')
    // The log level is not part of the command line's key.
    expect(await listed(['a', 'b'], env, ['--log-level=debug'])).toEqual([['a', 'Tool a. (kept)'], ['b', 'Tool b.']])
    expect(said).toContain(`flatmcp proxy: 2 of 2 tools taken from the list kept in ${file}, 0 compiled`)
    // The live list first: a tool it no longer holds is not listed, a new one is compiled, and the list kept anew.
    expect(await listed(['a', 'c'], env)).toEqual([['a', 'Tool a. (kept)'], ['c', 'Tool c.']])
    expect(said).toContain(`flatmcp proxy: 1 of 2 tools taken from the list kept in ${file}, 1 compiled; this list kept for the next start`)
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
    expect(said).toContain('flatmcp proxy: the list cache is off: FLATMCP_DISABLE_LIST_CACHE is set; every tool compiled')
    // 0 and false leave it on.
    for (const value of ['0', 'false'])
      expect(await listed(['a'], { ...env, FLATMCP_DISABLE_LIST_CACHE: value })).toEqual([['a', 'Tool a. (kept)']])
    chmodSync(folder, 0o777)
    expect(await listed(['a'], env)).toEqual([['a', 'Tool a.']])
    expect(said).toContain(`flatmcp proxy: the list cache is off: ${folder} is not a folder only this user can write to`)
    chmodSync(folder, 0o700)
    // Not JSON, then JSON that is no snapshot: compiled, and a list kept in its place.
    for (const text of ['{"tools": [', '{"tools": "Tool a. (kept)"}']) {
      writeFileSync(file!, text)
      expect(await listed(['a'], env)).toEqual([['a', 'Tool a.']])
      await until(() => readFileSync(file!, 'utf8') !== text)
      expect(JSON.parse(readFileSync(file!, 'utf8'))).toMatchObject({ tools: [{ name: 'a', description: 'Tool a.' }] })
      expect(said).toContain(`flatmcp proxy: the list kept in ${file} is not one; passed over, 1 tool compiled`)
    }
    // A list whose tool is null in it (edited by hand): that tool compiled, the start not ended.
    const broken = JSON.parse(readFileSync(file!, 'utf8')) as { runtime: Record<string, unknown> }
    broken.runtime.a = null
    writeFileSync(file!, JSON.stringify(broken))
    expect(await listed(['a'], env)).toEqual([['a', 'Tool a.']])
    expect(said).toContain(`flatmcp proxy: 0 of 1 tools taken from the list kept in ${file}, 1 compiled; this list kept for the next start`)
    // A list used again is marked used, so the least recently used go first when the folder is full.
    utimesSync(file!, new Date(2000, 0, 1), new Date(2000, 0, 1))
    await listed(['a'], env)
    expect(said).toContain('the list kept is this one')
    expect(statSync(file!).mtime.getFullYear()).toBeGreaterThan(2000)
    // No file at all where the list was kept (a pipe that never ends, as /dev/zero would not): passed over, not read.
    rmSync(file!)
    execFileSync('mkfifo', [file!])
    expect(await listed(['a'], env)).toEqual([['a', 'Tool a.']])
    await until(() => statSync(file!).isFile())
    // So is the answer cache's entry: a pipe under its name is no entry, refused unread.
    const answers = path.join(scratch, 'answers-pipe')
    mkdirSync(answers)
    execFileSync('mkfifo', [path.join(answers, `${'a'.repeat(64)}.json`)])
    expect(readAnswers(answers, 'a'.repeat(64))).toBeUndefined()
  })

  it('says a cache folder whose path holds a line feed on one line: the operator\'s log gets no line it did not write', { timeout: SLOW }, async () => {
    const home = path.join(scratch, 'cache-\nflatmcp proxy: forged')
    await listed(['a'], { XDG_CACHE_HOME: home })
    expect(said).toContain(`no list kept for this command line (${home.replace('\n', '\\n')}`)
    expect(said.split('\n')).not.toContain(expect.stringMatching(/^flatmcp proxy: forged/))
  })
})
