// An MCP server over stdio (raw JSON-RPC, the 2025 handshake) for replicas of one proxy: `whoami`
// answers which replica's server it is (REPLICA in its environment), the number it was sent and the
// `_meta` it was called with. It starts in milliseconds, so a test can run several. With
// HUNG_AFTER_LIST set, it answers nothing once it has listed its tools (a server stuck mid-run);
// with EXIT_AFTER_CALL, it exits once it has answered a call (a server that crashes); TOOL_NAME
// names the tool otherwise (a name some clients refuse); with RESOURCES, it serves resources too, each
// read answered with how many reads it has had; with DELAY_MS, a call is answered that long after
// it came (so calls are in flight when a replica is stopped); with PING_DELAY_MS, a ping is answered
// that long after it came (an upstream slow to answer on a loaded machine).
import { createInterface } from 'node:readline'
import { setTimeout } from 'node:timers'

const name = process.env.TOOL_NAME ?? 'whoami'
const tools = [{
  name,
  description: 'Says which replica answered, the number sent and the call\'s _meta.',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
}]
const send = message => process.stdout.write(`${JSON.stringify(message)}\n`)

let listed = false
let reads = 0
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line)
  if (id === undefined || (listed && process.env.HUNG_AFTER_LIST))
    return
  if (method === 'initialize')
    return send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {}, ...(process.env.RESOURCES ? { resources: {} } : {}) }, serverInfo: { name: 'replica-upstream', version: '1.0.0' } } })
  if (method === 'ping')
    return setTimeout(() => send({ jsonrpc: '2.0', id, result: {} }), Number(process.env.PING_DELAY_MS ?? 0))
  if (method === 'tools/list') {
    listed = true
    return send({ jsonrpc: '2.0', id, result: { tools } })
  }
  if (method === 'resources/read' && process.env.RESOURCES)
    return send({ jsonrpc: '2.0', id, result: { contents: [{ uri: params.uri, text: `read ${++reads}` }] } })
  if (method === 'tools/call' && params.name === name) {
    const answer = { replica: process.env.REPLICA ?? '', n: params.arguments?.n, meta: params._meta ?? {} }
    setTimeout(() => send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(answer) }] } }), Number(process.env.DELAY_MS ?? 0))
    if (process.env.EXIT_AFTER_CALL)
      setTimeout(() => process.exit(0), 50)
    return
  }
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no ${method}` } })
})
