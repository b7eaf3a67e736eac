// The demo: builds this example with Vite and unplugin-flatmcp, then talks to the built servers with
// a real MCP SDK 2.x client over stdio: `createMcpServer` on the SDK 2.x (also started to serve the
// gemini profile), then the SDK's own McpServer with a flat() schema. Each lists a flat schema,
// repairs a double-serialized call, explains a wrong one.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { toOriginalSchema } from '@flatmcp/core'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { build } from 'vite'
import { sendMessage } from './src/chat.tools'

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url))
const bold = (text: string): string => process.stdout.isTTY ? `\x1B[1m${text}\x1B[0m` : text
/** JSON on one line, spaced as a person writes it. */
function inline(value: unknown): string {
  if (value === null || typeof value !== 'object')
    return JSON.stringify(value)
  if (Array.isArray(value))
    return `[${value.map(inline).join(', ')}]`
  const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`)
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
}

/** JSON as a reader scans it: what fits in the line stays on one line, the rest is indented. */
function json(value: unknown, indent = ''): string {
  const line = inline(value)
  if (value === null || typeof value !== 'object' || indent.length + line.length <= 90)
    return line
  const inner = `${indent}  `
  const entries = Array.isArray(value)
    ? value.map(item => `${inner}${json(item, inner)}`)
    : Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${json(item, inner)}`)
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}']
  return `${open}\n${entries.join(',\n')}\n${indent}${close}`
}

console.log(bold('── vite build (with unplugin-flatmcp)'))
await build({ root: here('.'), configFile: here('vite.config.ts'), logLevel: 'warn' })
const artifact = JSON.parse(readFileSync(here('dist/vite/src/chat.tools.mcp.json'), 'utf8')) as { hash: string, tools: { name: string }[] }
const flatArtifact = JSON.parse(readFileSync(here('dist/vite/src/flat.tools.mcp.json'), 'utf8')) as { flat: { export: string }[] }
console.log(`dist/vite/server-v2.mjs (SDK 2.x), flat-v2.mjs (SDK 2.x McpServer + flat()), server.mjs (SDK 1.x)`)
console.log(`dist/vite/src/chat.tools.mcp.json: ${artifact.tools.length} tools (${artifact.tools.map(t => t.name).join(', ')}; ${artifact.hash.slice(0, 19)}…)`)
console.log(`dist/vite/src/flat.tools.mcp.json: flat() schemas ${flatArtifact.flat.map(f => f.export).join(', ')}`)

console.log(bold('\n── send_message as zod describes it (oneOf: what many clients reject)'))
const { $schema: _, ...original } = toOriginalSchema(sendMessage.input).schema as Record<string, unknown>
console.log(json(original))

/** A session with a built server: what it lists, then each call and its answer. */
async function session(title: string, server: string, show: string, calls: [string, unknown][], options: { serverArgs?: string[], key?: string } = {}): Promise<void> {
  const { serverArgs = [], key } = options
  console.log(bold(`\n── ${title} (node dist/vite/${[server, ...serverArgs].join(' ')})`))
  const client = new Client({ name: 'flatmcp-demo', version: '0.1.0' })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [here(`dist/vite/${server}`), ...serverArgs], stderr: 'inherit' }))
  const { tools } = await client.listTools()
  const schema = tools.find(t => t.name === show)!.inputSchema
  console.log(`tools/list → ${tools.map(t => t.name).join(', ')}; ${show}'s inputSchema${key === undefined ? '' : ` at "${key}"`}:`)
  console.log(json(key === undefined ? schema : schema.properties?.[key]))
  for (const [name, args] of calls) {
    const result = await client.callTool({ name, arguments: args as Record<string, unknown> })
    const text = (result.content as { text: string }[]).map(c => c.text).join('\n')
    console.log(`\ntools/call ${name} ${JSON.stringify(args)}\n→ ${result.isError ? 'isError: ' : ''}${text}`)
  }
  await client.close()
}

const media = JSON.stringify([{ url: 'https://example.com/a.png' }, { url: 'https://example.com/b.png' }])
await session('createMcpServer on the MCP SDK 2.x, a 2.x client', 'server-v2.mjs', 'send_message', [
  ['send_message', { kind: 'mediaGroup', media }],
  ['send_message', { kind: 'mediaGroup', text: 'hello' }],
  ['update_chat', { chatId: 'c1', action: 'archive' }],
])
// The build made every profile; the operator serves the `gemini` one to every caller by naming it.
// Gemini takes no key of two types: the one that differs, `media`, is sent as JSON text.
await session('the same server started to serve the gemini profile (to every client)', 'server-v2.mjs', 'send_message', [
  ['send_message', { kind: 'mediaGroup', media }],
], { serverArgs: ['gemini'], key: 'media' })
await session('the SDK 2.x McpServer with a flat() input schema', 'flat-v2.mjs', 'send', [
  ['send', { kind: 'mediaGroup', media }],
  ['send', { kind: 'mediaGroup' }],
])
