// The demo: builds this example server with Vite and unplugin-flatmcp, then talks to the built
// server with a real MCP client over stdio: the flat schema it lists, a double-serialized call it
// repairs, a wrong call it explains.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { toOriginalSchema } from '@flatmcp/core'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { build } from 'vite'
import { sendMessage } from './src/chat.tools'

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url))
const bold = (text: string): string => process.stdout.isTTY ? `\x1B[1m${text}\x1B[0m` : text
const json = (value: unknown): string => JSON.stringify(value, null, 2)

console.log(bold('── vite build (with unplugin-flatmcp)'))
await build({ root: here('.'), configFile: here('vite.config.ts'), logLevel: 'warn' })
const artifact = JSON.parse(readFileSync(here('dist/vite/src/chat.tools.mcp.json'), 'utf8')) as { hash: string, tools: { name: string }[] }
console.log(`dist/vite/server.mjs and dist/vite/src/chat.tools.mcp.json (${artifact.tools.length} tools: ${artifact.tools.map(t => t.name).join(', ')}; ${artifact.hash.slice(0, 19)}…)`)

console.log(bold('\n── send_message as zod describes it (oneOf: what many clients reject)'))
console.log(json(toOriginalSchema(sendMessage.input).schema))

console.log(bold('\n── a client session with the built server (node dist/vite/server.mjs)'))
const client = new Client({ name: 'flatmcp-demo', version: '0.1.0' })
await client.connect(new StdioClientTransport({ command: process.execPath, args: [here('dist/vite/server.mjs')], stderr: 'inherit' }))
const { tools } = await client.listTools()
console.log(`tools/list → ${tools.map(t => t.name).join(', ')}; send_message's inputSchema:`)
console.log(json(tools.find(t => t.name === 'send_message')!.inputSchema))

async function call(name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args })
  const text = (result.content as { text: string }[]).map(c => c.text).join('\n')
  console.log(`\ntools/call ${name} ${JSON.stringify(args)}\n→ ${result.isError ? 'isError: ' : ''}${text}`)
}
await call('send_message', { kind: 'mediaGroup', media: JSON.stringify([{ url: 'https://example.com/a.png' }, { url: 'https://example.com/b.png' }]) })
await call('send_message', { kind: 'mediaGroup', text: 'hello' })
await call('update_chat', { chatId: 'c1', action: 'archive' })
await client.close()
