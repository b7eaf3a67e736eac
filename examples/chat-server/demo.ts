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

/** JSON as a reader scans it: what fits in `width` (after `lead`, its key) stays on one line, the rest is indented. */
function json(value: unknown, indent = '', width = 90, lead = 0): string {
  const line = inline(value)
  if (value === null || typeof value !== 'object' || indent.length + lead + line.length <= width)
    return line
  const inner = `${indent}  `
  const entries = Array.isArray(value)
    ? value.map(item => `${inner}${json(item, inner, width)}`)
    : Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${json(item, inner, width, key.length + 4)}`)
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}']
  return `${open}\n${entries.join(',\n')}\n${indent}${close}`
}

console.log(bold('── vite build (with unplugin-flatmcp)'))
await build({ root: here('.'), configFile: here('vite.config.ts'), logLevel: 'warn' })
const artifact = JSON.parse(readFileSync(here('dist/vite/src/chat.tools.mcp.json'), 'utf8')) as { hash: string, tools: { name: string, inputSchema: unknown }[] }
const flatArtifact = JSON.parse(readFileSync(here('dist/vite/src/flat.tools.mcp.json'), 'utf8')) as { flat: { export: string }[] }
console.log(`dist/vite/server-v2.mjs (SDK 2.x), flat-v2.mjs (SDK 2.x McpServer + flat()), server.mjs (SDK 1.x)`)
console.log(`dist/vite/src/chat.tools.mcp.json: ${artifact.tools.length} tools (${artifact.tools.map(t => t.name).join(', ')}; ${artifact.hash.slice(0, 19)}…)`)
console.log(`dist/vite/src/flat.tools.mcp.json: flat() schemas ${flatArtifact.flat.map(f => f.export).join(', ')}`)

/** A line cut to a column's width. */
const fitted = (line: string, width: number): string => line.length > width ? `${line.slice(0, width - 1)}…` : line

// Before and after on the first screen: beside each other where the terminal is wide enough.
const { $schema: _, ...original } = toOriginalSchema(sendMessage.input).schema as Record<string, unknown>
const flat = artifact.tools.find(tool => tool.name === 'send_message')!.inputSchema
const columns = process.stdout.columns || 160
const before = 'before: zod\'s JSON Schema (oneOf: many clients reject it)'
const after = 'after: what flatmcp lists (one flat object, every value the original takes)'
if (columns >= 110) {
  // The original's lines are short: it takes what it needs, and the flat schema's descriptions the rest.
  const left = [before, ...json(original, '', Math.floor(columns * 0.4)).split('\n')]
  const column = Math.max(...left.map(line => line.length))
  const right = [after, ...json(flat, '', columns - column - 3).split('\n')]
  console.log(bold('\n── send_message, before and after'))
  for (let i = 0; i < Math.max(left.length, right.length); i++)
    console.log(`${(left[i] ?? '').padEnd(column)} │ ${fitted(right[i] ?? '', columns - column - 3)}`.trimEnd())
}
else {
  console.log(bold(`\n── ${before}`), `\n${json(original)}`, bold(`\n\n── ${after}`), `\n${json(flat)}`)
}

/** A session with a built server: what it lists, then each call and its answer. */
async function session(title: string, server: string, show: string, calls: [string, unknown][], options: { serverArgs?: string[], key?: string, shown?: unknown } = {}): Promise<void> {
  const { serverArgs = [], key, shown } = options
  console.log(bold(`\n── ${title} (node dist/vite/${[server, ...serverArgs].join(' ')})`))
  const client = new Client({ name: 'flatmcp-demo', version: '0.1.0' })
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [here(`dist/vite/${server}`), ...serverArgs], stderr: 'inherit' }))
  const { tools } = await client.listTools()
  const schema = tools.find(t => t.name === show)!.inputSchema
  const listed = key === undefined ? schema : schema.properties?.[key]
  // What the first screen showed is not shown again: said to be the same, as the server lists it.
  const same = shown !== undefined && JSON.stringify(listed) === JSON.stringify(shown)
  console.log(`tools/list → ${tools.map(t => t.name).join(', ')}; ${show}'s inputSchema${key === undefined ? '' : ` at "${key}"`}${same ? ': the "after" above' : ':'}`)
  if (!same)
    console.log(json(listed))
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
], { shown: flat })
// The build made every profile; the operator serves the `gemini` one to every caller by naming it.
// Gemini takes no key of two types: the one that differs, `media`, is sent as JSON text.
await session('the same server started to serve the gemini profile (to every client)', 'server-v2.mjs', 'send_message', [
  ['send_message', { kind: 'mediaGroup', media }],
], { serverArgs: ['gemini'], key: 'media' })
await session('the SDK 2.x McpServer with a flat() input schema', 'flat-v2.mjs', 'send', [
  ['send', { kind: 'mediaGroup', media }],
  ['send', { kind: 'mediaGroup' }],
])
