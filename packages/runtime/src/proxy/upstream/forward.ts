// What the proxy sends upstream and hands back: requests' params less the downstream hop's envelope,
// answers taken as they come, and the upstream's progress passed on before the answer it precedes.
import type { ProgressUpdate } from '../../tool/define-tool'
import { isObject } from '../../util/object'

/** A result schema that takes whatever the other side answers: the proxy passes answers on unchanged. */
export const ANY_RESULT = { '~standard': { version: 1, vendor: 'flatmcp', validate: (value: unknown) => ({ value }) } }

/** The `_meta` keys the 2026-07-28 envelope reserves: each hop sets its own. */
const ENVELOPE = /^io\.modelcontextprotocol\//

/** A request's params as they go upstream: the downstream hop's envelope and progress token left behind. */
export function forwardedParams(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const meta = params?._meta
  if (!isObject(meta))
    return params
  const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => key !== 'progressToken' && !ENVELOPE.test(key)))
  const { _meta: _dropped, ...rest } = params!
  return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : rest
}

/**
 * The upstream's progress on a request, passed downstream; `sent` resolves once every update has
 * gone out, so the answer is never sent before the progress that came ahead of it (a client drops
 * progress that arrives after the answer).
 */
export function relay(progress: ((update: ProgressUpdate) => Promise<void>) | undefined): { onprogress: (update: ProgressUpdate) => void, sent: () => Promise<void> } | undefined {
  if (!progress)
    return undefined
  const pending: Promise<void>[] = []
  return {
    onprogress: update => void pending.push(progress(update).catch(() => {})),
    sent: async () => {
      await Promise.all(pending)
    },
  }
}
