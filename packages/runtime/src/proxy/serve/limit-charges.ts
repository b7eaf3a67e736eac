// What one request (or a batch) costs against the limits, wherever they are counted: the caller's own
// limits for every request it sends upstream, and for each tool called, that tool's limits for all
// callers together and the caller's own limit of that tool. Each charge has its key in the count, its
// limits, how many calls it takes and the words a refusal names it by. Pure: the count is the store's.
import { SURFACE_TOOLS } from '../../search/surface'
import { isObject } from '../../util/object'

/** Calls a minute and at once: a caller's, a tool's, or a caller's of one tool. */
export interface RateLimits {
  /** Calls a minute. Default: no limit. */
  callsPerMinute?: number
  /** Calls at once. Default: no limit. */
  inFlight?: number
}

/** A request counted: the tool it calls, where it calls one. */
export interface Counted { tool?: string }

export interface Charge {
  /** Where it is counted: `c:NAME` (a caller), `t:TOOL` (a tool, all callers), `ct:NAME/TOOL` (a caller's calls of a tool). Caller names hold no `/`. */
  key: string
  limit: RateLimits
  count: number
  /** What a refusal adds to the limit's words: `` (the caller's own), ` of "TOOL"`, ` of "TOOL", all callers together`. */
  of: string
}

/** `1 call`, `2 calls`. */
const calls = (count: number): string => `${count} call${count === 1 ? '' : 's'}`

/** A limit's words, as a refusal and the audit log say them: `3 calls a minute of "send"`. */
export function limitWords(limit: RateLimits, kind: 'rate' | 'flight', of: string): string {
  return kind === 'rate' ? `${calls(limit.callsPerMinute!)} a minute${of}` : `${calls(limit.inFlight!)} at once${of}`
}

const limited = (limit: RateLimits | undefined): limit is RateLimits => limit !== undefined && (limit.callsPerMinute !== undefined || limit.inFlight !== undefined)

/**
 * The charges of `sent` by `caller` (`''` for none): its own limits, and each tool's. A tool limit
 * counts only the calls of its tool; one request calls at most one tool.
 */
export function chargesOf(caller: string, own: RateLimits, sent: readonly Counted[], tools: Readonly<Record<string, RateLimits>>, ownTools: Readonly<Record<string, RateLimits>> = {}): Charge[] {
  const charges: Charge[] = limited(own) ? [{ key: `c:${caller}`, limit: own, count: sent.length, of: '' }] : []
  const byTool = new Map<string, number>()
  for (const { tool } of sent) {
    if (tool !== undefined)
      byTool.set(tool, (byTool.get(tool) ?? 0) + 1)
  }
  for (const [tool, count] of byTool) {
    const all = Object.hasOwn(tools, tool) ? tools[tool] : undefined
    const mine = Object.hasOwn(ownTools, tool) ? ownTools[tool] : undefined
    if (limited(mine))
      charges.push({ key: `ct:${caller}/${tool}`, limit: mine, count, of: ` of "${tool}"` })
    if (limited(all))
      charges.push({ key: `t:${tool}`, limit: all, count, of: ` of "${tool}", all callers together` })
  }
  return charges
}

/** A charge larger than its limit ever takes (a batch of more calls than it allows at all): no wait lets it through. */
export function overOf(charges: readonly Charge[]): { over: number, why: string } | undefined {
  for (const charge of charges) {
    for (const kind of ['rate', 'flight'] as const) {
      const max = kind === 'rate' ? charge.limit.callsPerMinute : charge.limit.inFlight
      if (max !== undefined && charge.count > max)
        return { over: charge.count, why: limitWords(charge.limit, kind, charge.of) }
    }
  }
  return undefined
}

/**
 * The tool a request calls: a `tools/call`'s name, and behind the search surface, the tool its
 * `call_tool` names (the tool the limit is of, not the door it came through).
 */
export function toolCalled(message: { method: string, params?: unknown }): string | undefined {
  if (message.method !== 'tools/call' || !isObject(message.params) || typeof message.params.name !== 'string')
    return undefined
  const { name, arguments: args } = message.params
  return name === SURFACE_TOOLS.call && isObject(args) && typeof args.name === 'string' ? args.name : name
}
