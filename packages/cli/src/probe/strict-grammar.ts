// Anthropic compiles every strict tool of a request into one grammar, refused past a ceiling it does
// not publish. What the anthropic-strict tools of the artifacts probed together (one server's list)
// spend of the strict budget: each tool's points and share, the total against the budget, and a
// finding when the strict tools a list ships together are over it.
import type { Artifact } from './artifact-files'
import type { Finding, GrammarShare } from './findings'
import { chooseStrict, DEFAULT_STRICT_BUDGET } from '@flatmcp/core'

/** The profile whose strict tools share one grammar per request. */
const PROFILE = 'anthropic-strict'

/** The budget the probe holds a list to: the one asked for, else the one a snapshot was made within, else the default. */
export function strictBudgetOf(read: readonly Artifact[], asked: number | undefined): number {
  const recorded = read.map(artifact => (artifact.options as { strictBudget?: unknown }).strictBudget).find(budget => typeof budget === 'number')
  return asked ?? (recorded as number | undefined) ?? DEFAULT_STRICT_BUDGET
}

/** Each strict tool's share of the budget, the most first; undefined where no artifact ships anthropic-strict. */
export function grammarShare(read: readonly Artifact[], budget: number): { share?: GrammarShare, finding?: Finding } {
  const forms = read.flatMap(artifact => artifact.tools.flatMap((tool) => {
    const entry = artifact.runtime[tool.name]
    const data = entry?.profiles?.[PROFILE]
    // A gateway's snapshot records each tool's server: the proxy gives each server its share first.
    const member = (entry as { origin?: { server?: unknown } } | undefined)?.origin?.server
    return data ? [{ name: tool.name, strict: data.strict !== false, schema: data.inputSchema, ...(typeof member === 'string' ? { member } : {}) }] : []
  }))
  if (forms.length === 0)
    return {}
  // What a flatmcp server or proxy would keep strict of them within the budget (the rest served in their base form).
  const choice = chooseStrict(forms.filter(form => form.strict).map(({ strict: _, schema, ...form }) => ({ ...form, schema: schema as never })), budget)
  const tools = choice.tools.map(tool => ({ name: tool.name, points: tool.cost.points, ...(budget > 0 ? { share: Math.round(tool.cost.points / budget * 1000) / 1000 } : {}), kept: tool.strict }))
    .sort((a, b) => b.points - a.points)
  const spent = tools.reduce((sum, tool) => sum + tool.points, 0)
  const share: GrammarShare = { profile: PROFILE, budget, spent, tools, notStrict: forms.filter(form => !form.strict).map(form => form.name) }
  if (spent <= budget)
    return { share }
  return {
    share,
    finding: { check: 'profile', severity: 'warning', message: `${PROFILE}: the ${tools.length} strict tools these artifacts hold spend ${spent} points of Anthropic's combined strict grammar, over the budget of ${budget}; a request sending them all as strict may be refused ("The compiled grammar is too large"). A flatmcp server or proxy serves strict only the ${tools.filter(tool => tool.kept).length} that fit, the others in their base form; give it the budget Anthropic takes for this list (strictBudget, --strict-budget) to keep more.` },
  }
}
