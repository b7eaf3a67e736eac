// One tools/call, timed and told to `onCall` once answered: the tool it reached, the caller's
// credential name, the outcome, and where the input the tool was given differs from what was sent.
import type { ObservedCall, RequestInfo } from '../service/options'
import type { CallTelemetry, IncomingRequest } from '../telemetry/call-telemetry'
import type { TraceContext } from '../tool/define-tool'
import { servedAs } from '../service/choice-key'
import { callerText } from '../util/caller-text'
import { changedPaths } from '../util/changed-paths'

/** What a call is known by before it runs. */
export interface CallFacts {
  tool: string
  args: unknown
  authInfo?: unknown
  profile?: string
  /** The request's JSON-RPC id. */
  id?: string | number
}

/** The caller's name where the serving face put one in `authInfo.clientId`. */
function callerOf(authInfo: unknown): string | undefined {
  const id = (authInfo as { clientId?: unknown } | undefined)?.clientId
  return typeof id === 'string' && id !== '' ? id : undefined
}

/** Runs `call` with `observed` filled as it is read, and tells `onCall` how it went (also when it throws), with the request's `trace` where it has one. */
export async function observeCall<T>(onCall: NonNullable<CallWatch['onCall']>, facts: CallFacts, observed: NonNullable<RequestInfo['observed']>, call: () => Promise<T>, trace?: unknown): Promise<T> {
  const at = Date.now()
  const started = performance.now()
  const told = (outcome: ObservedCall['outcome'], error?: unknown): void => {
    const caller = callerOf(facts.authInfo)
    // What the service said it read the call in (the views are its to know), else what the key names.
    const { profile, view } = observed.served ?? servedAs(facts.profile, {})
    try {
      // The caller's text cut to its stated length: a made-up name costs the log no more than a short one.
      onCall({
        // Written out only where read (`callWatch` writes it out for `onCall`): the telemetry never reads it, and formatting it costs more than the rest of the record.
        get time() {
          return new Date(at).toISOString()
        },
        tool: callerText(observed.tool ?? observed.called ?? facts.tool),
        ...(caller === undefined ? {} : { caller: callerText(caller) }),
        ...(facts.id === undefined ? {} : { id: typeof facts.id === 'number' ? facts.id : callerText(facts.id) }),
        ...(profile === undefined ? {} : { profile }),
        ...(view === undefined ? {} : { view }),
        outcome,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        repaired: 'input' in observed ? changedPaths('sent' in observed ? observed.sent : facts.args ?? {}, observed.input) : [],
      }, observed.tool !== undefined, error, trace)
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
    told('error', error)
    throw error
  }
}

/** What watches a server's tools/calls: `onCall` and telemetry (which hears each call too), made once per server. */
export interface CallWatch {
  /** Hears each call, whether it reached a tool the server has (a made-up name did not), what it threw, and the request's trace context (where traced). */
  onCall?: (call: ObservedCall, reached: boolean, error?: unknown, trace?: unknown) => void
  telemetry?: CallTelemetry
}

export function callWatch(onCall: ((call: ObservedCall) => void) | undefined, telemetry: CallTelemetry | undefined): CallWatch {
  // The record's time is written out here, for `onCall` alone (the telemetry never reads it): what
  // `onCall` is handed holds it as the plain, writable string its type says (printed, set, described as one).
  const heard = onCall && ((call: ObservedCall) => onCall({ ...call }))
  const told = telemetry
    ? (call: ObservedCall, reached: boolean, error?: unknown, trace?: unknown) => {
        telemetry.finish(call, reached, error, trace)
        heard?.(call)
      }
    : heard
  return { ...(told ? { onCall: told } : {}), ...(telemetry ? { telemetry } : {}) }
}

/** How a tools/call came, for its span. */
export type CallWay = Omit<IncomingRequest, 'method' | 'tool'>

/**
 * One tools/call as `watch` sees it: `call` fills the record it is given (none where nothing
 * listens), traced and told; it is handed the request's trace context, where traced, to pass on.
 */
export function watchedCall<T>(watch: CallWatch, facts: CallFacts, way: CallWay, call: (observed?: RequestInfo['observed'], trace?: TraceContext) => Promise<T>): Promise<T> {
  const { onCall, telemetry } = watch
  const observed = onCall ? {} : undefined
  // What the telemetry's `serve` hands on is the API's own context: a `TraceContext`.
  const run = (trace?: unknown): Promise<T> => onCall ? observeCall(onCall, { ...facts, id: way.requestId }, observed!, () => call(observed, trace as TraceContext | undefined), trace) : call(undefined, trace as TraceContext | undefined)
  return telemetry ? telemetry.serve({ method: 'tools/call', tool: facts.tool, ...way }, run) : run()
}
