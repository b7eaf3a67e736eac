// The proxy's compiler thread, where Node's worker threads are at hand. Booting one and loading the
// compiler in it takes about 100 ms of a core: a proxy that will compile a list starts one at once
// (`warmCompilerThread`), so that it boots while the proxy's own modules load and the upstream
// starts, and the list, once read, is compiled without that wait. Nothing here loads the compiler.

import { nodeBuiltin } from '../../util/node-builtin'

export interface CompilerThread {
  on: (event: 'message' | 'error' | 'exit', listener: (value: never) => void) => void
  off: (event: 'error' | 'exit', listener: (value: never) => void) => void
  postMessage: (value: unknown) => void
  terminate: () => Promise<number>
  ref: () => void
  unref: () => void
  stdout: { resume: () => void }
  stderr: { resume: () => void }
}

interface NodeBuiltins {
  worker?: { Worker: new (url: URL, options: object) => CompilerThread }
  fs?: { existsSync: (path: URL) => boolean }
}

function builtins(): NodeBuiltins {
  return { worker: nodeBuiltin('node:worker_threads'), fs: nodeBuiltin('node:fs') }
}

/** The compiler thread's file, beside this one in the build; none when running from source or bundled without it. */
function workerFile(fs: NodeBuiltins['fs']): URL | undefined {
  const file = new URL('./proxy-compile-worker.mjs', import.meta.url)
  return file.protocol === 'file:' && fs?.existsSync(file) ? file : undefined
}

/** The compiler thread's heap, in megabytes, unless the proxy's options say otherwise. */
export const THREAD_MEMORY_MB = 1024

/** How long a thread started ahead waits to be given a list before it ends (an upstream that never lists). */
const WARM_FOR_MS = 120_000

/** The thread started ahead, and the heap it was given; taken by the first list compiled. */
let warm: { thread: CompilerThread, memoryMb: number, ended: () => void, failed: () => void, timer: ReturnType<typeof setTimeout> } | undefined

/**
 * Starts a thread that waits for a list to compile, its compiler loaded: none where threads are not at
 * hand or one waits already. It holds the process open only once it is given a list.
 */
export function warmCompilerThread(memoryMb = THREAD_MEMORY_MB): void {
  const { worker, fs } = builtins()
  const file = workerFile(fs)
  if (!worker || !file || warm)
    return
  const thread = startThread(worker.Worker, file, memoryMb)
  thread.unref()
  const ended = (): void => {
    if (warm?.thread === thread)
      warm = undefined
  }
  thread.on('exit', ended)
  // One that fails while it waits (its heap too small for the compiler) ends: not an error of the process's.
  const failed = (): void => {}
  thread.on('error', failed)
  // Where no list comes, it ends: its memory is not held for nothing.
  const timer = setTimeout(() => void takeThread(memoryMb)?.terminate(), WARM_FOR_MS)
  timer.unref?.()
  warm = { thread, memoryMb, ended, failed, timer }
}

/** A thread to compile on: the one started ahead where its heap is the one asked for, else a new one; none without threads. */
export function compilerThread(memoryMb: number, data: unknown): CompilerThread | undefined {
  const taken = takeThread(memoryMb)
  if (taken) {
    taken.postMessage(data)
    return taken
  }
  const { worker, fs } = builtins()
  const file = workerFile(fs)
  return worker && file ? startThread(worker.Worker, file, memoryMb, data) : undefined
}

/** Whether a thread can be had at all (threads at hand and the thread's file built). */
export function threadsAtHand(): boolean {
  const { worker, fs } = builtins()
  return worker !== undefined && workerFile(fs) !== undefined
}

/** The thread started ahead, held open from now on, if its heap is `memoryMb`; one of another heap is ended. */
function takeThread(memoryMb: number): CompilerThread | undefined {
  const taken = warm
  if (!taken)
    return undefined
  warm = undefined
  clearTimeout(taken.timer)
  taken.thread.off('exit', taken.ended)
  taken.thread.off('error', taken.failed)
  if (taken.memoryMb !== memoryMb) {
    void taken.thread.terminate()
    return undefined
  }
  taken.thread.ref()
  return drained(taken.thread)
}

/** A thread with its heap bounded; what the compiler might print must not reach a stdio transport (`drained`). */
function startThread(Worker: NonNullable<NodeBuiltins['worker']>['Worker'], file: URL, memoryMb: number, data?: unknown): CompilerThread {
  const thread = new Worker(file, { ...(data === undefined ? {} : { workerData: data }), resourceLimits: { maxOldGenerationSizeMb: memoryMb }, stderr: true, stdout: true })
  return data === undefined ? thread : drained(thread)
}

/** Its output read and dropped: only once it works, for a stream read holds the process open, unref'd or not. */
function drained(thread: CompilerThread): CompilerThread {
  thread.stdout.resume()
  thread.stderr.resume()
  return thread
}
