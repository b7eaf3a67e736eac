// The command as it ships, at its package boundary: `flatmcp proxy` from the built package, serving a
// snapshot, loads none of the build pipeline (esbuild, @babel/parser, fast-check, the plugin's
// internal entry), neither the compiler nor its thread, nor a parser for a file format it does not read
// (YAML, TOML; jsonc-parser only says where a text that is no JSON broke), and ajv only once a call needs it; it starts the upstream
// before it loads the MCP SDK or the runtime's entry. What a process loads is
// recorded by Node's own module hooks (ESM resolutions and CommonJS loads), in the proxy alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI, runCli, UPSTREAM_V2 } from '../../../test/support/proxy'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-startup-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A preload that appends each module the process resolves or requires to `FLATMCP_LOADED_FILE`. */
function recorder(): string {
  writeFileSync(path.join(scratch, 'hooks.mjs'), `import { appendFileSync } from 'node:fs'
let file
export function initialize(data) { file = data.file }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  appendFileSync(file, resolved.url + '\\n')
  return resolved
}
`)
  writeFileSync(path.join(scratch, 'record.mjs'), `import { createRequire, register } from 'node:module'
import { appendFileSync } from 'node:fs'
const file = process.env.FLATMCP_LOADED_FILE
register('./hooks.mjs', import.meta.url, { data: { file } })
const require = createRequire(import.meta.url)
const Module = require('node:module')
// Where the upstream command starts among the loads: a line of its own.
const childProcess = require('node:child_process')
const spawn = childProcess.spawn
childProcess.spawn = function () {
  appendFileSync(file, 'spawned the upstream\\n')
  return spawn.apply(this, arguments)
}
Module.syncBuiltinESMExports()
const load = Module._load
Module._load = function (request, parent, isMain) {
  try { appendFileSync(file, Module._resolveFilename(request, parent, isMain) + '\\n') } catch {}
  return load.apply(this, arguments)
}
`)
  return path.join(scratch, 'record.mjs')
}

/** The proxy's chunk (dist/proxy): the packages each of its files holds, as the build wrote them. */
const CHUNK = path.join(path.dirname(CLI), 'proxy')
const chunkContents = (): Record<string, string[]> => JSON.parse(readFileSync(path.join(CHUNK, 'contents.json'), 'utf8')) as Record<string, string[]>

/** The packages (or the plugin's entries) one loaded module is of: a file of the proxy's chunk, every package bundled into it. */
function packagesOf(line: string, contents: Record<string, string[]>): string[] {
  const found: string[] = []
  const file = line.replace(/^file:\/\//, '')
  if (path.dirname(file) === CHUNK)
    found.push(...contents[path.basename(file)] ?? [])
  // The package a file is of: the name after its last node_modules/ (pnpm's store nests them).
  const name = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line)?.[1]
  if (name)
    found.push(name)
  const plugin = /packages\/unplugin\/dist\/(internal(?:-shared)?)\.mjs/.exec(line)?.[1]
  if (plugin)
    found.push(`unplugin-flatmcp/${plugin}`)
  // confbox's index (every format it parses) where the JSONC parser alone is imported.
  if (/confbox\/dist\/(?:index|yaml|toml|json5|ini)\.mjs/.test(line))
    found.push('confbox\'s every format')
  // The SDK's own validator (ajv inlined in its provider), which the chunk loads on first use.
  if (/@modelcontextprotocol\/(?:client|server)\/dist\/(?:ajvProvider|shimsNode)/.test(line))
    found.push('the SDK\'s ajv')
  if (line.includes('proxy-compile-worker'))
    found.push('the compiler thread')
  if (/packages\/core\/(?:dist\/index\.mjs|src\/index\.ts)/.test(line))
    found.push('the compiler')
  return found
}

/** The packages (or the plugin's entries) among the modules loaded so far. */
function loaded(file: string): Set<string> {
  const contents = chunkContents()
  return new Set(readFileSync(file, 'utf8').split('\n').flatMap(line => packagesOf(line, contents)))
}

describe('flatmcp proxy from a snapshot, as built', () => {
  it('starts without the build pipeline, the compiler or its thread, and loads ajv only when a call needs it', async () => {
    const snapshot = path.join(scratch, 'upstream.mcp.json')
    const made = await runCli(['snapshot', '--out', snapshot, '--', ...UPSTREAM_V2])
    expect(made.code, made.stderr).toBe(0)
    const record = path.join(scratch, 'loaded.txt')
    writeFileSync(record, '')
    const client = new Client({ name: 'startup', version: '1' })
    await client.connect(new StdioClientTransport({
      command: process.execPath,
      args: ['--import', recorder(), CLI, 'proxy', '--artifact', snapshot, '--', ...UPSTREAM_V2],
      env: { ...process.env, FLATMCP_LOADED_FILE: record } as Record<string, string>,
      stderr: 'ignore',
    }))
    try {
      expect((await client.listTools()).tools.map(tool => tool.name)).toContain('send')
      const atStart = loaded(record)
      // What it did load, so the record is known to work: the SDK it serves with, bundled into the chunk.
      expect(atStart).toContain('@modelcontextprotocol/server')
      expect(atStart).toContain('@modelcontextprotocol/core')
      // The upstream starts first, and boots while the proxy loads the SDK.
      const lines = readFileSync(record, 'utf8').split('\n')
      const spawned = lines.indexOf('spawned the upstream')
      expect(spawned).toBeGreaterThan(-1)
      const contents = chunkContents()
      expect(lines.slice(0, spawned).flatMap(line => packagesOf(line, contents)).filter(name => name.startsWith('@modelcontextprotocol/'))).toEqual([])
      // Nor the runtime's own entry (every export of the package, about 40 ms): the command's path takes what it needs.
      expect(lines.slice(0, spawned).filter(line => /(?:packages\/runtime|@flatmcp\/runtime)\/dist\/index\.mjs$/.test(line))).toEqual([])
      for (const name of ['esbuild', '@babel/parser', 'fast-check', 'ajv', 'ajv-formats', 'the SDK\'s ajv', '@cfworker/json-schema', 'unplugin-flatmcp/internal', 'the compiler', 'the compiler thread', 'jsonc-parser', 'confbox\'s every format'])
        expect(atStart, name).not.toContain(name)
      // A call whose reading is chosen by the upstream's schema builds the validator.
      const result = await client.callTool({ name: 'send', arguments: { kind: 'message', text: 'hi' } }) as { isError?: boolean }
      expect(result.isError).not.toBe(true)
      expect(loaded(record)).toContain('ajv')
    }
    finally {
      await client.close()
    }
  })

  it('ships the licence of every package its chunk inlines', () => {
    const licences = readFileSync(path.join(CHUNK, 'THIRD-PARTY-LICENSES.md'), 'utf8')
    const inlined = new Set(Object.values(chunkContents()).flat().filter(name => name !== 'flatmcp' && !name.startsWith('@flatmcp/')))
    expect(inlined).toContain('zod')
    for (const name of inlined)
      expect(licences, name).toMatch(new RegExp(`^## ${name.replace(/[/.]/g, '\\$&')}@`, 'm'))
  })

  it('says the chunk\'s own set-up errors in one line, as the command says the runtime\'s (exit 2, no stack)', async () => {
    const notSnapshot = path.join(scratch, 'not-a-snapshot.json')
    writeFileSync(notSnapshot, 'not json\n')
    const run = await runCli(['proxy', '--artifact', notSnapshot, '--', 'node'], scratch)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^flatmcp: \S*not-a-snapshot\.json: not JSON[^\n]*\n$/)
  })
})
