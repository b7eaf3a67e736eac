// A model endpoint on 127.0.0.1 that speaks the Anthropic Messages, Gemini and OpenAI Responses
// wire formats well enough for a real client to run one scripted turn: it records the tool
// definitions the client sends, answers with one scripted call of a tool, and records the tool's
// result when the client sends it back. Requests that do not offer the tool (titles, summaries,
// routing) get a short text answer.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { appendFileSync } from 'node:fs'
import { createServer } from 'node:http'

/**
 * The call the "model" makes: the first offered tool whose name ends with `tool`, with `args`, `times`
 * times in a row (default once); or, with `steps`, one call per turn in their order (a search, a
 * description, a call), each the next after the client sends the last one's result.
 */
export interface Script {
  tool: string
  args: Record<string, unknown>
  times?: number
  steps?: { tool: string, args: Record<string, unknown> }[]
}

/** What the mock saw. */
export interface Recorded {
  /** Each request's path. */
  paths: string[]
  /** The scripted tool's definition as the client offered it to the model (name, schema, and `strict` where the wire says it). */
  offered: { name: string, schema: unknown, strict?: boolean } | undefined
  /** The tool calls it made (how many times the scripted call was sent). */
  calls: number
  /** The tool results the client sent back, as text. */
  results: string[]
  /** The names of every tool the client offered the model, in its last request that offered any. */
  offeredNames: string[]
}

interface Wire {
  /** The offered tools: name and parameter schema. */
  tools: (body: any) => { name: string, schema: unknown, namespace?: string, strict?: boolean }[]
  /** The tool results in the conversation so far, as text. */
  results: (body: any) => string[]
  /** Writes a tool call, or a text answer. */
  answer: (res: ServerResponse, body: any, reply: { call: { id: string, name: string, namespace?: string, args: Record<string, unknown> } } | { text: string }) => void
}

const text = (value: unknown): string => typeof value === 'string' ? value : JSON.stringify(value)

function sse(res: ServerResponse, events: [string | undefined, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  for (const [event, data] of events)
    res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
  res.end()
}

const anthropic: Wire = {
  tools: body => (body.tools ?? []).filter((t: any) => t.input_schema).map((t: any) => ({ name: t.name, schema: t.input_schema })),
  results: body => (body.messages ?? []).flatMap((m: any) => Array.isArray(m.content) ? m.content : [])
    .filter((part: any) => part.type === 'tool_result')
    .map((part: any) => Array.isArray(part.content) ? part.content.map((c: any) => c.text ?? text(c)).join('') : text(part.content)),
  answer(res, body, reply) {
    const block = 'call' in reply
      ? { type: 'tool_use', id: `toolu_${reply.call.id}`, name: reply.call.name, input: reply.call.args }
      : { type: 'text', text: reply.text }
    const stop = 'call' in reply ? 'tool_use' : 'end_turn'
    const message = { id: 'msg_mock', type: 'message', role: 'assistant', model: body.model ?? 'mock', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 } }
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...message, content: [block], stop_reason: stop }))
      return
    }
    const start = block.type === 'tool_use' ? { ...block, input: {} } : { ...block, text: '' }
    const delta = block.type === 'tool_use' ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } : { type: 'text_delta', text: block.text }
    sse(res, [
      ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } }],
      ['message_stop', { type: 'message_stop' }],
    ])
  },
}

const gemini: Wire = {
  tools: body => (body.tools ?? []).flatMap((t: any) => t.functionDeclarations ?? [])
    .map((f: any) => ({ name: f.name, schema: f.parametersJsonSchema ?? f.parameters })),
  results: body => (body.contents ?? []).flatMap((c: any) => c.parts ?? [])
    .filter((part: any) => part.functionResponse)
    .map((part: any) => text(part.functionResponse.response)),
  answer(res, body, reply) {
    // A side request that asks for JSON (Gemini CLI's model router) gets an empty object.
    const json = /json/.test(body.generationConfig?.responseMimeType ?? '')
    const part = 'call' in reply ? { functionCall: { name: reply.call.name, args: reply.call.args } } : { text: json ? '{}' : reply.text }
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
      modelVersion: 'mock',
    }
    if (body.stream)
      sse(res, [[undefined, chunk]])
    else
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chunk))
  },
}

/** Responses tools: functions, and functions grouped in a namespace (Codex puts each MCP server's tools in one). */
const functionsOf = (tools: any[], namespace?: string): { name: string, schema: unknown, namespace?: string, strict?: boolean }[] => tools.flatMap((t: any) =>
  t.type === 'namespace' ? functionsOf(t.tools ?? [], t.name) : t.type === 'function' ? [{ name: t.name, schema: t.parameters, ...(namespace ? { namespace } : {}), ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}) }] : [])

const responses: Wire = {
  tools: body => functionsOf(body.tools ?? []),
  results: body => (Array.isArray(body.input) ? body.input : [])
    .filter((item: any) => item.type === 'function_call_output')
    .map((item: any) => Array.isArray(item.output) ? item.output.map((o: any) => o.text ?? text(o)).join('') : text(item.output)),
  answer(res, body, reply) {
    const item = 'call' in reply
      ? { type: 'function_call', id: `fc_${reply.call.id}`, call_id: `call_${reply.call.id}`, name: reply.call.name, ...(reply.call.namespace ? { namespace: reply.call.namespace } : {}), arguments: JSON.stringify(reply.call.args), status: 'completed' }
      : { type: 'message', id: 'msg_mock1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }
    const usage = { input_tokens: 10, output_tokens: 10, total_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } }
    const response = { id: 'resp_mock', object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model ?? 'mock', status: 'completed', output: [item], usage }
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response))
      return
    }
    sse(res, [
      ['response.created', { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [] } }],
      ['response.output_item.added', { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item }],
      ['response.output_item.done', { type: 'response.output_item.done', sequence_number: 2, output_index: 0, item }],
      ['response.completed', { type: 'response.completed', sequence_number: 3, response }],
    ])
  },
}

function wireFor(path: string): Wire | undefined {
  if (path.endsWith('/messages'))
    return anthropic
  if (/:(?:stream)?generateContent$/i.test(path))
    return gemini
  if (path.endsWith('/responses'))
    return responses
  return undefined
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = []
  for await (const chunk of req)
    chunks.push(chunk as Buffer)
  const raw = Buffer.concat(chunks).toString('utf8')
  try {
    return raw ? JSON.parse(raw) : {}
  }
  catch {
    return {}
  }
}

/** Starts the mock; `url` is its base (http://127.0.0.1:port). */
export async function startMockModel(script: Script): Promise<{ url: string, recorded: Recorded, close: () => Promise<void> }> {
  const recorded: Recorded = { paths: [], offered: undefined, calls: 0, results: [], offeredNames: [] }
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!
      recorded.paths.push(`${req.method} ${path}`)
      const body = await readBody(req)
      if (process.env.FLATMCP_MOCK_DUMP)
        appendFileSync(process.env.FLATMCP_MOCK_DUMP, `${JSON.stringify({ path, body })}\n`)
      if (path.endsWith(':countTokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }))
        return
      }
      if (path.endsWith('/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 10 }))
        return
      }
      const wire = wireFor(path)
      if (!wire) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `mock model: no route ${path}` } }))
        return
      }
      if (path.includes(':stream'))
        body.stream = true
      const offered = wire.tools(body)
      if (offered.length > 0)
        recorded.offeredNames = offered.map(t => t.name)
      const results = wire.results(body)
      const step = script.steps ? script.steps[results.length] : results.length < (script.times ?? 1) ? script : undefined
      const tool = step && offered.find(t => t.name.endsWith(step.tool))
      if (step && tool) {
        recorded.offered ??= { name: tool.name, schema: tool.schema, ...(tool.strict === undefined ? {} : { strict: tool.strict }) }
        recorded.calls++
        wire.answer(res, body, { call: { id: `mock${results.length + 1}`, name: tool.name, ...(tool.namespace ? { namespace: tool.namespace } : {}), args: step.args } })
        return
      }
      // Every result of the conversation so far, once each (a call made twice has two).
      if (results.length > 0)
        recorded.results = results
      wire.answer(res, body, { text: 'done' })
    })().catch(() => {
      if (!res.headersSent)
        res.writeHead(500).end()
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${address.port}`,
    recorded,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
