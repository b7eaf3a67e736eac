// Rules of which caller is served which tools: the patterns, deny over allow, the default, a pinned
// view, and a server whose list, search surface and calls keep to them (a denied tool told as a name
// no tool has), as the real MCP SDK 2.x client sees it.
import type { ToolDefinition } from '@flatmcp/runtime'
import type { CallerRules } from '../src/service/caller-rules'
import { defineTool } from '@flatmcp/runtime'
import { createMcpServer } from '@flatmcp/runtime/server'
import { Client } from '@modelcontextprotocol/client'
import { InMemoryTransport } from '@modelcontextprotocol/server'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { checkRules, matchesPattern, ruleFor } from '../src/service/caller-rules'

const TOOLS: ToolDefinition[] = ['github__list_issues', 'github__delete_repo', 'github__add_labels', 'slack__post'].map(name => defineTool({ name, description: `Does ${name.replace(/_/g, ' ')}.`, input: z.object({ id: z.string() }), handler: ({ id }) => `${name} ${id}` }))

async function connected(rules: CallerRules, options: Parameters<typeof createMcpServer>[2] = {}): Promise<Client> {
  const server = createMcpServer(TOOLS, { name: 'ruled', version: '1' }, { rules, ...options })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'probe', version: '1' })
  await client.connect(clientSide)
  return client
}

const refusal = (promise: Promise<unknown>): Promise<{ code: number, message: string }> => promise.then(() => ({ code: 0, message: 'answered' }), (error: { code: number, message: string }) => ({ code: error.code, message: error.message }))

describe('caller rules', () => {
  it('match names by "*" and nothing else', () => {
    expect(matchesPattern('github__*', 'github__list_issues')).toBe(true)
    expect(matchesPattern('*_remove_*', 'github__delete_repo')).toBe(false)
    expect(matchesPattern('*delete*', 'github__delete_repo')).toBe(true)
    expect(matchesPattern('a*b*a', 'aba')).toBe(true)
    expect(matchesPattern('a*a', 'a')).toBe(false)
    expect(matchesPattern('list.*', 'listXy')).toBe(false)
    expect(matchesPattern('slack__post', 'slack__post')).toBe(true)
    expect(matchesPattern('slack__post', 'slack__poster')).toBe(false)
  })

  it('deny wins over allow; a caller with no allow is served what the default says, or its pinned view whatever the default', () => {
    const rules: CallerRules = { default: 'deny', callers: { ci: { allow: ['github__*'], deny: ['*delete*'] }, pinned: { view: 'triage' } } }
    const ci = ruleFor(rules, 'ci')!
    expect(TOOLS.map(tool => tool.name).filter(ci.admits)).toEqual(['github__list_issues', 'github__add_labels'])
    expect(TOOLS.filter(tool => ruleFor(rules, 'stranger')!.admits(tool.name))).toEqual([])
    expect(TOOLS.filter(tool => ruleFor(rules, undefined)!.admits(tool.name))).toEqual([])
    expect(ruleFor(rules, 'pinned')).toMatchObject({ view: 'triage' })
    expect(ruleFor(rules, 'pinned')!.admits('slack__post')).toBe(true)
    // Where the default is to allow, a caller without a row is held to nothing.
    expect(ruleFor({ callers: { ci: { deny: ['slack__*'] } } }, 'other')).toBeUndefined()
  })

  it('a name without "*" that no tool has, and a view the overrides lack, are errors at their JSON paths; a pattern that matches nothing now is a warning', () => {
    const rules: CallerRules = { callers: { ci: { allow: ['github__list_isues', 'gitlab__*'], view: 'tirage' } } }
    expect(checkRules(rules, TOOLS.map(tool => tool.name), ['triage'])).toEqual([
      { path: '.callers["ci"].allow[0]', message: 'no tool served is named "github__list_isues"', fatal: true },
      { path: '.callers["ci"].allow[1]', message: '"gitlab__*" matches no tool served now', fatal: false },
      { path: '.callers["ci"].view', message: 'the overrides name no view "tirage" (their views: triage)', fatal: true },
    ])
  })

  it('a server holds its client (over no HTTP, the caller "stdio") to its rule: listed, searched, described and called alike, a denied tool told as a name no tool has', async () => {
    const client = await connected({ callers: { stdio: { allow: ['github__*'], deny: ['*delete*'] } } })
    expect((await client.listTools()).tools.map(tool => tool.name)).toEqual(['github__list_issues', 'github__add_labels'])
    expect((await client.callTool({ name: 'github__add_labels', arguments: { id: '7' } })).content).toEqual([{ type: 'text', text: 'github__add_labels 7' }])
    const denied = await refusal(client.callTool({ name: 'github__delete_repo', arguments: { id: '7' } }))
    const absent = await refusal(client.callTool({ name: 'github__delete_rope', arguments: { id: '7' } }))
    expect(denied.code).toBe(absent.code)
    expect(denied.message.replace('delete_repo', 'NAME')).toBe(absent.message.replace('delete_rope', 'NAME'))
    expect(denied.message).not.toMatch(/slack|list_issues/)
    const lean = await connected({ callers: { stdio: { deny: ['*delete*', 'slack__*'] } } }, { surface: 'search' })
    const text = async (name: string, args: Record<string, unknown>): Promise<string> => ((await lean.callTool({ name, arguments: args })).content as { text: string }[])[0]!.text
    const found = await text('find_tools', { query: 'delete repo post' })
    expect(found).toContain('github__list_issues')
    expect(found).not.toMatch(/delete_repo|slack__post/)
    expect(await text('describe_tools', { names: ['github__delete_repo'] })).not.toContain('"inputSchema"')
    const called = await lean.callTool({ name: 'call_tool', arguments: { name: 'github__delete_repo', arguments: { id: '1' } } })
    const missing = await lean.callTool({ name: 'call_tool', arguments: { name: 'github__delete_rope', arguments: { id: '1' } } })
    expect(called.isError).toBe(true)
    expect(JSON.stringify(called.content).replace('delete_repo', 'NAME')).toBe(JSON.stringify(missing.content).replace('delete_rope', 'NAME'))
  })

  it('hold a caller whose profile choice fails (throws, or answers past its time): it is served the base profile within its rule, never every tool', async () => {
    const rules: CallerRules = { callers: { stdio: { deny: ['*delete*'] } } }
    const threw = await connected(rules, { profile: () => {
      throw new Error('the operator\'s choice broke')
    } })
    expect((await threw.listTools()).tools.map(tool => tool.name)).not.toContain('github__delete_repo')
    expect((await refusal(threw.callTool({ name: 'github__delete_repo', arguments: { id: '7' } }))).code).not.toBe(0)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const slow = await connected(rules, { profile: () => new Promise<string>(() => {}) })
      const listed = slow.listTools()
      await vi.advanceTimersByTimeAsync(5000)
      expect((await listed).tools.map(tool => tool.name)).toEqual(['github__list_issues', 'github__add_labels', 'slack__post'])
    }
    finally {
      vi.useRealTimers()
    }
  })
})
