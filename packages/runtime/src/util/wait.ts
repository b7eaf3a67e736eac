// Waiting on what a later event gives, bounded: the proxy's questions from an upstream wait for a
// client's session, and an upstream's early question for the handler the proxy sets.
/** A value some later event gives: `opened` settles with the first one given. */
export function opening<T>(): { opened: Promise<T>, open: (value: T) => void } {
  let open!: (value: T) => void
  const opened = new Promise<T>((resolve) => {
    open = resolve
  })
  return { opened, open }
}

/** What `promise` gives within `ms` (and before `signal` aborts); undefined otherwise. */
export async function within<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined)
    signal?.addEventListener('abort', () => resolve(undefined), { once: true })
  })
  try {
    return await Promise.race([promise, late])
  }
  finally {
    clearTimeout(timer)
  }
}

/** The longest delay a timer holds (about 24.8 days): a longer one would fire at once. */
const LONGEST_MS = 2 ** 31 - 1

/** A time limit as a timer can hold it: a longer one clamped; one that is no duration a `RangeError` naming `what`. */
export function timerMs(value: number, what: string): number {
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`${what} must be a number of milliseconds, 0 or more (got ${String(value)})`)
  return Math.min(value, LONGEST_MS)
}

/**
 * `action` at once, then at most once per `ms`: calls in between are one call at the end of the
 * window (a burst of changes is told once or twice, not once per change).
 */
export function throttled(action: () => void, ms: number): () => void {
  let waiting: 'no' | 'quiet' | 'again' = 'no'
  const window = (): void => {
    setTimeout(() => {
      if (waiting === 'again') {
        waiting = 'quiet'
        action()
        window()
      }
      else {
        waiting = 'no'
      }
    }, ms).unref?.()
  }
  return () => {
    if (waiting !== 'no') {
      waiting = 'again'
      return
    }
    waiting = 'quiet'
    action()
    window()
  }
}
