// One tools/call, timed and told to `onCall` once answered: the tool it reached, the caller's
// credential name, the outcome, and where the input the tool was given differs from what was sent.
import type { ObservedCall } from '../service/options'
import type { CallTelemetry } from '../telemetry/call-telemetry'
import { changedPaths } from '../util/changed-paths'

/** What a call is known by before it runs. */
export interface CallFacts {
  tool: string
  args: unknown
  authInfo?: unknown
  profile?: string
}

/** The caller's name where the serving face put one in `authInfo.clientId`. */
function callerOf(authInfo: unknown): string | undefined {
  const id = (authInfo as { clientId?: unknown } | undefined)?.clientId
  return typeof id === 'string' && id !== '' ? id : undefined
}

/** Runs `call` with `observed` filled as it is read, and tells `onCall` how it went (also when it throws). */
export async function observeCall<T>(onCall: (call: ObservedCall) => void, facts: CallFacts, observed: { tool?: string, input?: unknown }, call: () => Promise<T>): Promise<T> {
  const time = new Date().toISOString()
  const started = performance.now()
  const told = (outcome: ObservedCall['outcome']): void => {
    const caller = callerOf(facts.authInfo)
    try {
      onCall({
        time,
        tool: observed.tool ?? facts.tool,
        ...(caller === undefined ? {} : { caller }),
        ...(facts.profile === undefined ? {} : { profile: facts.profile }),
        outcome,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        repaired: 'input' in observed ? changedPaths(facts.args ?? {}, observed.input) : [],
      })
    }
    catch {
      // An observer's failure is not the call's.
    }
  }
  try {
    const result = await call()
    told((result as { isError?: unknown }).isError === true ? 'tool-error' : 'ok')
    return result
  }
  catch (error) {
    told('error')
    throw error
  }
}

/** Who hears a call: the server's `onCall` and its telemetry, either or both; none where neither is set. */
export function observers(onCall: ((call: ObservedCall) => void) | undefined, telemetry: CallTelemetry | undefined): ((call: ObservedCall) => void) | undefined {
  if (!telemetry)
    return onCall
  return (call) => {
    telemetry.finish(call)
    onCall?.(call)
  }
}
