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

const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-proxy-many-routing-'))
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
      expect(served.stderr().match(/flatmcp proxy: server "nosy" asked for elicitation\/create outside any call to it; refused/g)).toHaveLength(1)
    }
    finally {
      await served.close()
    }
  })
})
