// Limits per caller: each named credential's calls per minute (a bucket that refills evenly, so a
// caller may spend a minute's calls at once and then one at a time) and calls in flight. One caller at
// its limit leaves the others untouched; a refusal says when to try again.

export interface CallerLimits {
  /** Tool calls a minute. Default: no limit. */
  callsPerMinute?: number
  /** Tool calls at once. Default: no limit. */
  inFlight?: number
}

/** A call let through (release it when it ends), or refused with the seconds to wait and why. */
export type Taken = { release: () => void } | { retryAfter: number, why: string }

interface Bucket { tokens: number, at: number, running: number }

/** Each caller's limits (`limits[name]`, else `fallback`), kept for the callers seen. */
export function callerLimits(limits: Readonly<Record<string, CallerLimits>>, fallback: CallerLimits = {}, now: () => number = Date.now): (caller: string | undefined, calls: number) => Taken {
  const buckets = new Map<string, Bucket>()
  return (caller, calls) => {
    const key = caller ?? ''
    const limit = (caller !== undefined && Object.hasOwn(limits, caller) ? limits[caller] : undefined) ?? fallback
    const perMinute = limit.callsPerMinute
    const bucket = buckets.get(key) ?? { tokens: perMinute ?? 0, at: now(), running: 0 }
    buckets.set(key, bucket)
    if (perMinute !== undefined) {
      const time = now()
      bucket.tokens = Math.min(perMinute, bucket.tokens + (time - bucket.at) * perMinute / 60_000)
      bucket.at = time
      if (bucket.tokens < calls)
        return { retryAfter: Math.max(1, Math.ceil((calls - bucket.tokens) * 60 / perMinute)), why: `${perMinute} calls a minute` }
    }
    if (limit.inFlight !== undefined && bucket.running + calls > limit.inFlight)
      return { retryAfter: 1, why: `${limit.inFlight} calls at once` }
    if (perMinute !== undefined)
      bucket.tokens -= calls
    bucket.running += calls
    let released = false
    return {
      release: () => {
        if (!released)
          bucket.running -= calls
        released = true
      },
    }
  }
}
