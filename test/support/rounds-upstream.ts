// A server on the real SDK 2.x that speaks only MCP 2026-07-28 and asks its client in the rounds of
// its calls (`input_required`), for the proxy's bridge between eras: `tsx test/support/rounds-upstream.ts`.
// `confirm` asks one form and says the answer; `pester` asks a new form every round, for ever; `huge`
// asks a form whose message is 11 MiB, `wide` one of 6 Mi characters that take 12 MiB in UTF-8;
// `bloat` asks a form with a requestState of 11 MiB; `spin` asks nothing but to be called again, for ever; `later` asks as `confirm` does once `ms` have passed, and `wait`
// answers `waited` once they have (two calls in flight at once); `rounds` says how many rounds its calls took so far.
import { acceptedContent, inputRequired, McpServer } from '@modelcontextprotocol/server'
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { z } from 'zod'

const state = { rounds: 0 }
const text = (value: unknown): { content: { type: 'text', text: string }[] } => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] })
const nameForm = { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] }

function makeServer(): McpServer {
  const server = new McpServer({ name: 'rounds-upstream', version: '1.0.0' }, { capabilities: { tools: {} } })
  // A hostile server (ASKS_ANYWAY=1) asks whatever its client offers.
  if (process.env.ASKS_ANYWAY === '1')
    Object.assign(server.server, { _inputRequestCapabilityView: () => ({ elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }) })
  server.registerTool('confirm', { description: 'Asks the user for a name, and says it.', inputSchema: z.object({ question: z.string() }) }, ({ question }, ctx) => {
    state.rounds++
    const answer = (ctx.mcpReq.inputResponses as Record<string, { action?: string, content?: unknown }> | undefined)?.name
    if (answer === undefined)
      return inputRequired({ inputRequests: { name: inputRequired.elicit({ message: question, requestedSchema: nameForm }) } }) as never
    return text({ action: answer.action, content: acceptedContent(ctx.mcpReq.inputResponses, 'name') ?? null })
  })
  server.registerTool('pester', { description: 'Asks again every round, for ever.', inputSchema: z.object({}) }, (_input, ctx) => {
    state.rounds++
    const n = Number(ctx.mcpReq.requestState() ?? 0) + 1
    return inputRequired({ inputRequests: { [`q${n}`]: inputRequired.elicit({ message: `question ${n}`, requestedSchema: nameForm }) }, requestState: String(n) }) as never
  })
  server.registerTool('huge', { description: 'Asks a question of 11 MiB.', inputSchema: z.object({}) }, () => {
    state.rounds++
    return inputRequired({ inputRequests: { big: inputRequired.elicit({ message: 'x'.repeat(11 * 1024 * 1024), requestedSchema: nameForm }) } }) as never
  })
  server.registerTool('wide', { description: 'Asks a question of 6 Mi two-byte characters.', inputSchema: z.object({}) }, () => {
    state.rounds++
    return inputRequired({ inputRequests: { wide: inputRequired.elicit({ message: 'é'.repeat(6 * 1024 * 1024), requestedSchema: nameForm }) } }) as never
  })
  server.registerTool('bloat', { description: 'Asks a question with a round state of 11 MiB.', inputSchema: z.object({}) }, () => {
    state.rounds++
    return inputRequired({ inputRequests: { name: inputRequired.elicit({ message: 'Who?', requestedSchema: nameForm }) }, requestState: 's'.repeat(11 * 1024 * 1024) }) as never
  })
  server.registerTool('spin', { description: 'Asks only to be called again with a new state, for ever.', inputSchema: z.object({}) }, (_input, ctx) => {
    state.rounds++
    return inputRequired({ requestState: String(Number(ctx.mcpReq.requestState() ?? 0) + 1) }) as never
  })
  server.registerTool('later', { description: 'Asks for a name after a pause, and says it.', inputSchema: z.object({ question: z.string(), ms: z.number() }) }, async ({ question, ms }, ctx) => {
    const answer = (ctx.mcpReq.inputResponses as Record<string, { content?: unknown }> | undefined)?.name
    if (answer !== undefined)
      return text(answer.content)
    await new Promise(resolve => setTimeout(resolve, ms))
    return inputRequired({ inputRequests: { name: inputRequired.elicit({ message: question, requestedSchema: nameForm }) } }) as never
  })
  server.registerTool('wait', { description: 'Answers after a pause.', inputSchema: z.object({ ms: z.number() }) }, async ({ ms }) => {
    await new Promise(resolve => setTimeout(resolve, ms))
    return text('waited')
  })
  server.registerTool('rounds', { description: 'How many rounds the asking tools ran.', inputSchema: z.object({}) }, () => text(String(state.rounds)))
  return server
}

serveStdio(() => makeServer(), { legacy: 'reject' })
