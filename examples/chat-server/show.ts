// The demo: compiles the example tools and prints, per tool, the schema zod describes and the flat
// schema flatmcp advertises with the compiler's diagnostics; then runs a short session of a real MCP
// client against the example server over stdio.
import { fileURLToPath } from 'node:url'
import { compileTool, toOriginalSchema } from '@flatmcp/core'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { tools } from './src/tools'

const bold = (text: string): string => process.stdout.isTTY ? `\x1B[1m${text}\x1B[0m` : text
const json = (value: unknown): string => JSON.stringify(value, null, 2)

for (const tool of tools) {
  const compiled = compileTool(tool)
  console.log(bold(`── ${compiled.name}`))
  console.log(bold('original input (zod → JSON Schema):'))
  console.log(json(toOriginalSchema(tool.input).schema))
  if (tool.params)
    console.log(`${bold('original params:')}\n${json(toOriginalSchema(tool.params).schema)}`)
  console.log(bold('advertised inputSchema (portable, flat):'))
  console.log(json(compiled.inputSchema))
  console.log(bold('coercion plan:'), JSON.stringify(compiled.coercion))
  console.log(bold('diagnostics:'), compiled.diagnostics.length === 0 ? 'none' : '')
  for (const d of compiled.diagnostics)
    console.log(`  ${d.severity} ${d.code} ${d.schema}${d.path}: ${d.message}`)
  console.log()
}

console.log(bold('── a client session over stdio'))
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('src/stdio.ts', import.meta.url))],
  stderr: 'ignore',
})
const client = new Client({ name: 'flatmcp-demo', version: '0.1.0' })
await client.connect(transport)
const listed = await client.listTools()
console.log(`tools/list: ${listed.tools.map(t => t.name).join(', ')}`)
const call = async (name: string, args: Record<string, unknown>): Promise<void> => {
  const result = await client.callTool({ name, arguments: args })
  const text = (result.content as { text: string }[]).map(c => c.text).join('\n')
  console.log(`\ntools/call ${name} ${JSON.stringify(args)}\n→ ${result.isError ? 'error: ' : ''}${text}`)
}
await call('send_message', { kind: 'mediaGroup', media: JSON.stringify([{ url: 'https://example.com/a.png' }, { url: 'https://example.com/b.png' }]) })
await call('send_message', { kind: 'mediaGroup', text: 'hello' })
await call('update_chat', { chatId: 'c1', action: 'archive' })
await client.close()
