// Anthropic compiles every strict tool of a request into one grammar, and refuses the request past a
// ceiling it does not publish ("The compiled grammar is too large"), far below its documented limits:
// 7 plain tools, 4 knowledge-base tools, a 13-tool assistant. An estimate of what each tool spends of
// it, and which tools of a list keep strict within a budget: the rest are served non-strict.
import type { JsonSchema, JsonSchemaObject } from '../types'
import { isSchemaObject } from '../json'
import { visitNodes } from './rules'
import { withoutSharedDefinitions } from './shared-definitions'
import { ANTHROPIC_LIMITS, anthropicCost } from './anthropic-strict'

/**
 * What each part of a strict schema spends of the grammar, in points. No formula is published: the
 * weights follow what the threads say grows it (optional keys and unions fastest) and are set so that
 * every reported failing list is over the default budget (see `DEFAULT_STRICT_BUDGET`).
 */
export const GRAMMAR_WEIGHTS = {
  /** Each strict tool is a grammar of its own, and the request chooses between them. */
  tool: { points: 4, why: 'each strict tool is one more grammar the request chooses between' },
  /** A required key is one literal in a fixed order. */
  key: { points: 1, why: 'a required key is a literal in a fixed order' },
  /** An optional key may be there or not, before or after the others: it multiplies its object's states. */
  optional: { points: 4, why: 'an optional key multiplies its object\'s states (present or not, at every place)' },
  /** Each further branch of a union (`anyOf`, a type array) is a whole alternative grammar. */
  branch: { points: 3, why: 'each union branch past the first is an alternative grammar' },
  /** An enum is one alternation; every four values more about one key's worth. */
  enum: { points: 1, why: 'an enum is an alternation, one point per four values' },
  /** A pattern is compiled literally into the grammar (a date regex of a dozen alternations). */
  pattern: { points: 6, why: 'a regular expression is compiled into the grammar literally' },
  /** A format is a pattern the vendor writes (date-time, email, uri). */
  format: { points: 4, why: 'a format is compiled as the vendor\'s own regular expression' },
  /** An array repeats its items' grammar with separators. */
  array: { points: 2, why: 'an array repeats its items with separators' },
  /** A key inside a nested object is reached through every level above it. */
  depth: { points: 1, why: 'a key below the root costs one point per level of nesting' },
} as const

export type GrammarPart = keyof typeof GRAMMAR_WEIGHTS

/**
 * The default budget, in points, for one request's strict tools. Every failing case of the threads
 * costs more (the smallest, four knowledge-base tools, 64; seven plain tools 105); Anthropic's own
 * examples (a weather tool, with a time tool beside it) cost 10 and 15. Conservative: a list that failed nowhere may be cut.
 */
export const DEFAULT_STRICT_BUDGET = 48

/** What one strict schema spends, in points, and of it each part. */
export interface GrammarCost {
  points: number
  parts: Record<GrammarPart, number>
}

/** What one tool's strict input schema spends of the grammar, counted as its definitions expand. */
export function grammarCost(schema: JsonSchema): GrammarCost {
  const parts = Object.fromEntries(Object.keys(GRAMMAR_WEIGHTS).map(part => [part, 0])) as Record<GrammarPart, number>
  const spend = (part: GrammarPart, count = 1): void => {
    parts[part] += GRAMMAR_WEIGHTS[part].points * count
  }
  spend('tool')
  visitNodes(withoutSharedDefinitions(schema), (node, depth) => {
    if (isSchemaObject(node.properties)) {
      const required = new Set(Array.isArray(node.required) ? node.required : [])
      for (const key of Object.keys(node.properties)) {
        spend(required.has(key) ? 'key' : 'optional')
        // The root's keys cost nothing more; a nested object's keys one point per level.
        spend('depth', depth)
      }
    }
    const branches = (Array.isArray(node.anyOf) ? node.anyOf.length : 0) + (Array.isArray(node.type) ? node.type.length : 0)
    if (branches > 1)
      spend('branch', branches - 1)
    if (Array.isArray(node.enum))
      spend('enum', Math.ceil(node.enum.length / 4))
    if (typeof node.pattern === 'string')
      spend('pattern')
    if (typeof node.format === 'string')
      spend('format')
    if (node.type === 'array' || node.items !== undefined)
      spend('array')
  })
  return { points: Object.values(parts).reduce((sum, n) => sum + n, 0), parts }
}

/**
 * What strictness buys one tool: the constraints a model breaks without it (a value outside an enum, a
 * string that misses a pattern or format, a union's branch mixed with another, an integer written as
 * text, a nested object's keys). Two plain strings buy nothing: the model writes them right anyway.
 */
export function strictGain(schema: JsonSchema): number {
  let gain = 0
  visitNodes(withoutSharedDefinitions(schema), (node, depth) => {
    if (Array.isArray(node.enum))
      gain += 2
    if (typeof node.pattern === 'string' || typeof node.format === 'string')
      gain += 2
    if (Array.isArray(node.anyOf) || Array.isArray(node.type))
      gain += 2
    if (node.type === 'integer' || node.type === 'number' || node.type === 'boolean')
      gain += 1
    if (depth > 0 && isSchemaObject(node.properties))
      gain += 1
  })
  return gain
}

/** A tool of a list as the budget sees it: its name, its strict input schema, and where many servers are served as one, its own. */
export interface BudgetedTool {
  name: string
  schema: JsonSchemaObject
  /**
   * The gateway member (server) the tool comes from, from the gateway's name map (never a name's
   * prefix). Where the list holds two members or more, each is first given an equal share of the budget.
   */
  member?: string
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Which tools of a list keep strict, each one's cost and gain, and why each other one does not. */
export interface StrictChoice {
  budget: number
  /** Points the strict tools spend together (at most `budget`). */
  spent: number
  /** Where the list holds two members or more: how many, and the points of each one's share. */
  shares?: { members: number, points: number }
  tools: { name: string, cost: GrammarCost, gain: number, strict: boolean, reason?: string }[]
}

function groupedBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const item of items)
    groups.set(keyOf(item), [...groups.get(keyOf(item)) ?? [], item])
  return groups
}

/** What strict tools spend together, of each thing that is bounded: grammar points and Anthropic's three limits. */
interface Spend { points: number, tools: number, optional: number, unions: number }
type Candidate = StrictChoice['tools'][number] & { limits: { optional: number, unions: number }, member?: string }

/** Why one tool does not fit beside what is spent already, within `caps` (none where it fits). */
function overCaps(tool: Candidate, sum: Spend, caps: Spend): string[] {
  return [
    sum.points + tool.cost.points > caps.points && `the strict tools would spend ${sum.points + tool.cost.points} of a grammar budget of ${caps.points} points (this one ${tool.cost.points})`,
    sum.tools + 1 > caps.tools && `Anthropic takes ${caps.tools} strict tools per request`,
    sum.optional + tool.limits.optional > caps.optional && `Anthropic takes ${caps.optional} optional parameters per request`,
    sum.unions + tool.limits.unions > caps.unions && `Anthropic takes ${caps.unions} union parameters per request`,
  ].filter((reason): reason is string => typeof reason === 'string')
}

/**
 * Takes strict, the most gain first, the cheaper of two that gain alike, then by name (not the list's
 * order, which a server may change at will), each tool that fits within `caps` beside `sum` (which it
 * adds to); a tool that does not fit is passed over with its reason, and a smaller one after it may still fit.
 */
function take(tools: readonly Candidate[], sum: Spend, caps: Spend): void {
  const order = [...tools].sort((a, b) => b.gain - a.gain || a.cost.points - b.cost.points || byName(a.name, b.name))
  for (const tool of order.filter(tool => !tool.strict)) {
    const over = overCaps(tool, sum, caps)
    if (over.length > 0) {
      tool.reason = `over the strict budget: ${over.join('; ')}; tools it buys more kept strict first`
      continue
    }
    tool.strict = true
    tool.reason = undefined
    sum.points += tool.cost.points
    sum.tools++
    sum.optional += tool.limits.optional
    sum.unions += tool.limits.unions
  }
}

/**
 * Chooses the tools that keep strict within the budget and Anthropic's documented limits (20 tools, 24
 * optional, 16 union parameters), by what strictness buys each (`take`). Where the list holds tools of
 * two members or more, one member's costly tool must not cost every other member its strict tools:
 * each member first chooses its own within an equal share of the budget and of each limit, then what
 * the shares leave is filled over the whole list by the same rule. A list of one member is chosen by the
 * rule alone, as it was.
 */
export function chooseStrict(list: readonly BudgetedTool[], given: number = DEFAULT_STRICT_BUDGET): StrictChoice {
  // A budget that is no number (NaN, text) compares false with every sum, which kept every tool strict: read as none.
  const budget = typeof given === 'number' && given >= 0 ? given : 0
  const tools: Candidate[] = list.map(tool => ({ name: tool.name, cost: grammarCost(tool.schema), gain: strictGain(tool.schema), limits: anthropicCost(tool.schema), strict: false, reason: undefined, member: tool.member }))
  const caps = { points: budget, ...ANTHROPIC_LIMITS }
  const sum = { points: 0, tools: 0, optional: 0, unions: 0 }
  const members = new Set(tools.flatMap(tool => tool.member === undefined ? [] : [tool.member]))
  // A tool of no member named, beside two members or more, is a member of its own kind: it shares too.
  const groups = members.size < 2 ? [] : [...groupedBy(tools, tool => tool.member).values()]
  const share = { points: Math.floor(budget / groups.length), tools: Math.floor(caps.tools / groups.length), optional: Math.floor(caps.optional / groups.length), unions: Math.floor(caps.unions / groups.length) }
  for (const group of groups) {
    const own = { points: 0, tools: 0, optional: 0, unions: 0 }
    take(group, own, share)
    for (const part of Object.keys(sum) as (keyof Spend)[])
      sum[part] += own[part]
  }
  take(tools, sum, caps)
  const shared = groups.length === 0 ? '' : ` (each of ${groups.length} servers first kept within its share of ${share.points} points)`
  return {
    budget,
    spent: sum.points,
    ...(groups.length === 0 ? {} : { shares: { members: groups.length, points: share.points } }),
    tools: tools.map(({ limits: _, member: __, reason, ...tool }) => reason === undefined ? tool : { ...tool, reason: `${reason}${shared}` }),
  }
}
