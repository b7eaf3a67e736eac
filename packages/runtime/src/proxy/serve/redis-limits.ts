// Callers' limits counted in Redis or Valkey, so replicas that name one store share one count: a
// caller's limit is its limit however many replicas its calls reach.
//
// Each take is one Lua script (EVALSHA, EVAL where the store has not seen it): the charges of a request
// (the caller's, each tool's) must all pass or none be taken, and a script runs whole on the store
// with no other command between its reads and writes. It keeps the token bucket the in-memory count
// keeps, so a limit means the same with a store or without; a fixed window would let twice a limit
// through at a window's edge. Time is the store's (TIME), so replicas' clocks need not agree.
//
// Calls in flight are leases: a sorted set per key of `LEASE:COUNT` scored by when they lapse, renewed
// while the call runs. A replica that dies holds its places only until its leases lapse (`LEASE_MS`).
//
// A store that does not answer within `timeoutMs` (or not at all) is down for `DOWN_MS`: meanwhile
// each take is answered at once, refused (`unavailable`) or let through uncounted, as the operator chose.
import type { Charge } from './limit-charges'
import type { RespClient, RespOptions } from './resp-client'
import type { Taken } from './caller-limits'
import { createHash, randomUUID } from 'node:crypto'
import { limitWords } from './limit-charges'
import { respClient } from './resp-client'
import { RespError } from './resp-parse'

/** How long a lease holds a place in flight before it lapses, unless renewed. */
export const LEASE_MS = 30_000
/** How long a store that failed is left alone before it is asked again. */
const DOWN_MS = 1000
/** Keys share one hash tag, so a script's keys are in one slot (a Redis Cluster node has them all). */
const PREFIX = '{flatmcp}:limits:'

// KEYS: per charge its bucket and its leases. ARGV: lease, lease ms, then per charge: calls a minute
// (0: none), calls at once (0: none), count. Returns {0} or {charge, kind (1 rate, 2 at once), seconds}.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease, ms = ARGV[1], tonumber(ARGV[2])
local n = (#ARGV - 2) / 3
local have = {}
for i = 1, n do
  local rate, flight, count = tonumber(ARGV[3*i]), tonumber(ARGV[3*i+1]), tonumber(ARGV[3*i+2])
  if rate > 0 then
    local b = redis.call('HMGET', KEYS[2*i-1], 'tokens', 'at')
    local tokens = math.min(rate, (tonumber(b[1]) or rate) + math.max(0, now - (tonumber(b[2]) or now)) * rate / 60000)
    if tokens < count then return {i, 1, math.max(1, math.ceil((count - tokens) * 60 / rate))} end
    have[i] = tokens
  end
  if flight > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[2*i], '-inf', now)
    local running = 0
    for _, member in ipairs(redis.call('ZRANGE', KEYS[2*i], 0, -1)) do
      running = running + tonumber(string.match(member, ':(%d+)$'))
    end
    if running + count > flight then return {i, 2, 1} end
  end
end
for i = 1, n do
  local rate, flight, count = tonumber(ARGV[3*i]), tonumber(ARGV[3*i+1]), tonumber(ARGV[3*i+2])
  if rate > 0 then
    redis.call('HSET', KEYS[2*i-1], 'tokens', tostring(have[i] - count), 'at', tostring(now))
    redis.call('PEXPIRE', KEYS[2*i-1], 61000)
  end
  if flight > 0 then
    redis.call('ZADD', KEYS[2*i], now + ms, lease .. ':' .. count)
    redis.call('PEXPIRE', KEYS[2*i], ms * 2)
  end
end
return {0}`

// KEYS: leases' sets. ARGV: lease ms, then per key its member. Pushes each lease's lapse on.
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + tonumber(ARGV[1]), ARGV[i + 1])
  redis.call('PEXPIRE', key, tonumber(ARGV[1]) * 2)
end
return 0`

const digest = (script: string): string => createHash('sha1').update(script).digest('hex')

/** A Redis or Valkey store the limits are counted in, and what happens while it does not answer. */
export interface LimitsStore extends RespOptions {
  /** When the store does not answer: refuse each call (`refuse`, 503) or let it through uncounted (`admit`). */
  whenDown: 'refuse' | 'admit'
  /** Where the store is, as the operator log names it (never with a password). */
  name: string
}

export interface RedisLimitsOptions extends LimitsStore {
  /** Where the store's going down and coming back are said, once each. */
  log: (line: string) => void
}

/** A script run by its digest, sent whole only where the store answers that it has not seen it. */
async function run(client: RespClient, script: string, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  try {
    return await client.command(['EVALSHA', digest(script), keys.length, ...keys, ...args])
  }
  catch (error) {
    if (error instanceof RespError && error.message.startsWith('NOSCRIPT'))
      return client.command(['EVAL', script, keys.length, ...keys, ...args])
    throw error
  }
}

/**
 * What the take script answered, where it is an answer the script gives: `{0}` (taken), or a charge
 * among `count`, its kind and a wait of a minute at most (a charge is never more than its limit a
 * minute). Anything else is a store answering wrongly: undefined, decided as a store that does not
 * answer, so no index, header or message is built from its bytes.
 */
function decision(answer: unknown, count: number): 'taken' | { at: number, kind: 1 | 2, seconds: number } | undefined {
  if (!Array.isArray(answer) || !answer.every(Number.isInteger))
    return undefined
  const [at, kind, seconds] = answer as number[]
  if (at === 0 && answer.length === 1)
    return 'taken'
  const whole = answer.length === 3 && at! >= 1 && at! <= count && (kind === 1 || kind === 2) && seconds! >= 1 && seconds! <= 60
  return whole ? { at: at!, kind: kind as 1 | 2, seconds: seconds! } : undefined
}

/** Charges counted in the store; `close` stops renewing and closes the connection. */
export function redisCount(options: RedisLimitsOptions): { take: (charges: readonly Charge[]) => Promise<Taken>, close: () => void } {
  const client = respClient(options)
  const held = new Map<string, { keys: string[], members: string[] }>()
  let downUntil = 0
  let down = false
  const failed = (error: Error): Taken => {
    downUntil = Date.now() + DOWN_MS
    if (!down)
      options.log(`flatmcp proxy: the limits store ${options.name} is unreachable (${error.message}); ${options.whenDown === 'refuse' ? 'calls with limits are refused (503) until it answers' : 'calls are let through uncounted until it answers'}`)
    down = true
    return options.whenDown === 'refuse' ? { unavailable: 'its limits store does not answer', retryAfter: 1 } : { release: () => {} }
  }
  const renew = setInterval(() => {
    for (const { keys, members } of held.values())
      void run(client, RENEW, keys, [LEASE_MS, ...members]).catch(() => {})
  }, LEASE_MS / 3)
  renew.unref()

  const take = async (charges: readonly Charge[]): Promise<Taken> => {
    if (Date.now() < downUntil)
      return failed(new Error('it failed within the last second'))
    const lease = randomUUID()
    const keys = charges.flatMap(({ key }) => [`${PREFIX}rate:${key}`, `${PREFIX}flight:${key}`])
    const args = [lease, LEASE_MS, ...charges.flatMap(({ limit, count }) => [limit.callsPerMinute ?? 0, limit.inFlight ?? 0, count])]
    let answer: unknown
    try {
      answer = await run(client, TAKE, keys, args)
    }
    catch (error) {
      return failed(error as Error)
    }
    if (down)
      options.log(`flatmcp proxy: the limits store ${options.name} answers again; calls are counted there`)
    down = false
    const decided = decision(answer, charges.length)
    if (decided === undefined)
      return failed(new Error(`it answered the limits script with ${JSON.stringify(answer)?.slice(0, 80)}`))
    if (decided !== 'taken') {
      const charge = charges[decided.at - 1]!
      return { retryAfter: decided.seconds, why: limitWords(charge.limit, decided.kind === 2 ? 'flight' : 'rate', charge.of) }
    }
    const flights = charges.filter(({ limit }) => limit.inFlight !== undefined)
    if (flights.length === 0)
      return { release: () => {} }
    const leases = { keys: flights.map(({ key }) => `${PREFIX}flight:${key}`), members: flights.map(({ count }) => `${lease}:${count}`) }
    held.set(lease, leases)
    return {
      release: () => {
        if (!held.delete(lease))
          return
        // A release the store misses is the lease lapsing instead.
        leases.keys.forEach((key, index) => client.command(['ZREM', key, leases.members[index]!]).catch(() => {}))
      },
    }
  }
  return { take, close: () => {
    clearInterval(renew)
    client.close()
  } }
}
