// Compiles the example tools and prints, per tool, the schema zod describes and the flat schema
// flatmcp advertises, with the compiler's diagnostics.
import { compileTool, toOriginalSchema } from '@flatmcp/core'
import { isToolDefinition } from '@flatmcp/runtime'
import * as tools from './src/chat.tools'

const bold = (text: string): string => process.stdout.isTTY ? `\x1B[1m${text}\x1B[0m` : text
const json = (value: unknown): string => JSON.stringify(value, null, 2)

for (const [exportName, tool] of Object.entries(tools)) {
  if (!isToolDefinition(tool))
    continue
  const compiled = compileTool(tool)
  console.log(bold(`── ${compiled.name}  (export ${exportName})`))
  console.log(bold('original input (zod → JSON Schema):'))
  console.log(json(toOriginalSchema(tool.input).schema))
  if (tool.params)
    console.log(`${bold('original params:')}\n${json(toOriginalSchema(tool.params).schema)}`)
  console.log(bold('advertised inputSchema (portable, flat):'))
  console.log(json(compiled.inputSchema))
  console.log(bold('diagnostics:'), compiled.diagnostics.length === 0 ? 'none' : '')
  for (const d of compiled.diagnostics)
    console.log(`  ${d.severity} ${d.code} ${d.schema}${d.path}: ${d.message}`)
  console.log()
}
