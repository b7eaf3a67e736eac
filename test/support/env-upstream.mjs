// An MCP server over stdio (raw JSON-RPC, the 2025 handshake) that reports how it was started: its
// tool `whereami` answers the folder it runs in and its environment, as JSON; `variable` answers the
// folder and whether one variable is set, with its value's SHA-256 (not the value: a log may show it).
import { createHash } from 'node:crypto'
import { createInterface } from 'node:readline'

const send = message => process.stdout.write(`${JSON.stringify(message)}\n`)
const tools = [
  { name: 'whereami', description: 'The folder and environment this server runs with.', inputSchema: { type: 'object', properties: {} } },
  { name: 'variable', description: 'The folder this server runs in and whether a variable is set in its environment.', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
]

function variable(name) {
  const value = process.env[name]
  return { cwd: process.cwd(), name, set: value !== undefined, sha256: value === undefined ? null : createHash('sha256').update(value).digest('hex') }
}

const answers = {
  whereami: () => ({ cwd: process.cwd(), env: process.env }),
  variable: args => variable(args?.name),
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line)
  if (id === undefined)
    return
  if (method === 'initialize')
    return send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'env-upstream', version: '1.0.0' } } })
  if (method === 'ping')
    return send({ jsonrpc: '2.0', id, result: {} })
  if (method === 'tools/list')
    return send({ jsonrpc: '2.0', id, result: { tools } })
  if (method === 'tools/call' && Object.hasOwn(answers, params.name))
    return send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(answers[params.name](params.arguments)) }] } })
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } })
})
