// Limits per caller: each named credential's calls per minute (a bucket that refills evenly, so a
// caller may spend a minute's calls at once and then one at a time) and calls in flight. One caller at
// its limit leaves the others untouched; a refusal says when to try again.

export interface CallerLimits {
  /** Tool calls a minute. Default: no limit. */
  callsPerMinute?: number
  /** Tool calls at once. Default: no limit. */
  inFlight?: number
}

/**
 * A call let through (release it when it ends), refused with the seconds to wait and why, or refused
 * for good (`over`): a batch of more calls than the limit takes at all.
 */
export type Taken = { release: () => void } | { retryAfter: number, why: string } | { over: number, why: string }

/** `1 call`, `2 calls`. */
const calls = (count: number): string => `${count} call${count === 1 ? '' : 's'}`

interface Bucket { tokens: number, at: number, running: number }

/** Each caller's limits (`limits[name]`, else `fallback`), kept for the callers seen. */
export function callerLimits(limits: Readonly<Record<string, CallerLimits>>, fallback: CallerLimits = {}, now: () => number = Date.now): (caller: string | undefined, calls: number) => Taken {
  const buckets = new Map<string, Bucket>()
  return (caller, count) => {
    const key = caller ?? ''
    const limit = (caller !== undefined && Object.hasOwn(limits, caller) ? limits[caller] : undefined) ?? fallback
    const perMinute = limit.callsPerMinute
    // More at once than a limit ever takes: no wait would let it through.
    const cap = ([[perMinute, 'a minute'], [limit.inFlight, 'at once']] as const).find(([max]) => max !== undefined && count > max)
    if (cap)
      return { over: count, why: `${calls(cap[0]!)} ${cap[1]}` }
    const bucket = buckets.get(key) ?? { tokens: perMinute ?? 0, at: now(), running: 0 }
    buckets.set(key, bucket)
    if (perMinute !== undefined) {
      const time = now()
      bucket.tokens = Math.min(perMinute, bucket.tokens + (time - bucket.at) * perMinute / 60_000)
      bucket.at = time
      if (bucket.tokens < count)
        return { retryAfter: Math.max(1, Math.ceil((count - bucket.tokens) * 60 / perMinute)), why: `${calls(perMinute)} a minute` }
    }
    if (limit.inFlight !== undefined && bucket.running + count > limit.inFlight)
      return { retryAfter: 1, why: `${calls(limit.inFlight)} at once` }
    if (perMinute !== undefined)
      bucket.tokens -= count
    bucket.running += count
    let released = false
    return {
      release: () => {
        if (!released)
          bucket.running -= count
        released = true
      },
    }
  }
}

/**
 * What a refusal tells `who` (`Caller "ci"`, `The client`): when to try again (`retryAfter`, in
 * seconds), or that a batch that large never passes, so waiting would not help.
 */
export function refusalOf(who: string, taken: Exclude<Taken, { release: () => void }>): { message: string, retryAfter?: number } {
  if ('over' in taken)
    return { message: `${who} sent a batch of ${taken.over} requests, more than its limit (${taken.why}) ever lets through: send them in smaller batches.` }
  return { message: `${who} is at its limit (${taken.why}); try again in ${taken.retryAfter} s.`, retryAfter: taken.retryAfter }
}
