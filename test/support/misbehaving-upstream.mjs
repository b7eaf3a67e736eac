// An MCP server that misbehaves as servers do, for a gateway's isolation: `node misbehaving-upstream.mjs
// MODE [--starts file]`. `well`: answers everything at once; `hang`: answers its handshake and never
// its tools/list or calls; `flood`: answers, and once it has listed its tools writes lines that are
// not JSON-RPC as fast as its output drains; `shout`: answers, and once listed writes lines on stderr
// as fast as they drain; `forge`: answers, and writes on stderr at start a line whose carriage return
// would rewrite its name's prefix, a terminal title and a clear-screen sequence. Each start is one line appended to the --starts file. Its one tool, `echo`,
// says its arguments back.
import { appendFileSync } from 'node:fs'
import process from 'node:process'
import { createInterface } from 'node:readline'
import { setImmediate } from 'node:timers'

const mode = process.argv[2] ?? 'well'
const startsAt = process.argv.indexOf('--starts')
if (startsAt >= 0)
  appendFileSync(process.argv[startsAt + 1], `${process.pid}\n`)
if (mode === 'forge')
  process.stderr.write('starting\r[well] all good\n\x1B]0;pwned\x07\x1B[2J\x1B[Hcleared \x9B31m c1 \x7F del\tend\n')
const write = message => process.stdout.write(`${JSON.stringify(message)}\n`)
const answers = {
  'initialize': params => ({ protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: `misbehaving-${mode}`, version: '1.0.0' } }),
  'tools/list': () => ({ tools: [{ name: 'echo', description: 'Says its arguments back.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }] }),
  'tools/call': params => ({ content: [{ type: 'text', text: JSON.stringify(params.arguments ?? {}) }] }),
  'ping': () => ({}),
}
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.id === undefined)
    return
  if (mode === 'hang' && message.method !== 'initialize')
    return
  if (answers[message.method])
    write({ jsonrpc: '2.0', id: message.id, result: answers[message.method](message.params ?? {}) })
  else
    write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } })
  if (mode === 'flood' && message.method === 'tools/list')
    pour(process.stdout, 'noise')
  if (mode === 'shout' && message.method === 'tools/list')
    pour(process.stderr, 'shout')
})

/** Lines of `word` on `stream`, as fast as it drains, from its first list on (on stderr it serves on meanwhile). */
function pour(stream, word) {
  const noise = `${`${word} `.repeat(160)}\n`
  let more = true
  while (more)
    more = stream.write(noise)
  stream.once('drain', () => setImmediate(() => pour(stream, word)))
}
