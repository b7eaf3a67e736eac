// Limits per caller, counted in this process: each named credential's calls per minute (a bucket that
// refills evenly, so a caller may spend a minute's calls at once and then one at a time) and calls in
// flight, and the same of each tool (all callers together, and each caller's own). One caller at its
// limit leaves the others untouched; a refusal says when to try again. Counted in Redis instead where
// replicas share the limits (redis-limits.ts), by the same charges.
import type { Charge, Counted, RateLimits } from './limit-charges'
import { chargesOf, limitWords, overOf } from './limit-charges'

export interface CallerLimits extends RateLimits {
  /** Each tool's limits for this caller alone, by the name the caller calls it by. */
  tools?: Readonly<Record<string, RateLimits>>
}

/**
 * A call let through (release it when it ends), refused with the seconds to wait and why, refused
 * for good (`over`): a batch of more calls than the limit takes at all, or refused because the store
 * that counts them did not answer (`unavailable`).
 */
export type Taken = { release: () => void } | { retryAfter: number, why: string } | { over: number, why: string } | { unavailable: string, retryAfter: number }

/** What a request (or a batch) sends upstream: a count, or each request and the tool it calls. */
export type Sent = number | readonly Counted[]

/** How a count is kept: here, or in a store shared by replicas (a promise then). */
export type TakeCharges = (charges: readonly Charge[]) => Taken | Promise<Taken>

/** The limits a caller's requests meet: its own (`limits[name]`, else `fallback`) and the tools'. */
export function chargesFor(limits: Readonly<Record<string, CallerLimits>>, fallback: CallerLimits, tools: Readonly<Record<string, RateLimits>>): (caller: string | undefined, sent: Sent) => Charge[] {
  return (caller, sent) => {
    const own = (caller !== undefined && Object.hasOwn(limits, caller) ? limits[caller] : undefined) ?? fallback
    const counted = typeof sent === 'number' ? Array.from({ length: sent }, () => ({})) : sent
    return chargesOf(caller ?? '', own, counted, tools, own.tools)
  }
}

/** Limits as a store takes them: the charges, each larger than its limit refused for good first. */
export function limiter(charges: (caller: string | undefined, sent: Sent) => Charge[], take: TakeCharges): (caller: string | undefined, sent: Sent) => Taken | Promise<Taken> {
  return (caller, sent) => {
    const due = charges(caller, sent)
    return overOf(due) ?? (due.length === 0 ? { release: () => {} } : take(due))
  }
}

interface Bucket { tokens: number, at: number, running: number }

/** The refill of `bucket` at `time`, at `perMinute`. */
const refilled = (bucket: Bucket, perMinute: number, time: number): number => Math.min(perMinute, bucket.tokens + (time - bucket.at) * perMinute / 60_000)

/** Charges counted in this process, each key's bucket kept for the keys seen: all pass, or none is taken. */
export function memoryCount(now: () => number = Date.now): (charges: readonly Charge[]) => Taken {
  const buckets = new Map<string, Bucket>()
  return (charges) => {
    const time = now()
    const held = charges.map(({ key, limit }) => buckets.get(key) ?? buckets.set(key, { tokens: limit.callsPerMinute ?? 0, at: time, running: 0 }).get(key)!)
    for (const [at, { limit, count, of }] of charges.entries()) {
      const bucket = held[at]!
      if (limit.callsPerMinute !== undefined) {
        bucket.tokens = refilled(bucket, limit.callsPerMinute, time)
        bucket.at = time
        if (bucket.tokens < count)
          return { retryAfter: Math.max(1, Math.ceil((count - bucket.tokens) * 60 / limit.callsPerMinute)), why: limitWords(limit, 'rate', of) }
      }
      if (limit.inFlight !== undefined && bucket.running + count > limit.inFlight)
        return { retryAfter: 1, why: limitWords(limit, 'flight', of) }
    }
    for (const [at, { limit, count }] of charges.entries()) {
      if (limit.callsPerMinute !== undefined)
        held[at]!.tokens -= count
      held[at]!.running += count
    }
    let released = false
    return {
      release: () => {
        if (!released)
          charges.forEach(({ count }, at) => held[at]!.running -= count)
        released = true
      },
    }
  }
}

/** Each caller's limits (`limits[name]`, else `fallback`) and each tool's (`tools`), counted in this process. */
export function callerLimits(limits: Readonly<Record<string, CallerLimits>>, fallback: CallerLimits = {}, now: () => number = Date.now, tools: Readonly<Record<string, RateLimits>> = {}): (caller: string | undefined, sent: Sent) => Exclude<Taken, { unavailable: string }> {
  return limiter(chargesFor(limits, fallback, tools), memoryCount(now)) as (caller: string | undefined, sent: Sent) => Exclude<Taken, { unavailable: string }>
}

/**
 * What a refusal tells `who` (`Caller "ci"`, `The client`): when to try again (`retryAfter`, in
 * seconds), that a batch that large never passes, so waiting would not help, or that the limits could not be counted.
 */
export function refusalOf(who: string, taken: Exclude<Taken, { release: () => void }>): { message: string, retryAfter?: number } {
  if ('over' in taken)
    return { message: `${who} sent a batch of ${taken.over} requests, more than its limit (${taken.why}) ever lets through: send them in smaller batches.` }
  if ('unavailable' in taken)
    return { message: `The proxy cannot count ${who === 'The client' ? 'the client' : who.replace(/^Caller/, 'caller')}'s limits now (${taken.unavailable}); try again in ${taken.retryAfter} s.`, retryAfter: taken.retryAfter }
  return { message: `${who} is at its limit (${taken.why}); try again in ${taken.retryAfter} s.`, retryAfter: taken.retryAfter }
}
