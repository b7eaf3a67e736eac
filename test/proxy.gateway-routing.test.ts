// Behind one `flatmcp proxy --config`, each request a member sends or a client sends reaches only whom
// it belongs to: a member's question (a form, a sampled message) is asked only within a call that
// went to that member, in either protocol era, and one asked outside its calls is refused and said; a
// resource's URI (listed, or made by a member's template) and a prompt go to the member that holds
// them, listed or not, and a URI two members' templates make is said, not sent to either.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'
import { CLI, UPSTREAM_V2 } from './support/proxy'

type Era = 'legacy' | 'modern'

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-proxy-gateway-routing-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const ASKING = join(ROOT, 'test/support/asking-upstream.mjs')
const asking = (...args: string[]): Record<string, unknown> => ({ command: process.execPath, args: [ASKING, ...args] })
const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text

function configFile(name: string, servers: Record<string, unknown>): string {
  const file = join(scratch, name)
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2))
  return file
}

interface Gateway { client: Client, asked: string[], stderr: () => string, close: () => Promise<void> }

/** A real SDK 2.x client of the era, that answers forms and sampling (each question it is asked recorded), in front of `flatmcp proxy --config file`. */
async function gateway(file: string, era: Era): Promise<Gateway> {
  const client = new Client({ name: 'flatmcp-test', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} }, versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } })
  const asked: string[] = []
  const c = client as unknown as { setRequestHandler: (method: string, handler: (request: { params: Record<string, unknown> }) => unknown) => void }
  c.setRequestHandler('elicitation/create', (request) => {
    asked.push(`form: ${String(request.params.message)}`)
    return { action: 'accept', content: { name: 'Ada' } }
  })
  c.setRequestHandler('sampling/createMessage', (request) => {
    asked.push(`sampling: ${(request.params.messages as { content: { text: string } }[])[0]!.content.text}`)
    return { role: 'assistant', content: { type: 'text', text: 'yes' }, model: 'mock' }
  })
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--config', file, '--surface', 'full'], cwd: ROOT, stderr: 'pipe' })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  await client.connect(transport)
  return { client, asked, stderr: () => stderr, close: () => client.close() }
}

describe('flatmcp proxy --config: a member\'s questions', () => {
  it.each(['legacy', 'modern'] as const)('in the %s era, a member\'s questions are asked within its own calls only; one that asks outside them is refused, told why, and said once', async (era) => {
    const record = join(scratch, `nosy-${era}`)
    writeFileSync(record, '')
    const file = configFile(`questions-${era}.json`, {
      calm: asking('calm', '--record', record),
      nosy: asking('nosy', '--record', record),
      chat: { command: UPSTREAM_V2[0], args: UPSTREAM_V2.slice(1) },
    })
    const served = await gateway(file, era)
    try {
      // calm's call waits until the nosy member has asked twice meanwhile; chat's asks in its own call.
      const [calm, chat] = await Promise.all([
        served.client.callTool({ name: 'calm__echo', arguments: { text: 'hi' } }),
        served.client.callTool({ name: 'chat__ask', arguments: { question: 'who are you?' } }),
      ])
      expect(textOf(calm)).toBe('{"text":"hi"}')
      expect(JSON.parse(textOf(chat))).toEqual({ sampled: { type: 'text', text: 'yes' }, form: { action: 'accept', content: { name: 'Ada' } } })
      expect(served.asked).toEqual(['sampling: who are you?', 'form: who are you?'])
      const outcomes = readFileSync(record, 'utf8').trim().split('\n').map(line => JSON.parse(line) as { error?: string })
      expect(outcomes.length).toBeGreaterThanOrEqual(2)
      for (const outcome of outcomes)
        expect(outcome.error).toMatch(/^the server "nosy" asked for (elicitation\/create|sampling\/createMessage) outside any call to it: a server behind this proxy is asked nothing but within its own calls$/)
      await expect.poll(() => served.stderr().match(/flatmcp proxy: server "nosy" asked for elicitation\/create outside any call to it; refused/g)).toHaveLength(1)
    }
    finally {
      await served.close()
    }
  })
})

describe('flatmcp proxy --config: resources and prompts', () => {
  it.each(['legacy', 'modern'] as const)('in the %s era, a URI a member\'s template makes is read from it, listed or not; a prompt is got before any list; a URI two members\' templates make is said, not routed', async (era) => {
    const file = configFile(`resources-${era}.json`, {
      notes: asking('plain', '--scheme', 'notes', '--template', 'shared://{+path}'),
      wiki: asking('plain', '--scheme', 'wiki', '--template', 'shared://{page}', '--template', 'wiki://search{?q,limit}'),
    })
    const served = await gateway(file, era)
    const read = async (uri: string): Promise<string> => ((await served.client.readResource({ uri })).contents[0] as { text: string }).text
    try {
      // Nothing listed yet: each read and get finds its member by the members' lists, read then.
      expect(await read('wiki://notes/7')).toBe('wiki read wiki://notes/7')
      expect(await read('notes://readme')).toBe('notes read notes://readme')
      expect(((await served.client.getPrompt({ name: 'wiki__greet' })).messages[0]!.content as { text: string }).text).toBe('wiki greets')
      expect(await read('wiki://search?q=mcp&limit=3')).toBe('wiki read wiki://search?q=mcp&limit=3')
      expect(await read('shared://deep/path')).toBe('notes read shared://deep/path')
      expect((await served.client.listResourceTemplates()).resourceTemplates.map(template => template.uriTemplate).sort()).toEqual(['notes://notes/{id}', 'shared://{+path}', 'shared://{page}', 'wiki://notes/{id}', 'wiki://search{?q,limit}'])
      expect(await read('notes://notes/8')).toBe('notes read notes://notes/8')
      // Both templates make it: neither is chosen by order.
      await expect(read('shared://front')).rejects.toThrow('the templates of servers "notes" (shared://{+path}) and "wiki" (shared://{page}) both make "shared://front": it is read from neither')
      await expect.poll(served.stderr).toContain('flatmcp proxy: the templates of servers "notes" (shared://{+path}) and "wiki" (shared://{page}) both make "shared://front": it is read from neither')
      await expect(read('nowhere://x')).rejects.toThrow('no server behind this proxy lists "nowhere://x"')
    }
    finally {
      await served.close()
    }
  })

  it('a URI two members list is listed by neither and read from neither, said; the gateway names itself flatmcp, at flatmcp\'s version', async () => {
    const file = configFile('twice.json', { one: asking('plain', '--scheme', 'shared'), two: asking('plain', '--scheme', 'shared'), own: asking('plain', '--scheme', 'own') })
    const served = await gateway(file, 'legacy')
    try {
      const version = (JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string }).version
      expect(served.client.getServerVersion()).toMatchObject({ name: 'flatmcp', version })
      await expect.poll(async () => (await served.client.listResources()).resources.map(resource => resource.uri), { timeout: 30_000 }).toEqual(['own://readme'])
      await expect(served.client.readResource({ uri: 'shared://readme' })).rejects.toThrow('both list resource "shared://readme": it is read from neither')
      expect(served.stderr()).toContain('flatmcp proxy: servers "one" and "two" both list resource "shared://readme": it is read from neither')
    }
    finally {
      await served.close()
    }
  })
})
