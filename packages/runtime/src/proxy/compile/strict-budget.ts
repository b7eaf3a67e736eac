// Anthropic refuses a whole request whose strict tools together compile to too large a grammar. Over
// an upstream's list, the compiler's estimate chooses which tools keep anthropic-strict within the
// operator's budget (`--strict-budget`); each other one is served as portable there, with its reason.
// Where many servers are served as one, each first chooses within an equal share (its own by the
// gateway's name map): one server's costly tool cannot cost the others all their strict tools.
import type * as Compiler from '@flatmcp/core'
import type { ProxiedTool, ToolOrigin } from '../../artifact/format'
import type { UpstreamEntry } from './read-list'
import { driftOf } from './snapshot-drift'
import { ownValue } from '../../util/object'

/** The profile whose strict tools share one grammar per request. */
export const BUDGETED_PROFILE = 'anthropic-strict'

/** Whether a tool is served non-strict for the budget: such a tool is compiled again, not reused, when the list changes (another may fit then). */
export function overBudget(tool: ProxiedTool): boolean {
  return tool.diagnostics.some(d => d.code === 'strict-fallback' && d.message.includes(': over the strict budget: '))
}

/** Whether tools compiled before are the list's very tools (each name with the same definition): the budget then chooses as it did. */
export function sameTools(tools: readonly ProxiedTool[], entries: readonly UpstreamEntry[]): boolean {
  const drift = driftOf(tools, new Map(entries.map(entry => [entry.tool.name, entry.digest])))
  return drift.changed.length + drift.added.length + drift.removed.length === 0
}

/**
 * The list with every tool the budget leaves out served as portable in the budgeted profile (the others
 * as they were); `originOf` gives each tool's server where many are served as one.
 */
export function withinStrictBudget(compiler: typeof Compiler, tools: readonly ProxiedTool[], budget: number, originOf?: (name: string) => ToolOrigin | undefined): ProxiedTool[] {
  const strict = tools.filter(tool => ownValue(tool.precomputed.profiles, BUDGETED_PROFILE)?.strict === true)
  const choice = compiler.chooseStrict(strict.map((tool) => {
    const member = originOf?.(tool.name)?.server
    return { name: tool.name, schema: tool.precomputed.profiles![BUDGETED_PROFILE]!.inputSchema as Compiler.JsonSchemaObject, ...(member === undefined ? {} : { member }) }
  }), budget)
  const reasons = new Map(choice.tools.flatMap(tool => tool.reason === undefined ? [] : [[tool.name, tool.reason] as const]))
  return tools.map((tool) => {
    const reason = reasons.get(tool.name)
    if (reason === undefined)
      return tool
    const { precomputed } = tool
    const portable = { inputSchema: precomputed.tool.inputSchema, coercion: precomputed.coercion, strict: false }
    const message = `served as portable, not ${BUDGETED_PROFILE}: ${reason}`
    return {
      ...tool,
      precomputed: { ...precomputed, profiles: { ...precomputed.profiles, [BUDGETED_PROFILE]: portable } },
      diagnostics: [...tool.diagnostics, { tool: tool.name, schema: 'input', code: 'strict-fallback', severity: 'warning', path: '', message }],
    }
  })
}
