// An MCP server as some are written: it does not exit when its input ends, and it started a process
// of its own (as npx starts the server it runs). The proxy in front of it must end both. Its one
// tool is called by the first argument, or `pids`.
import { spawn } from 'node:child_process'
import process from 'node:process'
import { createInterface } from 'node:readline'
import { setInterval } from 'node:timers'

const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
setInterval(() => {}, 1000)
const write = message => process.stdout.write(`${JSON.stringify(message)}\n`)
const answers = {
  'initialize': params => ({ protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'lingering', version: '1.0.0' } }),
  'tools/list': () => ({ tools: [{ name: process.argv[2] ?? 'pids', description: 'Says its process id and its helper\'s.', inputSchema: { type: 'object', properties: {} } }] }),
  'tools/call': () => ({ content: [{ type: 'text', text: JSON.stringify({ server: process.pid, helper: helper.pid }) }] }),
}
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.id !== undefined && answers[message.method])
    write({ jsonrpc: '2.0', id: message.id, result: answers[message.method](message.params ?? {}) })
  else if (message.id !== undefined)
    write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } })
})
