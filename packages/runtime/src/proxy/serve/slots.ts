/**
 * Calls in flight to the upstream: at most `running` at once, up to `waiting` more wait their turn
 * in order, and one past that is refused at once. A burst is smoothed, never dropped while there is
 * room, and a flood cannot grow the queue without end.
 */
export interface CallSlots {
  /** A release for one slot, once it is this call's turn; `undefined` when the queue is full or `signal` aborted first. */
  take: (signal?: AbortSignal) => Promise<(() => void) | undefined>
  readonly running: number
  readonly waiting: number
}

export function callSlots(running: number, waiting: number): CallSlots {
  let busy = 0
  const queue: ((granted: boolean) => void)[] = []
  const release = (): void => {
    const next = queue.shift()
    if (next)
      next(true)
    else
      busy--
  }
  const once = (): (() => void) => {
    let released = false
    return () => {
      if (!released) {
        released = true
        release()
      }
    }
  }
  return {
    get running() { return busy },
    get waiting() { return queue.length },
    async take(signal) {
      if (signal?.aborted)
        return undefined
      if (busy < running) {
        busy++
        return once()
      }
      if (queue.length >= waiting)
        return undefined
      const granted = await new Promise<boolean>((resolve) => {
        const turn = (granted: boolean): void => {
          signal?.removeEventListener('abort', leave)
          resolve(granted)
        }
        // An aborted caller leaves the queue; a slot it was handed is passed on.
        const leave = (): void => {
          const at = queue.indexOf(turn)
          if (at >= 0)
            queue.splice(at, 1)
          resolve(false)
        }
        queue.push(turn)
        signal?.addEventListener('abort', leave, { once: true })
      })
      return granted ? once() : undefined
    },
  }
}

/** The most lanes kept apart: past it, requests share the unnamed lane (a gateway has one lane a server). */
export const MAX_LANES = 256

/**
 * Slots for each lane (a gateway's server, which a request goes to), each with its own `running` and
 * `waiting`: calls stuck on one lane never hold up or crowd out another's. A request that names no
 * lane, or one past `MAX_LANES`, takes the unnamed lane's.
 */
export function laneSlots(running: number, waiting: number): (lane?: string) => CallSlots {
  const shared = callSlots(running, waiting)
  const lanes = new Map<string, CallSlots>()
  return (lane) => {
    if (lane === undefined)
      return shared
    let slots = lanes.get(lane)
    if (!slots && lanes.size < MAX_LANES)
      lanes.set(lane, slots = callSlots(running, waiting))
    return slots ?? shared
  }
}
