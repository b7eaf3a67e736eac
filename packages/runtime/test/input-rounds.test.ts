// The proxy's own answers to a 2026-07-28-only server's rounds (input-rounds.ts): a round that asks
// nothing, only to be called again, is paced as the MCP SDK's client paces it, and bounded.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerRounds, IDLE_ROUND_MS, MAX_IDLE_ROUNDS } from '../src/proxy/upstream/input-rounds'

/** A server's answer that asks nothing but to be called again. */
const idleRound = { resultType: 'input_required', requestState: '0' }

afterEach(() => {
  vi.useRealTimers()
})

describe('rounds that ask nothing', () => {
  it('are made again only after the pause, at most MAX_IDLE_ROUNDS a call, and end in a tool error naming why', async () => {
    vi.useFakeTimers()
    let retried = 0
    const ended = answerRounds(idleRound, {
      ask: () => Promise.reject(new Error('nothing is asked')),
      retry: async () => ({ resultType: 'input_required', requestState: String(++retried) }),
      timeout: 60_000,
    }).then(() => 'completed', (error: Error) => error.message)
    await vi.advanceTimersByTimeAsync(IDLE_ROUND_MS - 1)
    expect(retried).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(retried).toBe(1)
    await vi.advanceTimersByTimeAsync(IDLE_ROUND_MS * MAX_IDLE_ROUNDS)
    expect(retried).toBe(MAX_IDLE_ROUNDS)
    expect(await ended).toContain(`went on past ${MAX_IDLE_ROUNDS} rounds that asked nothing`)
  })

  it('end as cancelled where the call is cancelled during the pause, with nothing sent again', async () => {
    vi.useFakeTimers()
    const controller = new AbortController()
    let retried = 0
    const ended = answerRounds(idleRound, {
      ask: () => Promise.reject(new Error('nothing is asked')),
      retry: async () => ({ content: [], retried: ++retried }),
      timeout: 60_000,
      signal: controller.signal,
    }).then(() => 'completed', (error: Error) => error.name)
    controller.abort()
    expect(await ended).toBe('AbortError')
    expect(retried).toBe(0)
  })
})
