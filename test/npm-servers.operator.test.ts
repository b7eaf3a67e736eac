// What an operator meets in front of the MCP servers people run (test/support/npm-servers.ts): each
// server's snapshot, its strict profiles as the vendors' own code takes them or said non-strict; the
// probe over all of them; find_tools on tasks phrased before the ranking was seen; one --config of all
// of them; a server that needs its environment; real calls with arguments broken as models break them.
// The snapshots and direct lists are made at once in beforeAll, three servers at a time.
import type { CallToolResult } from '@modelcontextprotocol/client'
import type { NpmServer } from './support/npm-servers'
import type { Tool } from './support/npm-server-runs'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema'
import { toStrictJsonSchema } from 'openai/lib/transform'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { geminiViolations } from '../packages/core/test/target-oracles'
import { toolSearch } from '../packages/runtime/src/search/tool-search'
import { ROOT } from './support/client'
import { atScale } from './support/full'
import { connect, emptied, listDirectly, serverRuns, snapshotOf, textOf } from './support/npm-server-runs'
import { NPM_SERVERS } from './support/npm-servers'
import { CLI, runCli } from './support/proxy'

const runs = serverRuns('flatmcp-npm-operator-')
const { scratch } = runs
afterAll(runs.cleanUp)

/** Each server's own list, its snapshot's file and what making it said. */
const lists = new Map<string, Tool[]>()
const snapshots = new Map<string, { file: string, code: number | null, stderr: string }>()

/** Runs `each` over the servers, `width` at a time. */
async function inTurns(servers: NpmServer[], width: number, each: (server: NpmServer) => Promise<void>): Promise<void> {
  const queue = [...servers]
  await Promise.all(Array.from({ length: width }, async () => {
    for (let server = queue.shift(); server; server = queue.shift())
      await each(server)
  }))
}

beforeAll(async () => {
  runs.install()
  await inTurns(NPM_SERVERS, 3, async (server) => {
    const { command, env } = runs.setUp(server)
    const file = join(scratch, `${server.name}.mcp.json`)
    const [listed, made] = await Promise.all([listDirectly(command, env), snapshotOf(server, command, env, file)])
    lists.set(server.name, listed)
    snapshots.set(server.name, { file, ...made })
  })
}, 900_000)

describe.each(NPM_SERVERS.map(server => [`${server.name} (${server.package}, ${server.kind})`, server] as const))('%s', (_name, server) => {
  it('its snapshot holds every tool: the strict profiles as the vendors\' code takes them or said non-strict, Gemini\'s as it takes them, outputs plain', () => {
    const listed = lists.get(server.name)!
    expect(listed.length).toBeGreaterThan(0)
    const { file, ...made } = snapshots.get(server.name)!
    expect(made.code, made.stderr).toBe(0)
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

// Each check here waits on processes of its own (the probe, a gateway, servers called): they go at once.
describe.concurrent('what an operator meets', () => {
  it('find_tools names the tool a task needs among its first five, for nine tasks in ten or more (test/data/task-phrasings.json, the held-out ones apart)', ({ expect }) => {
    const { tasks } = JSON.parse(readFileSync(join(ROOT, 'test/data/task-phrasings.json'), 'utf8')) as { tasks: { server: string, task: string, tool: string, heldOut: boolean }[] }
    for (const heldOut of [false, true]) {
      const asked = tasks.filter(task => task.heldOut === heldOut)
      expect(asked.length).toBeGreaterThan(20)
      const missed = asked.filter(({ server, task, tool }) => !toolSearch(lists.get(server) as never).search(task, 5).some(found => found.name === tool))
      expect(missed.length / asked.length, JSON.stringify(missed)).toBeLessThanOrEqual(0.1)
    }
  })

  it('the probe finds every snapshot current and sound: inputs and outputs under four validators, each target profile round-tripped', async ({ expect }) => {
    const files = NPM_SERVERS.map(server => snapshots.get(server.name)!.file)
    const probed = await runCli(['probe', ...files, '--samples', String(atScale(4, 100)), '--json'], ROOT, 600_000)
    const report = JSON.parse(probed.stdout) as { ok: boolean, artifacts: { file: string, findings: { severity: string, tool?: string, message: string }[] }[] }
    expect(report.artifacts.flatMap(artifact => artifact.findings.filter(f => f.severity === 'error').map(f => `${artifact.file} ${f.tool}: ${f.message}`))).toEqual([])
    expect(probed.code).toBe(0)
  }, 600_000)

  it('behind one --config of all of them (a client\'s mcpServers, each with its env): every tool of every server listed by NAME__tool, and calls reach their own server with the direct result', async ({ expect }) => {
    const entries = Object.fromEntries(NPM_SERVERS.map((server) => {
      const { command, env } = runs.setUp(server)
      return [server.name, { command: command[0], args: command.slice(1), env }]
    }))
    const file = join(scratch, 'claude_desktop_config.json')
    writeFileSync(file, JSON.stringify({ mcpServers: entries }, null, 2))
    const client = await connect([process.execPath, CLI, 'proxy', '--config', file, '--surface', 'full'], {})
    try {
      const own = NPM_SERVERS.flatMap(server => (lists.get(server.name) ?? []).map(tool => `${server.name}__${tool.name}`.replace(/[^\w-]/g, '_'))).sort()
      expect(own.length).toBeGreaterThan(250)
      // A server slower to start than the first list's wait (this file's probe loads the machine) is
      // listed once it is up, as documented: the list is read until it has come.
      await vi.waitFor(async () => expect((await client.listTools()).tools.map(tool => tool.name).sort()).toEqual(own), { timeout: 60_000, interval: 1000 })
      const sum = await client.callTool({ name: 'everything__get-sum', arguments: { a: '2', b: '3.5' } })
      expect(textOf(sum)).toMatch(/5\.5/)
      const thought = await client.callTool({ name: 'sequential-thinking__sequentialthinking', arguments: { thought: 'first', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false } })
      expect(textOf(thought)).toMatch(/thoughtNumber/)
    }
    finally {
      await client.close()
    }
  })

  it('a server that needs its environment to start starts through the proxy given it, and not without', async ({ expect }) => {
    const needing = NPM_SERVERS.filter(s => s.needsEnv)
    expect(needing.length).toBeGreaterThan(0)
    // Given it by --env alone, its own variables emptied: that server's snapshot made in beforeAll.
    const given = needing.map(server => snapshots.get(server.name)!)
    const bare = await Promise.all(needing.map((server) => {
      const { command, env } = runs.setUp(server)
      return runCli(['snapshot', '--out', join(scratch, `${server.name}.bare.mcp.json`), '--', ...command], ROOT, 60_000, undefined, emptied(env))
    }))
    given.forEach((run, i) => expect(run.code, `${needing[i]!.name}: ${run.stderr}`).toBe(0))
    bare.forEach((run, i) => expect(run.code, needing[i]!.name).toBe(2))
  })

  it('real calls, their arguments broken as models break them (objects and arrays as JSON text, numbers and booleans as strings), give the direct call\'s result, called directly and through the search surface', async ({ expect }) => {
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
        const command = server.command(runs.bin(), folder)
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
