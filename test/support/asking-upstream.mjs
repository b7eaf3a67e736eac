// An MCP server (2025 handshake, JSON-RPC over stdio) for a gateway's questions and resources:
// `node asking-upstream.mjs MODE [--scheme S] [--template T]... [--record FILE]`. Every mode lists the
// resource `S://readme`, the template `S://notes/{id}` (and each --template), the prompt `greet`, and
// the tool `echo`, and reads and gets them saying its scheme. `plain` does no more. `nosy`: once initialized, asks its
// client a form and a sampled message, one after the other for ever, whether or not a call of its
// own is in flight, each outcome a line of --record. `calm`: its `echo` answers once --record has
// two more lines than when the call came (the nosy server asked twice meanwhile), or after 20 s.
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import process from 'node:process'
import { createInterface } from 'node:readline'
import { setTimeout } from 'node:timers'

const mode = process.argv[2] ?? 'calm'
const option = name => process.argv.flatMap((arg, i) => arg === name ? [process.argv[i + 1]] : [])
const scheme = option('--scheme')[0] ?? mode
const record = option('--record')[0]
const templates = [`${scheme}://notes/{id}`, ...option('--template')]
const write = message => process.stdout.write(`${JSON.stringify(message)}\n`)
const recorded = () => record && existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean).length : 0
const text = value => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] })

/** What an expression of a template takes, loosely: `{+var}` anything, `{?var}` a query, any other no slash. */
const taken = expression => expression.startsWith('{+') ? '.*' : expression.startsWith('{?') ? '(?:\\?.*)?' : '[^/]*'
/** Whether `uri` is one this server holds: its readme, or one a template of its own makes. */
const holds = uri => uri === `${scheme}://readme` || templates.some(template => new RegExp(`^${template.split(/(\{[^}]*\})/).map((part, i) => i % 2 ? taken(part) : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('')}$`).test(uri))

async function echo(args) {
  if (mode !== 'calm')
    return text(args)
  const start = recorded()
  const until = Date.now() + 20_000
  while (recorded() < start + 2 && Date.now() < until)
    await new Promise(resolve => setTimeout(resolve, 20))
  return text(args)
}

const answers = {
  'initialize': params => ({ protocolVersion: params.protocolVersion, capabilities: { tools: {}, resources: {}, prompts: {} }, serverInfo: { name: `asking-${mode}`, version: '1.0.0' } }),
  'tools/list': () => ({ tools: [{ name: 'echo', description: 'Says its arguments back.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }] }),
  'tools/call': params => echo(params.arguments ?? {}),
  'resources/list': () => ({ resources: [{ uri: `${scheme}://readme`, name: 'readme' }] }),
  'resources/templates/list': () => ({ resourceTemplates: templates.map((uriTemplate, i) => ({ uriTemplate, name: `template${i}` })) }),
  'resources/read': params => holds(params.uri) ? { contents: [{ uri: params.uri, text: `${scheme} read ${params.uri}` }] } : { error: { code: -32002, message: `Resource ${params.uri} not found` } },
  'prompts/list': () => ({ prompts: [{ name: 'greet', description: 'Greets.' }] }),
  'prompts/get': () => ({ messages: [{ role: 'user', content: { type: 'text', text: `${scheme} greets` } }] }),
  'ping': () => ({}),
}

/** The questions the nosy server asks, in turn. */
const QUESTIONS = [
  { method: 'elicitation/create', params: { message: `${mode}: your password, please`, requestedSchema: { type: 'object', properties: { password: { type: 'string' } } } } },
  { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: `${mode}: say yes` } }], maxTokens: 5 } },
]
const pending = new Map()
let asked = 0
function ask() {
  const id = `nosy-${asked}`
  pending.set(id, outcome => {
    appendFileSync(record, `${JSON.stringify(outcome)}\n`)
    setTimeout(ask, 20)
  })
  write({ jsonrpc: '2.0', id, ...QUESTIONS[asked++ % QUESTIONS.length] })
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const message = JSON.parse(line)
  if (message.method === undefined && pending.has(message.id)) {
    pending.get(message.id)(message.error ? { error: message.error.message } : { answered: message.result })
    pending.delete(message.id)
    return
  }
  if (message.method === 'notifications/initialized' && mode === 'nosy')
    ask()
  if (message.id === undefined || message.method === undefined)
    return
  const answer = answers[message.method] ? await answers[message.method](message.params ?? {}) : { error: { code: -32601, message: 'Method not found' } }
  write({ jsonrpc: '2.0', id: message.id, ...(answer.error ? { error: answer.error } : { result: answer }) })
})
