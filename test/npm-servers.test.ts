// `flatmcp proxy` in front of MCP servers people run, installed from the npm registry at pinned
// versions (test/support/npm-servers.ts): reference servers, vendors' servers, a browser server and
// one in Go, each configured by the environment its README gives it. Each is listed directly and
// through the proxy in every profile: no tool lost, the portable list flat, the strict profiles as
// the vendors' own code takes them (or said non-strict), inputs and outputs sound by the probe; real
// calls, with their arguments broken as models break them, give the direct call's result.
import type { CallToolResult } from '@modelcontextprotocol/client'
import type { NpmServer } from './support/npm-servers'
import type { Listening } from './support/proxy'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema'
import { PROFILE_NAMES, withoutSharedDefinitions } from '@flatmcp/core'
import { SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { toStrictJsonSchema } from 'openai/lib/transform'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { portableViolations } from '../packages/core/test/support'
import { geminiViolations } from '../packages/core/test/target-oracles'
import { ROOT } from './support/client'
import { atScale } from './support/full'
import { installNpmServers, NPM_SERVERS } from './support/npm-servers'
import { toolSearch } from '../packages/runtime/src/search/tool-search'
import { CLI, httpClient, runCli, startListening } from './support/proxy'

// The profiles the proxy serves (`minimal`, a base profile, has no route).
const PROFILES = PROFILE_NAMES.filter(name => name !== 'minimal')
const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-npm-servers-'))
let bin = ''
afterAll(() => process.env.KEEP_SCRATCH ? undefined : rmSync(scratch, { recursive: true, force: true }))
beforeAll(() => {
  bin = installNpmServers()
}, 600_000)

interface Tool { name: string, inputSchema: Record<string, unknown>, outputSchema?: Record<string, unknown> }

/** A server's own folder, command and environment. */
function setUp(server: NpmServer): { folder: string, command: string[], env: Record<string, string> } {
  const folder = join(scratch, server.name)
  mkdirSync(folder, { recursive: true })
  return { folder, command: server.command(bin, folder), env: server.env(folder) }
}

/** A real SDK 2.x client over stdio, the environment given, offering nothing. */
async function connect(command: string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'flatmcp-test', version: '1' }, { versionNegotiation: { mode: 'legacy' } })
  await client.connect(new StdioClientTransport({ command: command[0]!, args: command.slice(1), cwd: ROOT, env: { ...process.env, ...env } as Record<string, string>, stderr: 'ignore' }))
  return client
}

const snapshots: string[] = []
/** Each server's own list, as the first test of each lists it. */
const lists = new Map<string, Tool[]>()

const textOf = (result: unknown): string => (result as CallToolResult).content.map(part => part.type === 'text' ? part.text : '').join('')

/**
 * The same server behind `--surface search` (and an --always-load that names no tool: it lists
 * nothing more, and is said): three tools listed in every profile; every tool
 * described as the full list shows it, its shared shapes written out; found first by its own name, and in the first five
 * by the opening words of its description for nine tools in ten or more.
 */
async function searchSurfaceHolds(proxy: Listening, full: Map<string, Tool[]>): Promise<void> {
  try {
    for (const profile of PROFILES) {
      const client = await httpClient(profile === 'portable' ? proxy.url : `${proxy.url}/${profile}`)
      try {
        expect((await client.listTools()).tools.map(tool => tool.name), profile).toEqual(Object.values(SURFACE_TOOLS))
        await expect.poll(() => proxy.stderr()).toMatch(/flatmcp proxy: serving \d+ tools? of .*; listed behind find_tools, describe_tools and call_tool \(--always-load names no tool called no_such_tool\)\n/)
        const tools = full.get(profile)!
        for (let i = 0; i < tools.length; i += 20) {
          const chunk = tools.slice(i, i + 20)
          // An answer holds about 8k tokens: the tools past it are named under deferred, for another call.
          const described: (Tool & { schemaHash: string })[] = []
          for (let names = chunk.map(tool => tool.name); names.length > 0;) {
            const answer = JSON.parse(textOf(await client.callTool({ name: 'describe_tools', arguments: { names } }))) as { tools: (Tool & { schemaHash: string })[], deferred?: string[] }
            expect(answer.tools.length, `${profile}: describe_tools answers at least one tool`).toBeGreaterThan(0)
            described.push(...answer.tools)
            names = answer.deferred ?? []
          }
          // As the full list shows them, each shared shape written out where it is used (Gemini 3.x refuses `$ref` in a tool's answer).
          expect(JSON.stringify(described), profile).not.toMatch(/"\$ref"|"\$defs"/)
          expect(described.map(({ schemaHash: _hash, ...tool }) => tool), profile).toEqual(JSON.parse(JSON.stringify(chunk.map(tool => ({ ...tool, inputSchema: withoutSharedDefinitions(tool.inputSchema as never) })))))
        }
        if (profile !== 'portable')
          continue
        let byWords = 0
        for (const tool of tools) {
          const lines = async (query: string): Promise<string[]> => textOf(await client.callTool({ name: 'find_tools', arguments: { query } })).split('\n').map(line => line.replace(/^\[fit \d\.\d\d\] /, '').split(':')[0]!)
          expect((await lines(tool.name))[0], tool.name).toBe(tool.name)
          const opening = String((tool as { description?: string }).description ?? tool.name).split(/\s+/).slice(0, 8).join(' ')
          byWords += Number((await lines(opening)).slice(0, 5).includes(tool.name))
        }
        expect(byWords / tools.length).toBeGreaterThanOrEqual(0.9)
      }
      finally {
        await client.close()
      }
    }
  }
  finally {
    await proxy.close()
  }
}

/**
 * A server's snapshot, as an operator makes one: a server that does not start without its environment
 * is given it by `--env` alone, its own variables emptied (what the environment test asks of it).
 */
function snapshotOf(server: NpmServer, command: string[], env: Record<string, string>, file: string): ReturnType<typeof runCli> {
  if (!server.needsEnv)
    return runCli(['snapshot', '--out', file, '--', ...command], ROOT, 120_000, undefined, env)
  const flags = Object.entries(env).flatMap(([name, value]) => ['--env', `${name}=${value}`])
  return runCli(['snapshot', '--out', file, ...flags, '--', ...command], ROOT, 120_000, undefined, emptied(env))
}

/** The same variables, each set empty. */
const emptied = (env: Record<string, string>): Record<string, string> => Object.fromEntries(Object.keys(env).map(name => [name, '']))

/** What each server's snapshot run said: the environment test reads those of the servers that need it. */
const snapshotRuns = new Map<string, { code: number | null, stderr: string }>()

describe.each(NPM_SERVERS.map(server => [`${server.name} (${server.package}, ${server.kind})`, server] as const))('%s', (_name, server) => {
  it('through the proxy every tool is listed, in every profile: portable flat, the strict profiles as the vendors\' code takes them or said non-strict', async () => {
    const { command, env } = setUp(server)
    const file = join(scratch, `${server.name}.mcp.json`)
    // The direct list, the proxy, the search surface's proxy and the snapshot each start the server
    // on their own: they start at once, and each is checked once the ones it is compared with are in.
    const snapshotted = snapshotOf(server, command, env, file)
    const surfaced = startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--surface', 'search', '--always-load', 'no_such_tool', '--', ...command], ROOT, env)
    // The environment a client's config gives reaches the server through the proxy's own.
    const proxied = startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--', ...command], ROOT, env)
    // A proxy that fails to start fails the test where it is awaited, not before as an unhandled rejection.
    for (const started of [proxied, surfaced])
      started.catch(() => undefined)
    try {
      const direct = await connect(command, env)
      const listed = (await direct.listTools()).tools as Tool[]
      await direct.close()
      expect(listed.length).toBeGreaterThan(0)
      lists.set(server.name, listed)
      const proxy = await proxied
      const full = new Map<string, Tool[]>()
      try {
        for (const profile of PROFILES) {
          const client = await httpClient(profile === 'portable' ? proxy.url : `${proxy.url}/${profile}`)
          const tools = (await client.listTools()).tools as Tool[]
          await client.close()
          full.set(profile, tools)
          expect(tools.map(tool => tool.name), profile).toEqual(listed.map(tool => tool.name))
          if (profile === 'portable') {
            for (const tool of tools)
              expect(portableViolations(tool.inputSchema), tool.name).toEqual([])
          }
        }
      }
      finally {
        await proxy.close()
      }
      await searchSurfaceHolds(await surfaced, full)
    }
    finally {
      // Whatever failed first, no proxy outlives the test.
      await Promise.all([proxied, surfaced].map(async started => (await started.catch(() => undefined))?.close()))
    }
    const listed = lists.get(server.name)!
    const made = await snapshotted
    snapshotRuns.set(server.name, made)
    expect(made.code, made.stderr).toBe(0)
    snapshots.push(file)
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { tools: Tool[], runtime: Record<string, { served?: string, profiles: Record<string, { inputSchema: Record<string, unknown>, strict?: boolean }> }> }
    expect(snapshot.tools.map(tool => tool.name)).toEqual(listed.map(tool => tool.name))
    for (const tool of snapshot.tools) {
      const runtime = snapshot.runtime[tool.name]!
      expect(runtime.served, `${tool.name} served as it came`).toBeUndefined()
      for (const output of [tool.outputSchema].filter(Boolean))
        expect(JSON.stringify(output), tool.name).not.toMatch(/"(\$schema|\$ref|\$defs|definitions|anyOf|oneOf|allOf)"/)
      const openai = runtime.profiles['openai-strict']!
      const anthropic = runtime.profiles['anthropic-strict']!
      // A tool strict in a profile is one the vendor's own transform gives back unchanged; one that is
      // not is said (the snapshot's stderr names each).
      if (openai.strict !== false)
        expect(toStrictJsonSchema(openai.inputSchema as never), tool.name).toEqual(openai.inputSchema)
      else
        expect(made.stderr).toContain(`tool "${tool.name}" served as portable, not openai-strict`)
      if (anthropic.strict !== false)
        expect(transformJSONSchema(anthropic.inputSchema as never), tool.name).toEqual(anthropic.inputSchema)
      else
        expect(made.stderr).toContain(`tool "${tool.name}" served as portable, not anthropic-strict`)
      expect(geminiViolations(runtime.profiles.gemini!.inputSchema, { names: false }), tool.name).toEqual([])
    }
  })
})

describe('what an operator meets', () => {
  it('find_tools names the tool a task needs among its first five, for nine tasks in ten or more (test/data/task-phrasings.json, the held-out ones apart)', () => {
    const { tasks } = JSON.parse(readFileSync(join(ROOT, 'test/data/task-phrasings.json'), 'utf8')) as { tasks: { server: string, task: string, tool: string, heldOut: boolean }[] }
    for (const heldOut of [false, true]) {
      const asked = tasks.filter(task => task.heldOut === heldOut)
      expect(asked.length).toBeGreaterThan(20)
      const missed = asked.filter(({ server, task, tool }) => !toolSearch(lists.get(server) as never).search(task, 5).some(found => found.name === tool))
      expect(missed.length / asked.length, JSON.stringify(missed)).toBeLessThanOrEqual(0.1)
    }
  })

  it('the probe finds every snapshot current and sound: inputs and outputs under four validators, each target profile round-tripped', async () => {
    expect(snapshots).toHaveLength(NPM_SERVERS.length)
    const probed = await runCli(['probe', ...snapshots, '--samples', String(atScale(4, 100)), '--json'], ROOT, 600_000)
    const report = JSON.parse(probed.stdout) as { ok: boolean, artifacts: { file: string, findings: { severity: string, tool?: string, message: string }[] }[] }
    expect(report.artifacts.flatMap(artifact => artifact.findings.filter(f => f.severity === 'error').map(f => `${artifact.file} ${f.tool}: ${f.message}`))).toEqual([])
    expect(probed.code).toBe(0)
  }, 600_000)

  it('behind one --config of all of them (a client\'s mcpServers, each with its env): every tool of every server listed by NAME__tool, and calls reach their own server with the direct result', async () => {
    const entries = Object.fromEntries(NPM_SERVERS.map((server) => {
      const { command, env } = setUp(server)
      return [server.name, { command: command[0], args: command.slice(1), env }]
    }))
    const file = join(scratch, 'claude_desktop_config.json')
    writeFileSync(file, JSON.stringify({ mcpServers: entries }, null, 2))
    const client = await connect([process.execPath, CLI, 'proxy', '--config', file, '--surface', 'full'], {})
    try {
      const listed = (await client.listTools()).tools.map(tool => tool.name).sort()
      const own = NPM_SERVERS.flatMap(server => (lists.get(server.name) ?? []).map(tool => `${server.name}__${tool.name}`.replace(/[^\w-]/g, '_'))).sort()
      expect(own.length).toBeGreaterThan(250)
      expect(listed).toEqual(own)
      const sum = await client.callTool({ name: 'everything__get-sum', arguments: { a: '2', b: '3.5' } })
      expect(textOf(sum)).toMatch(/5\.5/)
      const thought = await client.callTool({ name: 'sequential-thinking__sequentialthinking', arguments: { thought: 'first', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false } })
      expect(textOf(thought)).toMatch(/thoughtNumber/)
    }
    finally {
      await client.close()
    }
  })

  it('a server that needs its environment to start starts through the proxy given it, and not without', async () => {
    const needing = NPM_SERVERS.filter(s => s.needsEnv)
    expect(needing.length).toBeGreaterThan(0)
    // Given it by --env alone, its own variables emptied: that server's snapshot above, or made here
    // where this test runs without it (alone, or before it), so its verdict never rests on another's.
    const [given, bare] = await Promise.all([
      Promise.all(needing.map((server) => {
        const { command, env } = setUp(server)
        return snapshotRuns.get(server.name) ?? snapshotOf(server, command, env, join(scratch, `${server.name}.given.mcp.json`))
      })),
      Promise.all(needing.map((server) => {
        const { command, env } = setUp(server)
        return runCli(['snapshot', '--out', join(scratch, `${server.name}.bare.mcp.json`), '--', ...command], ROOT, 60_000, undefined, emptied(env))
      })),
    ])
    given.forEach((run, i) => expect(run.code, `${needing[i]!.name}: ${run.stderr}`).toBe(0))
    bare.forEach((run, i) => expect(run.code, needing[i]!.name).toBe(2))
  })

  it('real calls, their arguments broken as models break them (objects and arrays as JSON text, numbers and booleans as strings), give the direct call\'s result, called directly and through the search surface', async () => {
    const cases: { server: string, calls: { name: string, sent: Record<string, unknown>, meant: Record<string, unknown> }[] }[] = [
      {
        server: 'filesystem',
        calls: [
          { name: 'read_text_file', sent: { path: 'notes.txt', head: '2' }, meant: { path: 'notes.txt', head: 2 } },
          { name: 'read_multiple_files', sent: { paths: '["notes.txt","other.txt"]' }, meant: { paths: ['notes.txt', 'other.txt'] } },
          { name: 'edit_file', sent: { path: 'notes.txt', edits: '[{"oldText":"two","newText":"2"}]', dryRun: 'true' }, meant: { path: 'notes.txt', edits: [{ oldText: 'two', newText: '2' }], dryRun: true } },
        ],
      },
      {
        server: 'memory',
        calls: [
          { name: 'create_entities', sent: { entities: '[{"name":"flatmcp","entityType":"project","observations":["flat schemas"]}]' }, meant: { entities: [{ name: 'flatmcp', entityType: 'project', observations: ['flat schemas'] }] } },
          { name: 'search_nodes', sent: { query: 'flat' }, meant: { query: 'flat' } },
        ],
      },
      { server: 'sequential-thinking', calls: [{ name: 'sequentialthinking', sent: { thought: 'first', thoughtNumber: '1', totalThoughts: '2', nextThoughtNeeded: 'true' }, meant: { thought: 'first', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true } }] },
      { server: 'everything', calls: [{ name: 'get-sum', sent: { a: '2', b: '3.5' }, meant: { a: 2, b: 3.5 } }, { name: 'echo', sent: { message: '{"a":1}' }, meant: { message: '{"a":1}' } }] },
    ]
    for (const { server: name, calls } of cases) {
      const server = NPM_SERVERS.find(s => s.name === name)!
      // Two folders alike: the direct server's and the proxied one's (a file each server writes).
      const run = async (through: boolean, surface = false): Promise<unknown[]> => {
        const folder = join(scratch, `${name}-${surface ? 'surface' : through ? 'proxied' : 'direct'}`)
        mkdirSync(folder, { recursive: true })
        writeFileSync(join(folder, 'notes.txt'), 'one\ntwo\nthree\n')
        writeFileSync(join(folder, 'other.txt'), 'other\n')
        const command = server.command(bin, folder)
        const client = await connect(through ? [process.execPath, CLI, 'proxy', ...(surface ? ['--surface', 'search', '--profile', 'openai-strict'] : []), '--', ...command] : command, server.env(folder))
        try {
          const results: unknown[] = []
          for (const call of calls) {
            const args = through ? call.sent : call.meant
            const sent = name === 'filesystem' ? { ...args, path: join(folder, String(args.path ?? '')), ...(args.paths ? { paths: typeof args.paths === 'string' ? JSON.stringify((JSON.parse(args.paths) as string[]).map(p => join(folder, p))) : (args.paths as string[]).map(p => join(folder, p)) } : {}) } : args
            // Through the search surface in a strict profile, the arguments are JSON text, as its call_tool lists them.
            const result = await client.callTool(surface ? { name: 'call_tool', arguments: { name: call.name, arguments: JSON.stringify(sent) } } : { name: call.name, arguments: sent }) as CallToolResult
            expect(result.isError, `${name} ${call.name}: ${JSON.stringify(result.content)}`).not.toBe(true)
            results.push(JSON.parse(JSON.stringify(result.content).replaceAll(folder, '<folder>')))
          }
          return results
        }
        finally {
          await client.close()
        }
      }
      // Each run in a folder of its own, so the three go at once.
      const [direct, proxied, surfaced] = await Promise.all([run(false), run(true), run(true, true)])
      expect(proxied, name).toEqual(direct)
      expect(surfaced, `${name} through the search surface`).toEqual(direct)
    }
    // The memory server wrote where its environment said.
    expect(readFileSync(join(scratch, 'memory-proxied', 'memory.jsonl'), 'utf8')).toContain('"flatmcp"')
  })
})
