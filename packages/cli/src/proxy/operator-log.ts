// `--log-level`: which of the proxy's operator lines reach stderr. A line without a level is one
// the operator may need to act on (a fallback, a drift, an upstream lost): `warn`. Nothing here
// loads the runtime: the commands read `LOG_LEVELS` as they parse their arguments.
import type { OperatorLog, ProxiedCall } from '@flatmcp/runtime/proxy'

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

/** A call as `--log-level debug` says it: tool, upstream, outcome, time and the paths repaired (never a value); the upstream's words escaped, as they are its own. */
export function callLine(call: ProxiedCall): string {
  const repaired = call.repaired.length > 0 ? `; repaired ${call.repaired.join(', ')}` : ''
  return `flatmcp proxy: call ${JSON.stringify(call.tool)} (${JSON.stringify(call.upstream).slice(1, -1)})${call.caller ? ` by ${call.caller}` : ''} → ${call.outcome} in ${Math.round(call.durationMs)} ms${repaired}`
}
