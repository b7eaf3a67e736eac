// A bounded backlog of messages sent on to a reader that may stop reading: each one admitted is held
// until its send settles, and past `count` held (or `bytes`) the next are dropped, not queued, so a
// sender that floods costs the proxy a bounded amount. The first drop is said (again a minute later at
// the soonest), and how many were dropped once the backlog has emptied after it: two lines a minute at most.

export interface BacklogLimits {
  /** The most messages held at once. */
  count: number
  /** The most bytes held at once (as each message's size is given). Default: no bound but `count`. */
  bytes?: number
}

export interface BacklogSaid {
  /** The first message dropped of a backlog. */
  full: () => void
  /** The backlog emptied, having dropped `dropped` messages. */
  drained: (dropped: number) => void
}

/**
 * What admits a message: `undefined` where it is dropped, else what releases it once its send has
 * settled (called once; more calls do nothing).
 */
export type Admit = (bytes?: number) => (() => void) | undefined

/** The least time between two lines saying a backlog is full. */
const SAID_EVERY_MS = 60_000

export function backlog(limits: BacklogLimits, said: BacklogSaid): Admit {
  let held = 0
  let heldBytes = 0
  let dropped = 0
  let saidAt: number | undefined
  let saying = false
  return (bytes = 0) => {
    if (held >= limits.count || (limits.bytes !== undefined && held > 0 && heldBytes + bytes > limits.bytes)) {
      dropped++
      if (!saying && (saidAt === undefined || Date.now() - saidAt >= SAID_EVERY_MS)) {
        saying = true
        saidAt = Date.now()
        said.full()
      }
      return undefined
    }
    held++
    heldBytes += bytes
    let released = false
    return () => {
      if (released)
        return
      released = true
      held--
      heldBytes -= bytes
      if (held === 0 && saying) {
        saying = false
        said.drained(dropped)
        dropped = 0
      }
    }
  }
}

/** `send` within `admit`: a message dropped settles at once, one admitted is released when its send settles. */
export async function sendWithin(admit: Admit, send: () => Promise<void> | undefined, bytes?: number): Promise<void> {
  const release = admit(bytes)
  if (!release)
    return
  try {
    await send()
  }
  finally {
    release()
  }
}
