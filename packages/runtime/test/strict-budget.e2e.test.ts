// An upstream's list in anthropic-strict keeps within the strict grammar budget: seven plain tools
// (anthropic-sdk-typescript #885's refused count) are not all strict, each left out says why, the
// operator's budget is taken, a tool left out is compiled again when the list changes, and a gateway's
// servers share one budget (the client receives one list), and an author's server built with
// anthropic-strict keeps its list within it too.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { JsonSchema } from '@flatmcp/core'
import type { ToolDefinition } from '@flatmcp/runtime'
import { compileUpstreamList, createGateway, createProxy, fallbacksOf, readUpstreamList } from '@flatmcp/runtime/proxy'
import { compileTool, grammarCost } from '@flatmcp/core'
import { attachCompiled, defineTool, toPrecomputed } from '@flatmcp/runtime'
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { serveFetch } from '../../../test/support/serve-fetch'
import { createToolService } from '../src/service/tool-service'

const plain = (name: string): object => ({
  name,
  inputSchema: { type: 'object', properties: { id: { type: 'string' }, fields: { type: 'array', items: { type: 'string' } }, verbose: { type: 'boolean' } }, required: ['id'] },
})
const chosen = { name: 'set_state', inputSchema: { type: 'object', properties: { state: { enum: ['open', 'closed'] }, at: { type: 'string', format: 'date-time' } }, required: ['state', 'at'] } }
const seven = [...['a', 'b', 'c', 'd', 'e', 'f'].map(plain), chosen]

describe('the anthropic-strict budget over an upstream list', () => {
  it('serves strict only what fits the default budget, the rest portable with the reason', async () => {
    const list = await compileUpstreamList(await readUpstreamList(seven, () => {}), { profiles: ['anthropic-strict'] })
    const strict = list.tools.filter(tool => tool.precomputed.profiles!['anthropic-strict']!.strict === true)
    expect(strict.length).toBeLessThan(7)
    expect(strict.reduce((sum, tool) => sum + grammarCost(tool.precomputed.profiles!['anthropic-strict']!.inputSchema).points, 0)).toBeLessThanOrEqual(48)
    // The enum and the format buy more than three plain keys: that tool keeps strict.
    expect(strict.map(tool => tool.name)).toContain('set_state')
    const out = list.tools.find(tool => tool.precomputed.profiles!['anthropic-strict']!.strict === false)!
    expect(out.precomputed.profiles!['anthropic-strict']!.inputSchema).toEqual(out.precomputed.tool.inputSchema)
    expect(out.schemaHash!['anthropic-strict']).toBe(out.schemaHash!.portable)
    expect(fallbacksOf(out).join('\n')).toMatch(/served as portable, not anthropic-strict: over the strict budget: .* of a grammar budget of 48 points/)
  })

  it('takes the operator\'s budget, and compiles a tool left out again when the list or the budget changes, not otherwise', async () => {
    const entries = await readUpstreamList(seven, () => {})
    const wide = await compileUpstreamList(entries, { profiles: ['anthropic-strict'], strictBudget: 500 })
    expect(wide.tools.every(tool => tool.precomputed.profiles!['anthropic-strict']!.strict === true)).toBe(true)
    const tight = await compileUpstreamList(entries, { profiles: ['anthropic-strict'] })
    // The same list within the same budget chooses as it did: every tool taken as it was (a snapshot served as made).
    const again = await compileUpstreamList(entries, { profiles: ['anthropic-strict'], preset: tight.preset, known: [{ preset: tight.preset, tools: tight.tools }] })
    expect(again.tools.every((tool, i) => tool === tight.tools[i])).toBe(true)
    // Within another budget, what was left out is compiled again and fits.
    const wider = await compileUpstreamList(entries, { profiles: ['anthropic-strict'], strictBudget: 500, known: [{ preset: tight.preset, tools: tight.tools }] })
    expect(wider.tools.every(tool => tool.precomputed.profiles!['anthropic-strict']!.strict === true)).toBe(true)
    // Four tools fewer: what the budget left out before fits now.
    const fewer = await compileUpstreamList(entries.slice(4), { profiles: ['anthropic-strict'], known: [{ preset: tight.preset, tools: tight.tools }] })
    expect(fewer.tools.every(tool => tool.precomputed.profiles!['anthropic-strict']!.strict === true)).toBe(true)
  })
})

/** An HTTP server of three plain tools, each within the budget alone, all three too (16 points each, 48 together). */
async function plainServer(name: string): Promise<{ url: string, close: () => void }> {
  return httpServer(name, (server) => {
    for (const tool of ['a', 'b', 'c'])
      server.registerTool(tool, { inputSchema: z.object({ id: z.string(), fields: z.array(z.string()).optional(), verbose: z.boolean().optional() }) }, () => ({ content: [{ type: 'text', text: tool }] }))
  })
}

/** An HTTP server of one tool strictness buys much and that costs the whole default budget: 22 enum keys (48 points). */
async function grabbingServer(name: string): Promise<{ url: string, close: () => void }> {
  const keys = Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`k${i}`, z.enum(['a', 'b', 'c', 'd'])]))
  return httpServer(name, server => server.registerTool('grab', { inputSchema: z.object(keys) }, () => ({ content: [{ type: 'text', text: 'grab' }] })))
}

async function httpServer(name: string, register: (server: McpServer) => void): Promise<{ url: string, close: () => void }> {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name, version: '1' })
    register(server)
    return server
  })
  const http: Server = serveFetch(name, 0, request => handler.fetch(request))
  await new Promise(resolve => http.once('listening', resolve))
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, close: () => http.close() }
}

describe('the anthropic-strict budget over a gateway\'s servers', () => {
  it('holds over the one list the client receives, not per server', async () => {
    const servers = await Promise.all([plainServer('one'), plainServer('two')])
    const gateway = await createGateway(servers.map((server, i) => ({ name: ['one', 'two'][i]!, target: { url: server.url } })), { profile: 'anthropic-strict', log: () => {}, listMs: 5000 })
    try {
      await gateway.ready
      // A server that took longer than the list's wait to come up (a loaded machine) is read once it is.
      await vi.waitFor(() => expect(Object.keys(gateway.snapshot('test').runtime)).toHaveLength(6), { timeout: 30_000 })
      const profiles = Object.values(gateway.snapshot('test').runtime).map(entry => entry.profiles!['anthropic-strict']!)
      expect(profiles).toHaveLength(6)
      const strict = profiles.filter(profile => profile.strict === true)
      // Each server's three tools fit alone (48 points); all six (96) do not: three keep strict.
      expect(grammarCost(strict[0]!.inputSchema).points * 3).toBeLessThanOrEqual(48)
      expect(strict).toHaveLength(3)
      expect(strict.reduce((sum, profile) => sum + grammarCost(profile.inputSchema).points, 0)).toBeLessThanOrEqual(48)
    }
    finally {
      await gateway.close()
      servers.forEach(server => server.close())
    }
  })

  it('keeps each server\'s strict tools within its share beside a server whose one tool costs the whole budget', async () => {
    const servers = await Promise.all([grabbingServer('grabby'), plainServer('one'), plainServer('two')])
    const gateway = await createGateway(servers.map((server, i) => ({ name: ['grabby', 'one', 'two'][i]!, target: { url: server.url } })), { profile: 'anthropic-strict', log: () => {}, listMs: 5000 })
    try {
      await gateway.ready
      // A server that took longer than the list's wait to come up (a loaded machine) is read once it is.
      await vi.waitFor(() => expect(Object.keys(gateway.snapshot('test').runtime)).toHaveLength(7), { timeout: 30_000 })
      const runtime = gateway.snapshot('test').runtime
      const strictOf = (server: string): string[] => Object.entries(runtime).filter(([, entry]) => entry.origin?.server === server && entry.profiles!['anthropic-strict']!.strict === true).map(([name]) => name)
      expect(Object.keys(runtime)).toHaveLength(7)
      const grab = runtime.grabby__grab!.profiles!['anthropic-strict']!
      expect(grammarCost(grab.inputSchema).points).toBeGreaterThanOrEqual(48)
      // Its 22 enums bought it the whole budget before. Shares of 16 points: each plain server keeps one
      // tool (16 points), one more fills what is left by name, and the 48-point tool fits no share nor the rest.
      expect(grab.strict).toBe(false)
      expect(strictOf('grabby')).toEqual([])
      expect(strictOf('one')).toEqual(['one__a', 'one__b'])
      expect(strictOf('two')).toEqual(['two__a'])
    }
    finally {
      await gateway.close()
      servers.forEach(server => server.close())
    }
  })
})

describe('the anthropic-strict budget a snapshot records', () => {
  it('is the one a proxy serving the snapshot chooses within, where it is given none', async () => {
    const server = await plainServer('kb')
    const made = await createProxy({ url: server.url }, { profile: 'anthropic-strict', strictBudget: 35, log: () => {} })
    try {
      await made.ready
      const snapshot = made.snapshot('test')
      expect(snapshot.options.strictBudget).toBe(35)
      const strict = (listed: typeof snapshot): string[] => Object.entries(listed.runtime).filter(([, entry]) => entry.profiles!['anthropic-strict']!.strict === true).map(([name]) => name)
      // Two of the three plain tools (16 points each) fit 35; all three fit the default 48.
      expect(strict(snapshot)).toHaveLength(2)
      const served = await createProxy({ url: server.url }, { profile: 'anthropic-strict', snapshot, log: () => {} })
      try {
        await served.ready
        expect(strict(served.snapshot('test'))).toEqual(strict(snapshot))
        expect(served.snapshot('test')).toEqual(snapshot)
      }
      finally {
        await served.close()
      }
    }
    finally {
      await made.close()
      server.close()
    }
  })
})

describe('the anthropic-strict budget in an author\'s server', () => {
  /** Six plain tools and one worth strictness, each built with anthropic-strict as the plugin builds it. */
  const built = [...['a', 'b', 'c', 'd', 'e', 'f'].map(name => defineTool({ name, input: z.object({ id: z.string(), fields: z.array(z.string()).optional(), verbose: z.boolean().optional() }), handler: ({ id }) => id })), defineTool({ name: 'set_state', input: z.object({ state: z.enum(['open', 'closed']), at: z.iso.datetime() }), handler: ({ state }) => state })]
    .map(tool => attachCompiled(tool, toPrecomputed(compileTool(tool), [compileTool(tool, { profile: 'anthropic-strict' })])))
  const strictOf = (tool: ToolDefinition): JsonSchema => compileTool(tool, { profile: 'anthropic-strict' }).inputSchema

  it('serves strict only what fits, the rest in their base form, and reads a call in the form it listed', async () => {
    const said = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      const service = createToolService(built, { profile: 'anthropic-strict' }, message => new Error(message))
      const { tools } = await service.list('anthropic-strict')
      const strict = tools.filter(tool => JSON.stringify(tool.inputSchema) === JSON.stringify(strictOf(built.find(b => b.name === tool.name)!)))
      expect(strict.length).toBeLessThan(7)
      expect(strict.map(tool => tool.name)).toContain('set_state')
      expect(strict.reduce((sum, tool) => sum + grammarCost(tool.inputSchema).points, 0)).toBeLessThanOrEqual(48)
      const out = tools.find(tool => !strict.includes(tool))!
      expect(out.inputSchema).toEqual(compileTool(built.find(b => b.name === out.name)!).inputSchema)
      expect(said.mock.calls.map(call => String(call[0])).join('\n')).toMatch(new RegExp(`flatmcp: tool "${out.name}" served in its base form, not anthropic-strict: over the strict budget: `))
      // Called as listed (no rest key): read in its base form.
      expect(await service.call(out.name, { id: 'x' }, { signal: new AbortController().signal }, 'anthropic-strict')).toMatchObject({ content: [{ type: 'text', text: 'x' }] })
      // The operator's budget is taken.
      const wide = await createToolService(built, { profile: 'anthropic-strict', strictBudget: 500 }, message => new Error(message)).list('anthropic-strict')
      expect(wide.tools.map(tool => tool.inputSchema)).toEqual(built.map(strictOf))
    }
    finally {
      said.mockRestore()
    }
  })
})
