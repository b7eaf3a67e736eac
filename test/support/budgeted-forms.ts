// What the proxy serves of each tool of an upstream's list in one profile: the compiled form, and in
// anthropic-strict, the portable form for each tool the strict budget leaves out (as the proxy does:
// packages/runtime/src/proxy/compile/strict-budget.ts). Tests of other subjects compare a served list with it.
import type { CompileOptions, CompiledTool, JsonSchemaObject } from '@flatmcp/core'
import { chooseStrict, compileTool, DEFAULT_STRICT_BUDGET } from '@flatmcp/core'

interface Listed { name: string, inputSchema: unknown }

/** Each listed tool's served form by name, in `options.profile`, within `budget`. */
export function budgetedForms(listed: readonly Listed[], options: CompileOptions, budget = DEFAULT_STRICT_BUDGET): Map<string, CompiledTool> {
  const compile = (tool: Listed, more: CompileOptions): CompiledTool => compileTool({ name: tool.name, input: tool.inputSchema as JsonSchemaObject }, more)
  const forms = new Map(listed.map(tool => [tool.name, compile(tool, options)]))
  if (options.profile !== 'anthropic-strict')
    return forms
  const strict = [...forms].filter(([, form]) => form.strict === true)
  const choice = chooseStrict(strict.map(([name, form]) => ({ name, schema: form.inputSchema as JsonSchemaObject })), budget)
  const { profile: _, ...portable } = options
  for (const tool of choice.tools.filter(tool => !tool.strict))
    forms.set(tool.name, compile(listed.find(entry => entry.name === tool.name)!, portable))
  return forms
}
