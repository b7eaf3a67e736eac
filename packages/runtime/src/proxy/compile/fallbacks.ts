// Where an upstream tool is served otherwise than compiled in every profile, in words: served as it
// came, served portable in a strict profile, its output schema left out. The proxy and `flatmcp
// snapshot` say each on stderr, a snapshot records them, and inspect and the probe show them.
import type { CompiledUpstream } from '../../artifact/format'
import { refusedInputRoot } from '../../artifact/tool-shape'

/** Whether a tool the compiler cannot improve is served as it came or left out (`onInvalid`). */
export type OnInvalid = 'serve' | 'drop'

/**
 * Why a tool the compiler could not improve cannot be served as it came either: its input schema as
 * listed is one clients refuse (and Claude Code drops the whole server for), which the bounded repair
 * of `servedAsIs` could not make whole. Such a tool is left out whatever `onInvalid` says; never
 * passed through unflattened.
 */
export function refusedAsListed(tool: Pick<CompiledUpstream, 'served' | 'precomputed' | 'refused'>): string | undefined {
  return tool.served === 'as-is' ? tool.refused ?? refusedInputRoot(tool.precomputed.tool.inputSchema) : undefined
}

/** Whether a tool is served: not one left out by `onInvalid: 'drop'` or because clients refuse it as it came. */
export function isServed(tool: Pick<CompiledUpstream, 'served' | 'precomputed' | 'refused'>, onInvalid: OnInvalid = 'serve'): boolean {
  return tool.served !== 'as-is' || (onInvalid !== 'drop' && refusedAsListed(tool) === undefined)
}

/** What a tool falls back to, a sentence each (none for a tool compiled in every profile). */
export function fallbacksOf(tool: Pick<CompiledUpstream, 'served' | 'reason' | 'refused' | 'precomputed' | 'diagnostics'>, onInvalid: OnInvalid = 'serve'): string[] {
  if (tool.served === 'as-is') {
    const refused = refusedAsListed(tool)
    return [`${isServed(tool, onInvalid) ? 'served as it came' : 'left out'}: ${tool.reason}${refused === undefined || tool.reason?.includes(refused) ? '' : `, and as it came clients refuse it (${refused})`}`]
  }
  const strict = Object.entries(tool.precomputed.profiles ?? {}).filter(([, data]) => data.strict === false).map(([profile]) => {
    const said = `served as portable, not ${profile}`
    const reasons = tool.diagnostics.filter(d => d.code === 'strict-fallback' && d.message.startsWith(`${said}: `)).map(d => d.message.slice(said.length + 2))
    return reasons.length === 0 ? said : `${said}: ${reasons.join('; ')}`
  })
  return [...strict, ...tool.diagnostics.filter(d => d.code === 'output-left-out').map(d => d.message)]
}
