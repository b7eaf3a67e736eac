// `--log-level`: which of the proxy's operator lines reach stderr. A line without a level is one
// the operator may need to act on (a fallback, a drift, an upstream lost): `warn`. Nothing here
// loads the runtime: the commands read `LOG_LEVELS` as they parse their arguments.
import type { OperatorLog, ProxiedCall, RefusedCall } from '@flatmcp/runtime/proxy'

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const
export type LogLevel = typeof LOG_LEVELS[number]

/** Lines at `level` and above, written by `write` (default: stderr). */
export function operatorLog(level: LogLevel = 'info', write = (line: string): void => void process.stderr.write(`${line}\n`)): OperatorLog {
  const least = LOG_LEVELS.indexOf(level)
  return (line, said) => {
    if (LOG_LEVELS.indexOf(said ?? 'warn') <= least)
      write(line)
  }
}

/**
 * A call as `--log-level debug` says it: tool (or another request's method and what it names),
 * upstream, outcome, time and the paths repaired (never a value), or the limit that refused it; the
 * upstream's words escaped, as they are its own.
 */
export function callLine(call: ProxiedCall | RefusedCall): string {
  const method = call.method ?? 'tools/call'
  const what = `${method === 'tools/call' ? 'call' : method}${call.tool ? ` ${JSON.stringify(call.tool)}` : ''}`
  const by = call.caller ? ` by ${call.caller}` : ''
  if (call.outcome === 'refused')
    return `flatmcp proxy: ${what}${by} → refused (${call.why})`
  const repaired = call.repaired.length > 0 ? `; repaired ${call.repaired.join(', ')}` : ''
  return `flatmcp proxy: ${what} (${JSON.stringify(call.upstream).slice(1, -1)})${by} → ${call.outcome} in ${Math.round(call.durationMs)} ms${repaired}`
}
