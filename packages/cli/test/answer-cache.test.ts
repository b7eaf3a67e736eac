// The answer cache's store: entries keyed by the command line, whole or not at all, trusted only
// while the files they came from are byte-identical, and pruned to the newest.
import type { KeptAnswers } from '../src/proxy/answer-cache'
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ANSWER_CACHE_LIMITS, answeringWords, answersKey, canonicalJson, filesNow, keepAnswers, readAnswers, UNKEYED_FLAGS, UNKEYED_VARIABLES } from '../src/proxy/answer-cache'
import { turnedOff } from '../src/proxy/cache-entries'
import { FLAG_ROWS } from '../src/commands/upstream-flags'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-answer-cache-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let folders = 0
const folder = (): string => mkdtempSync(path.join(scratch, `cache-${folders++}-`))

/** A snapshot file and an entry made from it. */
function made(dir: string, list = '{"tools":[]}'): { file: string, entry: KeptAnswers } {
  const file = path.join(dir, 'upstream.mcp.json')
  writeFileSync(file, '{"version":1}')
  return { file, entry: { files: filesNow([file])!, answers: [{ method: 'initialize', params: '{}', result: '{"protocolVersion":"2025-11-25"}' }, { method: 'tools/list', params: '{}', result: list }] } }
}

describe('the answer cache', () => {
  it('reads params as one text however their keys are ordered, and keeps undefined out as JSON does', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[2,{"e":null,"f":1}]},"b":1}')
    expect(canonicalJson({ a: undefined, b: 1 })).toBe(JSON.stringify({ b: 1 }))
  })

  it('keys an entry by the build, the folder, every word of the command line and the FLATMCP_ variables, and nothing else', () => {
    const key = answersKey('build', '/work', ['proxy', '--artifact', 'a.mcp.json'], { FLATMCP_X: '1', HOME: '/home/ann' })
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(answersKey('build', '/work', ['proxy', '--artifact', 'a.mcp.json'], { FLATMCP_X: '1', HOME: '/elsewhere' })).toBe(key)
    for (const other of [
      answersKey('other build', '/work', ['proxy', '--artifact', 'a.mcp.json'], { FLATMCP_X: '1' }),
      answersKey('build', '/other', ['proxy', '--artifact', 'a.mcp.json'], { FLATMCP_X: '1' }),
      answersKey('build', '/work', ['proxy', '--artifact', 'b.mcp.json'], { FLATMCP_X: '1' }),
      answersKey('build', '/work', ['proxy', '--artifact a.mcp.json'], { FLATMCP_X: '1' }),
      answersKey('build', '/work', ['proxy', '--artifact', 'a.mcp.json'], { FLATMCP_X: '2' }),
      answersKey('build', '/work', ['proxy', '--artifact', 'a.mcp.json'], {}),
    ])
      expect(other).not.toBe(key)
    // The variables that turn a cache on or off change no answer: every value is the same key.
    for (const name of UNKEYED_VARIABLES)
      expect(answersKey('build', '/work', ['proxy', '--artifact', 'a.mcp.json'], { FLATMCP_X: '1', [name]: '0' })).toBe(key)
  })

  it('turns a cache off with any value of its variable but none, empty, 0 or false', () => {
    expect([undefined, '', '0', 'false', 'FALSE', ' 0 ', '1', 'true', 'yes'].map(turnedOff)).toEqual([false, false, false, false, false, false, true, true, true])
  })

  it('leaves the log level out of the key (flag and value, either spelling), never a word after --; each flag left out is one of the proxy\'s', () => {
    const key = answersKey('build', '/work', ['proxy', '--artifact', 'a.mcp.json', '--', 'server'], {})
    expect(answersKey('build', '/work', ['proxy', '--log-level', 'debug', '--artifact', 'a.mcp.json', '--', 'server'], {})).toBe(key)
    expect(answersKey('build', '/work', ['proxy', '--artifact', 'a.mcp.json', '--log-level=error', '--', 'server'], {})).toBe(key)
    expect(answeringWords(['proxy', '--log-level', 'debug', '--', 'server', '--log-level', 'debug'])).toEqual(['proxy', '--', 'server', '--log-level', 'debug'])
    const proxyFlags = FLAG_ROWS.filter(flag => flag.of === 'proxy' || flag.of === 'both').map(flag => `--${flag.name}`)
    for (const flag of UNKEYED_FLAGS)
      expect(proxyFlags).toContain(flag)
  })

  it('gives back what it kept while its files are as they were, and nothing once one changed or went', () => {
    const dir = folder()
    const { file, entry } = made(dir)
    keepAnswers(dir, 'a'.repeat(64), entry)
    expect(readAnswers(dir, 'a'.repeat(64))).toEqual(entry)
    writeFileSync(file, '{"version":2}')
    expect(readAnswers(dir, 'a'.repeat(64))).toBeUndefined()
    rmSync(file)
    expect(readAnswers(dir, 'a'.repeat(64))).toBeUndefined()
    expect(readAnswers(dir, 'b'.repeat(64))).toBeUndefined()
  })

  it('refuses an entry that is cut short, of another shape, of a method it does not keep, or with a result that would break a line', () => {
    const dir = folder()
    const { entry } = made(dir)
    const key = 'c'.repeat(64)
    const entryFile = path.join(dir, `${key}.json`)
    const broken: unknown[] = [
      JSON.stringify(entry).slice(0, 40),
      JSON.stringify({ ...entry, answers: [] }),
      JSON.stringify({ ...entry, files: 'upstream.mcp.json' }),
      JSON.stringify({ ...entry, answers: [{ ...entry.answers[0], method: 'tools/call' }] }),
      JSON.stringify({ ...entry, answers: [{ ...entry.answers[0], result: '{"a":1}\n{"jsonrpc":"2.0","id":2,"result":{}}' }] }),
      JSON.stringify({ ...entry, answers: [{ ...entry.answers[0], result: '"text"' }] }),
      JSON.stringify({ ...entry, answers: [{ ...entry.answers[0], params: {} }] }),
      'null',
    ]
    for (const text of broken) {
      writeFileSync(entryFile, text as string)
      expect(readAnswers(dir, key), text as string).toBeUndefined()
    }
  })

  it('keeps nothing past its size, and no more than its count of entries: the oldest go', () => {
    const dir = folder()
    const { entry } = made(dir)
    keepAnswers(dir, 'd'.repeat(64), { ...entry, answers: [{ method: 'tools/list', params: '{}', result: `{"tools":[],"x":"${'x'.repeat(ANSWER_CACHE_LIMITS.bytes)}"}` }] })
    expect(readdirSync(dir).filter(name => name.endsWith('.json') && name !== 'upstream.mcp.json')).toEqual([])
    const keys = Array.from({ length: ANSWER_CACHE_LIMITS.entries + 3 }, (_, at) => at.toString(16).padStart(64, '0'))
    keys.forEach((key, at) => {
      keepAnswers(dir, key, entry)
      const when = new Date(Date.now() - (keys.length - at) * 60_000)
      utimesSync(path.join(dir, `${key}.json`), when, when)
    })
    keepAnswers(dir, 'e'.repeat(64), entry)
    const left = readdirSync(dir).filter(name => /^[0-9a-f]{64}\.json$/.test(name)).map(name => name.slice(0, 64))
    expect(left).toHaveLength(ANSWER_CACHE_LIMITS.entries)
    expect(left).toContain('e'.repeat(64))
    expect(left).not.toContain(keys[0])
    expect(left).not.toContain(keys[3])
    expect(left).toContain(keys[4])
    expect(readdirSync(dir).filter(name => name.endsWith('.tmp'))).toEqual([])
  })
})
