// A tool module's evaluation is the project's own code run at build time, and it may never end: a
// top-level await that never settles, or a loop that never returns. The first is a pending promise
// (raced with a timer, and with the event loop running dry, which means nothing can settle it); the
// second holds the thread, so no timer of its own can fire: a watchdog thread, woken through shared
// memory, ends the evaluation when the limit has passed, and the build fails as for the first.
import { Worker } from 'node:worker_threads'

/** A module that did not finish evaluating in time; `ms` is how long it was given. */
export class EvaluationTimeout extends Error {
  constructor(readonly ms: number, reason: string) {
    super(reason)
    this.name = 'EvaluationTimeout'
  }
}

/** How long past the limit the watchdog waits, so a thread that is only waiting is answered by its own timer first. */
const WATCHDOG_GRACE_MS = 2000
const TEXT_BYTES = 4096

// The watchdog: waits while idle, then while armed up to the limit; if still armed with the same
// generation, ends the held evaluation through the inspector (the main thread's script is
// terminated, and its own timer then fails the build with the module named, exit 2). A thread held
// where no script runs (a native call) cannot be terminated: after a grace, the message goes to
// stderr and the process is killed.
const WATCHDOG = (GRACE: number): string => `
const { workerData } = require('node:worker_threads')
const { writeSync } = require('node:fs')
const state = new Int32Array(workerData.state)
const text = new Uint8Array(workerData.text)
// Connected only while it is used: a session still open at exit makes Node wait for a debugger, said on stderr.
const terminate = () => {
  try {
    const session = new (require('node:inspector').Session)()
    session.connectToMainThread()
    session.post('Runtime.terminateExecution')
    session.disconnect()
  }
  catch {}
}
for (;;) {
  Atomics.wait(state, 1, 0)
  const generation = Atomics.load(state, 0)
  const limit = Atomics.load(state, 2)
  if (Atomics.wait(state, 1, 1, limit) === 'timed-out' && Atomics.load(state, 0) === generation && Atomics.compareExchange(state, 1, 1, 2) === 1) {
    terminate()
    if (Atomics.wait(state, 1, 2, ${GRACE}) === 'timed-out' && Atomics.load(state, 0) === generation) {
      writeSync(2, Buffer.from(text.subarray(0, Atomics.load(state, 3))))
      process.kill(process.pid, 'SIGKILL')
    }
  }
}
`

interface Watchdog { state: Int32Array, text: Uint8Array }
let watchdog: Watchdog | undefined

function startWatchdog(): Watchdog {
  const state = new SharedArrayBuffer(16)
  const text = new SharedArrayBuffer(TEXT_BYTES)
  // It never keeps the process alive, and the process's end ends it.
  new Worker(WATCHDOG(WATCHDOG_GRACE_MS), { eval: true, workerData: { state, text }, stdout: true, stderr: false }).unref()
  return { state: new Int32Array(state), text: new Uint8Array(text) }
}

/** Arms the watchdog for one evaluation; the returned function disarms it. */
function arm(limitMs: number, message: string): () => void {
  const { state, text } = watchdog ??= startWatchdog()
  const bytes = new TextEncoder().encode(`${message}\n`).subarray(0, TEXT_BYTES)
  text.set(bytes)
  Atomics.store(state, 3, bytes.length)
  Atomics.store(state, 2, limitMs + WATCHDOG_GRACE_MS)
  Atomics.add(state, 0, 1)
  Atomics.store(state, 1, 1)
  Atomics.notify(state, 1)
  return () => {
    Atomics.store(state, 1, 0)
    Atomics.notify(state, 1)
  }
}

/** Whether the watchdog ended the evaluation it was armed for (the thread was held). */
function terminated(): boolean {
  return watchdog !== undefined && Atomics.load(watchdog.state, 1) === 2
}

/**
 * Runs an evaluation (`start` begins it, and may hold the thread) within `limitMs`: a promise still
 * pending then, or pending when the event loop has nothing left to run, is an `EvaluationTimeout`;
 * so is a thread held past the limit, which the watchdog ends (`held.reason`), or, where it cannot,
 * ends the process with `held.line` on stderr.
 */
export async function withinTimeLimit<T>(start: () => Promise<T>, limitMs: number, held: { reason: string, line: string }): Promise<T> {
  const disarm = arm(limitMs, held.line)
  let timer: NodeJS.Timeout | undefined
  let onBeforeExit: (() => void) | undefined
  try {
    return await Promise.race([
      start(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new EvaluationTimeout(limitMs, `did not finish evaluating within ${limitMs} ms (a top-level await that waits too long, or for ever)`)), limitMs)
        timer.unref()
        // Nothing left to run: no timer, socket or process can settle the module's await any more.
        onBeforeExit = () => reject(new EvaluationTimeout(limitMs, 'never finishes evaluating: its top-level await waits on something nothing will ever settle'))
        process.once('beforeExit', onBeforeExit)
      }),
    ])
  }
  catch (error) {
    throw error instanceof EvaluationTimeout && terminated() ? new EvaluationTimeout(limitMs, held.reason) : error
  }
  finally {
    disarm()
    clearTimeout(timer)
    if (onBeforeExit)
      process.off('beforeExit', onBeforeExit)
  }
}
