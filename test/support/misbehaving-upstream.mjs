// An MCP server that misbehaves as servers do, for a gateway's isolation: `node misbehaving-upstream.mjs
// MODE [--starts file]`. `well`: answers everything at once; `hang`: answers its handshake and never
// its tools/list or calls; `flood`: answers, and once it has listed its tools writes lines that are
// not JSON-RPC as fast as its output drains; `shout`: answers, and once listed writes lines on stderr
// as fast as they drain; `forge`: answers, and writes on stderr at start a line whose carriage return
// would rewrite its name's prefix, a terminal title and a clear-screen sequence; `stall`: lists its
// tools and never answers a call; `crash`: lists, and exits at its first call; `chatter`: answers, and
// from its first call on writes valid notifications (log messages) as fast as its output drains, or
// `--count N` of them and then `poured N` on stderr; `deep`: answers a call with `structuredContent`
// nested `--depth N` (default 20,000) arrays deep, and with `--list` lists besides `echo` a tool whose
// schema nests as many objects deep; `many`: lists besides `echo` `--count N` tools more. Each start is one line appended to the --starts
// file. Its one tool, `echo`, says its arguments back.
import { appendFileSync } from 'node:fs'
import process from 'node:process'
import { createInterface } from 'node:readline'
import { setImmediate } from 'node:timers'

const mode = process.argv[2] ?? 'well'
const option = name => process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined
const startsAt = process.argv.indexOf('--starts')
if (startsAt >= 0)
  appendFileSync(process.argv[startsAt + 1], `${process.pid}\n`)
if (mode === 'forge')
  process.stderr.write('starting\r[well] all good\n\x1B]0;pwned\x07\x1B[2J\x1B[Hcleared \x9B31m c1 \x7F del\tend\n')
const write = message => process.stdout.write(`${JSON.stringify(message)}\n`)
const answers = {
  'initialize': params => ({ protocolVersion: params.protocolVersion, capabilities: { tools: {}, logging: {} }, serverInfo: { name: `misbehaving-${mode}`, version: '1.0.0' } }),
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
  if (mode === 'stall' && message.method === 'tools/call')
    return
  if (mode === 'crash' && message.method === 'tools/call')
    process.exit(1)
  if (mode === 'deep' && (message.method === 'tools/call' || (message.method === 'tools/list' && process.argv.includes('--list'))))
    return void process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${deepResult(message.method)}}\n`)
  if (mode === 'many' && message.method === 'tools/list') {
    const more = Array.from({ length: Number(option('--count')) }, (_, i) => ({ name: `tool${i}`, inputSchema: { type: 'object' } }))
    return write({ jsonrpc: '2.0', id: message.id, result: { tools: [...answers['tools/list']().tools, ...more] } })
  }
  if (answers[message.method])
    write({ jsonrpc: '2.0', id: message.id, result: answers[message.method](message.params ?? {}) })
  else
    write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } })
  if (mode === 'flood' && message.method === 'tools/list')
    pour(process.stdout, 'noise')
  if (mode === 'shout' && message.method === 'tools/list')
    pour(process.stderr, 'shout')
  if (mode === 'chatter' && message.method === 'tools/call' && !chattering) {
    chattering = true
    chatter(Number(option('--count') ?? Infinity))
  }
})

/** A list or a call's answer nested `--depth` deep, written as text (JSON.stringify would run out of stack). */
function deepResult(method) {
  const depth = Number(option('--depth') ?? 20000)
  if (method === 'tools/call')
    return `{"content":[{"type":"text","text":"deep"}],"structuredContent":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`
  const echo = JSON.stringify(answers['tools/list']().tools[0])
  return `{"tools":[${echo},{"name":"deep","inputSchema":{"type":"object","properties":{"a":${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}}}}]}`
}

let chattering = false
/** Log notifications, `left` more of them, as fast as stdout drains; `poured N` on stderr once the last is read. */
function chatter(left, poured = 0) {
  let more = true
  while (more && left > 0) {
    more = process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'chatter', data: `line ${poured}` } })}\n`)
    left--
    poured++
  }
  if (left > 0)
    process.stdout.once('drain', () => setImmediate(() => chatter(left, poured)))
  else if (more)
    process.stderr.write(`poured ${poured}\n`)
  else
    process.stdout.once('drain', () => process.stderr.write(`poured ${poured}\n`))
}

/** Lines of `word` on `stream`, as fast as it drains, from its first list on (on stderr it serves on meanwhile). */
function pour(stream, word) {
  // Its reader gone (the proxy ended it), it ends quietly: a write's EPIPE said on stderr, which the
  // proxy passes on, would read as the proxy's own unhandled error.
  if (stream.listenerCount('error') === 0)
    stream.on('error', () => process.exit(0))
  const noise = `${`${word} `.repeat(160)}\n`
  let more = true
  while (more)
    more = stream.write(noise)
  stream.once('drain', () => setImmediate(() => pour(stream, word)))
}
