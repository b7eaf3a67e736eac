// An MCP server over stdio (raw JSON-RPC, the 2025 handshake) whose tools and prompts are only names:
// TOOLS (a JSON array) names its tools, duplicates and all; LABEL says which server answered a call;
// GATE names a file whose coming holds its handshake back (a server still starting). A call to `relist` switches its
// list to TOOLS_AFTER and says the list changed (a list that turns bad at run time).
import { existsSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { setTimeout } from 'node:timers'

let names = JSON.parse(process.env.TOOLS ?? '["whoami"]')
const label = process.env.LABEL ?? ''
const send = message => process.stdout.write(`${JSON.stringify(message)}\n`)
const tool = name => ({ name, description: `Tool ${name}.`, inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } })

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line)
  if (id === undefined)
    return
  if (method === 'initialize') {
    const answer = () => send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: { listChanged: true }, prompts: {} }, serverInfo: { name: `named-${label}`, version: '1.0.0' } } })
    const opened = () => process.env.GATE === undefined || existsSync(process.env.GATE) ? answer() : setTimeout(opened, 20)
    return opened()
  }
  if (method === 'ping')
    return send({ jsonrpc: '2.0', id, result: {} })
  if (method === 'tools/list')
    return send({ jsonrpc: '2.0', id, result: { tools: names.map(tool) } })
  if (method === 'prompts/list')
    return send({ jsonrpc: '2.0', id, result: { prompts: names.map(name => ({ name })) } })
  if (method === 'prompts/get')
    return send({ jsonrpc: '2.0', id, result: { messages: [{ role: 'user', content: { type: 'text', text: `${label}:${params.name}` } }] } })
  if (method === 'tools/call' && params.name === 'relist' && names.includes('relist')) {
    names = JSON.parse(process.env.TOOLS_AFTER ?? '[]')
    send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'relisted' }] } })
    return send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
  }
  if (method === 'tools/call' && names.includes(params.name))
    return send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `${label}:${params.name}` }] } })
  send({ jsonrpc: '2.0', id, error: { code: -32602, message: `no tool ${params?.name}` } })
})
