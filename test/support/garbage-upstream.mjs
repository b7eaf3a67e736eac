// An MCP server over stdio that answers with garbage, for the proxy's fault tests: `node
// garbage-upstream.mjs`. It speaks the 2025 handshake, then lists one good tool among malformed
// ones (no name, a string schema, an array schema, a bad `properties`, a duplicate), prints a line
// that is not JSON, answers `bad_result` with something no client would take, and `good` properly.
import { createInterface } from 'node:readline'

const send = message => process.stdout.write(`${JSON.stringify(message)}\n`)
const good = { name: 'good', description: 'A proper tool.', inputSchema: { type: 'object', properties: { shape: { oneOf: [{ type: 'object', properties: { kind: { const: 'a' }, x: { type: 'number' } }, required: ['kind'] }, { type: 'object', properties: { kind: { const: 'b' }, y: { type: 'string' } }, required: ['kind'] }] } }, required: ['shape'] } }

createInterface({ input: process.stdin }).on('line', (line) => {
  let message
  try {
    message = JSON.parse(line)
  }
  catch {
    return
  }
  const { id, method, params } = message
  if (id === undefined)
    return
  if (method === 'initialize')
    return send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'garbage', version: '0' } } })
  if (method === 'tools/list') {
    process.stdout.write('this line is not JSON\n')
    return send({ jsonrpc: '2.0', id, result: { tools: [
      { description: 'no name', inputSchema: { type: 'object' } },
      { name: 'string_schema', inputSchema: 'object' },
      { name: 'array_schema', inputSchema: { type: 'array' } },
      { name: 'bad_properties', inputSchema: { type: 'object', properties: 5 } },
      good,
      { ...good, description: 'A second tool of the same name.' },
      { name: 'bad_result', inputSchema: { type: 'object' } },
      42,
    ] } })
  }
  if (method === 'tools/call' && params?.name === 'bad_result')
    return send({ jsonrpc: '2.0', id, result: { content: 'not a list', isError: 'yes' } })
  if (method === 'tools/call' && params?.name === 'good')
    return send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(params.arguments) }] } })
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } })
})
