// `flatmcp proxy` in front of MCP servers people run, installed from the npm registry at pinned
// versions (test/support/npm-servers.ts): reference servers, vendors' servers, a browser server and
// one in Go, each configured by the environment its README gives it. Each is listed directly and
// through the proxy in every profile (no tool lost, the portable list flat) and behind the search
// surface. Its snapshot, the probe and real calls are test/npm-servers.operator.test.ts's.
// The servers go three at a time (the e2e lane's maxConcurrency): each mostly waits on the four
// processes it starts.
import type { ExpectStatic } from 'vitest'
import type { Tool } from './support/npm-server-runs'
import type { Listening } from './support/proxy'
import { PROFILE_NAMES, withoutSharedDefinitions } from '@flatmcp/core'
import { SURFACE_TOOLS } from '@flatmcp/runtime/proxy'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { portableViolations } from '../packages/core/test/support'
import { ROOT } from './support/client'
import { listDirectly, serverRuns, textOf } from './support/npm-server-runs'
import { NPM_SERVERS } from './support/npm-servers'
import { CLI, httpClient, startListening } from './support/proxy'

// The profiles the proxy serves (`minimal`, a base profile, has no route).
const PROFILES = PROFILE_NAMES.filter(name => name !== 'minimal')
const runs = serverRuns('flatmcp-npm-servers-')
afterAll(runs.cleanUp)
beforeAll(runs.install, 600_000)

/**
 * The same server behind `--surface search` (and an --always-load that names no tool: it lists
 * nothing more, and is said): three tools listed in every profile; every tool
 * described as the full list shows it, its shared shapes written out; found first by its own name, and in the first five
 * by the opening words of its description for nine tools in ten or more.
 */
async function searchSurfaceHolds(proxy: Listening, full: Map<string, Tool[]>, expect: ExpectStatic): Promise<void> {
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

describe.concurrent.each(NPM_SERVERS.map(server => [`${server.name} (${server.package}, ${server.kind})`, server] as const))('%s', (_name, server) => {
  it('through the proxy every tool is listed, in every profile, portable flat; behind the search surface each described and found', async ({ expect }) => {
    const { command, env } = runs.setUp(server)
    // The direct list and the two proxies each start the server on their own: they start at once,
    // and each is checked once the ones it is compared with are in.
    const surfaced = startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--surface', 'search', '--always-load', 'no_such_tool', '--', ...command], ROOT, env)
    // The environment a client's config gives reaches the server through the proxy's own.
    const proxied = startListening(process.execPath, [CLI, 'proxy', '--http', '0', '--', ...command], ROOT, env)
    // A proxy that fails to start fails the test where it is awaited, not before as an unhandled rejection.
    for (const started of [proxied, surfaced])
      started.catch(() => undefined)
    try {
      const listed = await listDirectly(command, env)
      expect(listed.length).toBeGreaterThan(0)
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
      await searchSurfaceHolds(await surfaced, full, expect)
    }
    finally {
      // Whatever failed first, no proxy outlives the test.
      await Promise.all([proxied, surfaced].map(async started => (await started.catch(() => undefined))?.close()))
    }
  })
})
