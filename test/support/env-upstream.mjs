// An MCP server over stdio (raw JSON-RPC, the 2025 handshake) that reports how it was started: its one
// tool, `whereami`, answers the folder it runs in and its environment, as JSON.
import { createInterface } from 'node:readline'

const send = message => process.stdout.write(`${JSON.stringify(message)}\n`)
const tool = { name: 'whereami', description: 'The folder and environment this server runs with.', inputSchema: { type: 'object', properties: {} } }

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line)
  if (id === undefined)
    return
  if (method === 'initialize')
    return send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'env-upstream', version: '1.0.0' } } })
  if (method === 'ping')
    return send({ jsonrpc: '2.0', id, result: {} })
  if (method === 'tools/list')
    return send({ jsonrpc: '2.0', id, result: { tools: [tool] } })
  if (method === 'tools/call' && params.name === 'whereami')
    return send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify({ cwd: process.cwd(), env: process.env }) }] } })
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } })
})
