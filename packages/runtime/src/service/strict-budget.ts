// Anthropic compiles every strict tool of a request into one grammar and refuses the request past a
// ceiling it does not publish. An author's server in anthropic-strict keeps its list within the
// budget as the proxy does (`chooseStrict`, the tools strictness buys most first): each other tool is
// served in its base form there, said once. The choice needs the compiler's estimate, loaded once
// where some tool is strict there; a server bundled without `@flatmcp/core` serves its tools as built.
import type { ExtendOptions } from './options'
import type { ToolEntry } from './tools'
import { loadCompiler } from '../precomputed/compiler'
import { logOnce } from '../util/log'
import { formFor } from './tools'

/** The profile whose strict tools share one grammar per request. */
export const BUDGETED_PROFILE = 'anthropic-strict'

/** Serves in their base form, in the budgeted profile, the tools over the budget (`budget` points; the compiler's default where not given). */
export function keepStrictBudget(byName: ReadonlyMap<string, ToolEntry>, extend: ExtendOptions | undefined, budget: number | undefined): void {
  const strict = [...byName.values()].filter(entry => formFor(entry, BUDGETED_PROFILE, extend).strict === true)
  if (strict.length === 0)
    return
  let compiler: ReturnType<typeof loadCompiler>
  try {
    compiler = loadCompiler(`the ${BUDGETED_PROFILE} budget`)
  }
  catch {
    logOnce('strict-budget', `flatmcp: the ${BUDGETED_PROFILE} tools are served as built, all ${strict.length} strict: choosing which fit Anthropic's strict grammar budget needs @flatmcp/core at run time (said once)`)
    return
  }
  const choice = compiler.chooseStrict(strict.map(entry => ({ name: entry.definition.name, schema: formFor(entry, BUDGETED_PROFILE, extend).tool.inputSchema as never })), budget ?? compiler.DEFAULT_STRICT_BUDGET)
  for (const tool of choice.tools.filter(tool => !tool.strict)) {
    const entry = byName.get(tool.name)!
    entry.forms.set(BUDGETED_PROFILE, entry.forms.get(undefined)!)
    logOnce(`strict-budget:${tool.name}`, `flatmcp: tool "${tool.name}" served in its base form, not ${BUDGETED_PROFILE}: ${tool.reason}`)
  }
}
