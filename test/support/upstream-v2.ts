// An MCP server on the real SDK 2.x (`McpServer`, zod inputs), for what a proxy must pass through and
// stand up to: `tsx test/support/upstream-v2.ts [--http port] [hostile] [revised] [modern-only]`, over stdio by default.
// Its tools: a tagged union, progress, a call that waits to be cancelled, questions to the client
// (sampling, elicitation), logging, a list that grows, the _meta it was called with; a resource and
// a prompt. With `hostile`, tools whose schemas would hold a compiler for minutes, beside a plain one.
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server'
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import { existsSync } from 'node:fs'
import { setTimeout } from 'node:timers'
import { z } from 'zod'
import { serveFetch } from './serve-fetch'

const hostile = process.argv.includes('hostile')
// `revised`: the same server a release later (one tool's description changed), for snapshot drift.
const revised = process.argv.includes('revised')
const httpAt = process.argv.indexOf('--http')
const state = { cancelled: 0 }

/**
 * Unions of objects nested ten deep through references, reached from 64 keys: a few kilobytes of
 * JSON that takes a flattener tens of seconds (each level's keys are merged anew).
 */
function nestedUnions(): object {
  const defs: Record<string, object> = { U10: { type: 'string' } }
  for (let i = 0; i < 10; i++)
    defs[`U${i}`] = { anyOf: [{ type: 'object', properties: { k: { const: 'x' }, p0: { $ref: `#/$defs/U${i + 1}` } } }, { type: 'object', properties: { k: { const: 'y' }, p0: { $ref: `#/$defs/U${i + 1}` }, p1: { $ref: `#/$defs/U${i + 1}` } } }] }
  return { type: 'object', properties: Object.fromEntries(Array.from({ length: 64 }, (_, n) => [`r${n}`, { $ref: '#/$defs/U0' }])), $defs: defs }
}

/** A raw JSON Schema as a Standard Schema the SDK lists as given (its validator takes anything). */
function rawSchema(json: object): object {
  return { '~standard': { version: 1, vendor: 'json-schema', validate: (value: unknown) => ({ value }), jsonSchema: { input: () => json, output: () => json } } }
}

function makeServer(): McpServer {
  const server = new McpServer({ name: 'upstream-v2', version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, logging: {}, resources: {}, prompts: {} } })
  const text = (value: unknown): { content: { type: 'text', text: string }[] } => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] })

  server.registerTool('send', {
    description: 'Send a message or an album.',
    inputSchema: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('message'), text: z.string(), silent: z.boolean().optional() }),
      z.object({ kind: z.literal('album'), urls: z.array(z.string()).min(2), caption: z.string().optional() }),
    ]),
  }, input => text(input))
  server.registerTool('page', { description: revised ? 'A page of results, newest first.' : 'A page of results.', inputSchema: z.object({ query: z.string(), limit: z.number().int().min(1).max(100).optional() }) }, input => text(input))
  server.registerTool('filter', { description: 'Filters results, and says every key it was sent.', inputSchema: z.looseObject({ query: z.string(), debug: z.boolean().optional() }) }, input => text(input))
  server.registerTool('count', { description: 'Counts to n, reporting progress.', inputSchema: z.object({ n: z.number().int().max(50) }) }, async ({ n }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken
    for (let i = 1; i <= n; i++) {
      if (token !== undefined)
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } })
    }
    return text(`counted ${n}`)
  })
  server.registerTool('hold', { description: 'Waits until the call is cancelled (or 30 s).', inputSchema: z.object({}) }, async (_input, ctx) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 30_000)
      ctx.mcpReq.signal.addEventListener('abort', () => {
        clearTimeout(timer)
        state.cancelled++
        resolve()
      })
    })
    return text('held')
  })
  server.registerTool('cancelled', { description: 'How many calls were cancelled.', inputSchema: z.object({}) }, () => text(String(state.cancelled)))
  server.registerTool('ask', { description: 'Asks the client for a sampled message and a form.', inputSchema: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
    const sampled = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 10 })
    const form = await ctx.mcpReq.elicitInput({ message: question, requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } })
    return text({ sampled: sampled.content, form })
  })
  server.registerTool('shout', { description: 'Logs a line to the client.', inputSchema: z.object({ line: z.string() }) }, async ({ line }, ctx) => {
    await ctx.mcpReq.log('warning', line, 'shout')
    return text('shouted')
  })
  server.registerTool('meta', { description: 'Says the _meta it was called with.', inputSchema: z.object({}) }, (_input, ctx) => text(ctx.mcpReq._meta ?? {}))
  const echo = (): void => {
    server.registerTool('echo', { description: 'Says a word back.', inputSchema: z.object({ word: z.string(), times: z.number().int().optional() }) }, ({ word, times }) => text(word.repeat(times ?? 1)))
  }
  if (grown)
    echo()
  server.registerTool('grow', { description: 'Adds a tool (the server says its list changed).', inputSchema: z.object({}) }, () => {
    if (!grown) {
      grown = true
      echo()
    }
    return text('grown')
  })
  server.registerResource('readme', 'upstream://readme', { mimeType: 'text/plain' }, uri => ({ contents: [{ uri: uri.href, text: 'An upstream for the proxy tests.' }] }))
  server.registerPrompt('review', { description: 'Asks for a review.', argsSchema: z.object({ code: z.string() }) }, ({ code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review: ${code}` } }] }))
  if (hostile) {
    server.registerTool('nested', { description: 'Unions nested ten deep.', inputSchema: rawSchema(nestedUnions()) as unknown as z.ZodObject }, () => text('nested'))
    // A pattern that backtracks for ever on a long run of a's with a stop at its end (its own validator takes anything).
    server.registerTool('redos', { description: 'A word of a\'s.', inputSchema: rawSchema({ type: 'object', properties: { word: { type: 'string', pattern: '^(a+)+$' } }, required: ['word'] }) as unknown as z.ZodObject }, () => text('redos'))
    // Over 256 KiB of schema.
    server.registerTool('huge', { description: 'Three thousand keys.', inputSchema: rawSchema({ type: 'object', properties: Object.fromEntries(Array.from({ length: 3000 }, (_, n) => [`key${n}`, { type: 'string', description: 'x'.repeat(80) }])) }) as unknown as z.ZodObject }, () => text('huge'))
    server.registerTool('plain', { description: 'A plain tool beside them.', inputSchema: z.object({ shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), x: z.number() }), z.object({ kind: z.literal('b'), y: z.string() })]) }) }, input => text(input))
  }
  return server
}

let grown = false

// `--gate file`: a server slow to start, serving once the file exists.
const gateAt = process.argv.indexOf('--gate')
while (gateAt >= 0 && !existsSync(process.argv[gateAt + 1]!))
  await new Promise(resolve => setTimeout(resolve, 20))

if (httpAt < 0 && process.argv.includes('modern-only')) {
  serveStdio(() => makeServer(), { legacy: 'reject' })
}
else if (httpAt < 0) {
  await makeServer().connect(new StdioServerTransport())
}
else {
  // Over HTTP: one server per request (stateless, both eras), as the SDK's handler makes them.
  // `modern-only`: a server that speaks only MCP 2026-07-28 (it refuses the 2025 handshake).
  const handler = createMcpHandler(() => makeServer(), process.argv.includes('modern-only') ? { legacy: 'reject' } : {})
  serveFetch('upstream-v2', Number(process.argv[httpAt + 1]), request => handler.fetch(request))
}
