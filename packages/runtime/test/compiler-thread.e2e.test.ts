// The compiler's thread started ahead of a list (`warmCompilerThread`), as the built package runs it
// (the thread's file is in the build, not beside the source): the first list compiled takes it, a
// later one starts its own, one of another heap is not taken, and a thread that waits holds no process
// open. What is compiled is the same either way. Each case runs in a node process of its own, counting
// the threads made through `node:worker_threads`.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { SLOW } from '../../../test/support/timeouts'

const DIST = path.resolve(import.meta.dirname, '../dist')
const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-compiler-thread-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let scripts = 0

/** Runs `body` in a node process beside the built package, `made()` the threads made so far; what it prints, parsed. */
function run(body: string): unknown {
  const script = `
import workers from 'node:worker_threads'
let made = 0
const Worker = workers.Worker
workers.Worker = class extends Worker { constructor(...args) { super(...args); made++ } }
const { warmCompilerThread } = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'proxy-spawn.mjs')).href)})
const { compileUpstreamList, readUpstreamList } = await import(${JSON.stringify(pathToFileURL(path.join(DIST, 'proxy.mjs')).href)})
const tool = { name: 'send', inputSchema: { type: 'object', properties: { kind: { type: 'string' } }, anyOf: [{ properties: { kind: { const: 'a' }, x: { type: 'string' } }, required: ['kind', 'x'] }, { properties: { kind: { const: 'b' }, y: { type: 'number' } }, required: ['kind', 'y'] }] } }
const compile = async (compile) => (await compileUpstreamList(await readUpstreamList([tool], () => {}), compile ? { compile } : {})).tools[0].precomputed.tool.inputSchema
${body}`
  // A file, not --input-type: a thread takes the process's flags, and that one is refused where no text is given.
  const file = path.join(scratch, `case-${scripts++}.mjs`)
  writeFileSync(file, script)
  return JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 }))
}

describe('the compiler thread started ahead of a list', () => {
  it('is taken by the first list compiled, and a later list starts its own; the compiled schemas are the ones a thread started for the list makes', { timeout: SLOW }, () => {
    const result = run(`
const cold = await compile()
const afterCold = made
warmCompilerThread()
const warmed = made
const first = await compile()
const afterFirst = made
const second = await compile()
console.log(JSON.stringify({ afterCold, warmed, afterFirst, afterSecond: made, same: JSON.stringify(first) === JSON.stringify(cold) && JSON.stringify(second) === JSON.stringify(cold), flat: !JSON.stringify(first).includes('anyOf') }))
process.exit(0)`)
    expect(result).toEqual({ afterCold: 1, warmed: 2, afterFirst: 2, afterSecond: 3, same: true, flat: true })
  })

  it('is not taken by a compile given another heap (it is ended), and one that waits holds no process open', { timeout: SLOW }, () => {
    const other = run(`
warmCompilerThread()
await compile({ memoryMb: 512 })
console.log(JSON.stringify({ made }))`)
    expect(other).toEqual({ made: 2 })
    // Nothing left to do but a thread that waits: the process ends of itself (a held one would meet the timeout).
    expect(run(`
warmCompilerThread()
console.log(JSON.stringify({ made }))`)).toEqual({ made: 1 })
  })

  it('that runs out of heap while it waits leaves the process running, and a list is then compiled on a thread of its own', { timeout: SLOW }, () => {
    expect(run(`
warmCompilerThread(2)
await new Promise(resolve => setTimeout(resolve, 2000))
const schema = await compile()
console.log(JSON.stringify({ made, flat: !JSON.stringify(schema).includes('anyOf') }))`)).toEqual({ made: 2, flat: true })
  })

  it('ends a compile whose every thread stops before it reads the list (a heap or a time limit too small to load the compiler): the tools are served as they came', { timeout: SLOW }, () => {
    for (const limits of ['{ memoryMb: 2 }', '{ timeoutMs: 1 }']) {
      expect(run(`
const list = await compileUpstreamList(await readUpstreamList([tool], () => {}), { compile: ${limits} })
console.log(JSON.stringify({ served: list.tools.map(tool => tool.served), bounded: made <= 2 }))`)).toEqual({ served: ['as-is'], bounded: true })
    }
  })
})
