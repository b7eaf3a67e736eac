// Where an upstream tool is served otherwise than compiled in every profile, in words: served as it
// came, served portable in a strict profile, its output schema left out. The proxy and `flatmcp
// snapshot` say each on stderr, a snapshot records them, and inspect and the probe show them.
import type { CompiledUpstream } from '../../artifact/format'

/** Whether a tool the compiler cannot improve is served as it came or left out (`onInvalid`). */
export type OnInvalid = 'serve' | 'drop'

/** What a tool falls back to, a sentence each (none for a tool compiled in every profile). */
export function fallbacksOf(tool: Pick<CompiledUpstream, 'served' | 'reason' | 'precomputed' | 'diagnostics'>, onInvalid: OnInvalid = 'serve'): string[] {
  if (tool.served === 'as-is')
    return [`${onInvalid === 'drop' ? 'left out' : 'served as it came'}: ${tool.reason}`]
  const strict = Object.entries(tool.precomputed.profiles ?? {}).filter(([, data]) => data.strict === false).map(([profile]) => {
    const said = `served as portable, not ${profile}`
    const reasons = tool.diagnostics.filter(d => d.code === 'strict-fallback' && d.message.startsWith(`${said}: `)).map(d => d.message.slice(said.length + 2))
    return reasons.length === 0 ? said : `${said}: ${reasons.join('; ')}`
  })
  return [...strict, ...tool.diagnostics.filter(d => d.code === 'output-left-out').map(d => d.message)]
}
