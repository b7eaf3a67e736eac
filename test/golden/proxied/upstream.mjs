// A fixed upstream for the golden proxied list: an MCP server over stdio (raw JSON-RPC, the 2025
// handshake) that lists the tools of tools.json beside it and answers nothing else. `flatmcp snapshot`
// compiles it into expected/upstream.mcp.json, which is checked in.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const tools = JSON.parse(readFileSync(new URL('./tools.json', import.meta.url), 'utf8'))
const send = message => process.stdout.write(`${JSON.stringify(message)}\n`)

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line)
  if (id === undefined)
    return
  if (method === 'initialize')
    return send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'golden-upstream', version: '1.0.0' } } })
  if (method === 'tools/list')
    return send({ jsonrpc: '2.0', id, result: { tools } })
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } })
})
