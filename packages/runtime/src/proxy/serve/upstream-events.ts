// What the upstream sends the proxy on its own, heard from the start (it may ask for roots as soon as
// it is initialized): a changed tool list, compiled anew and told downstream; its other notifications
// (logging, resource updates), passed downstream; its questions (sampling, elicitation, roots), asked
// of the client behind the proxy where one keeps a session.
import type { AskedContext, Message, UpstreamClient } from '../upstream/upstream'
import type { Downstreams } from './downstream'
import type { QuestionBridge } from './questions'
import { within } from '../../util/wait'
import { ANY_RESULT } from '../upstream/forward'

export interface UpstreamEventsOptions {
  /** Settles when the first list is compiled: a change waits for it. */
  ready: () => Promise<void>
  /** Reads the list anew; false where the list served is as it was. */
  refresh: () => Promise<boolean | void>
  downstreams: Downstreams
  questions: QuestionBridge
  /** Whether the upstream may ask the client behind the proxy at all. */
  asks: boolean
  timeoutMs: number
  log: (line: string) => void
  /** The upstream, as a line about it names it (behind a gateway: its servers). */
  where: string
}

export function listenToUpstream(upstream: UpstreamClient, options: UpstreamEventsOptions): void {
  const { downstreams } = options
  upstream.setNotificationHandler('notifications/tools/list_changed', coalesced(options))
  upstream.fallbackNotificationHandler = notification => downstreams.tell(notification)
  // A question asked before that client's session is open (roots at start-up) waits for it.
  upstream.fallbackRequestHandler = async (request: Message, ctx: AskedContext) => {
    const asked = options.asks ? await within(downstreams.asked, options.timeoutMs, ctx.mcpReq.signal) : undefined
    if (asked === 'rounds')
      return options.questions.ask({ method: request.method, ...(request.params === undefined ? {} : { params: request.params }) }, ctx.mcpReq.signal, ctx.asker, ctx.asking) as Promise<never>
    if (!asked)
      throw Object.assign(new Error(`no client behind this proxy keeps a session that can be asked for ${request.method}`), { code: -32601 })
    return asked.request({ method: request.method, params: request.params } as never, ANY_RESULT as never, { signal: ctx.mcpReq.signal }) as Promise<never>
  }
}

/**
 * A list change handled with at most one read of the list in flight and one more after it (a storm of
 * notifications is two reads), so the list read last, the newest, is the one served; clients are told
 * only where it differs from the list served before. Each change's promise settles once a read that
 * began after it is served.
 */
function coalesced(options: UpstreamEventsOptions): () => Promise<void> {
  let reading: Promise<void> | undefined
  let next: Promise<void> | undefined
  const read = (): Promise<void> => options.ready().catch(() => {}).then(options.refresh).then(
    changed => changed === false ? undefined : options.downstreams.tell({ method: 'notifications/tools/list_changed' }),
    error => options.log(`flatmcp proxy: the new tool list of ${options.where} could not be read: ${(error as Error).message}`),
  )
  const changed = (): Promise<void> => {
    if (!reading) {
      reading = read().finally(() => {
        reading = undefined
      })
      return reading
    }
    next ??= reading.then(() => {
      next = undefined
      return changed()
    })
    return next
  }
  return changed
}
