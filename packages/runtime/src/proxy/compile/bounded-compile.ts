// An upstream's schemas are untrusted input, and compiling is synchronous work: a hostile schema
// (unions nested in unions, references that fan out) could hold a thread for minutes. Where Node's
// worker threads are at hand, the list is compiled on one (compiler-thread.ts), watched tool by tool: a tool past the
// time limit, or one that runs the thread out of memory, is served as it came, and a fresh thread
// goes on with the rest. Elsewhere (a Worker runtime, a bundle without the thread's file) the list
// is compiled in place.
import type * as Compiler from '@flatmcp/core'
import type { CompiledUpstream, CompileRequest } from './compile-upstream'
import type { WorkerMessage } from './compile-worker'
import { loadCompiler } from '../../precomputed/compiler'
import { compileRequested, listPreset, servedAsIs } from './compile-upstream'
import { compilerThread, threadsAtHand } from './compiler-thread'

export interface CompileLimits {
  /** How long one tool's compile may take, in milliseconds. */
  timeoutMs: number
  /** The compiler thread's heap, in megabytes. */
  memoryMb: number
}

export interface CompiledList {
  preset: Compiler.PresetName
  /** Each requested tool, compiled, or `null` where it was compiled before (`known`). */
  tools: (CompiledUpstream | null)[]
}

/** Compiles the list in place: no bound on one tool's time, for runtimes without threads. */
export function compileInPlace(request: CompileRequest, from = 0): CompiledList {
  const compiler = loadCompiler('a proxied tool')
  const preset = listPreset(compiler, request)
  return { preset, tools: [...compileRequested(compiler, request, preset, from)].map(done => done.result) }
}

/** Compiles the list on a watched thread where there is one, else in place. */
export async function compileList(request: CompileRequest, limits: CompileLimits): Promise<CompiledList> {
  if (!threadsAtHand() || request.tools.length === 0)
    return compileInPlace(request)
  const tools: (CompiledUpstream | null)[] = []
  let preset: Compiler.PresetName | 'auto' = request.preset
  let from = 0
  while (from < request.tools.length) {
    const run = await runWorker({ ...request, preset }, from, limits)
    if (run.preset === undefined) {
      // A thread that could not start compiles nothing: the rest is compiled in place (the preset
      // told there, if not yet). One that stopped while telling the preset over the whole list
      // reads the list as plain JSON Schema.
      if (run.failure === 'error') {
        const rest = compileInPlace({ ...request, preset }, from)
        return { preset: rest.preset, tools: [...tools, ...rest.tools] }
      }
      // With the preset given, a thread stopped before reading the list (its heap or time too small
      // to load the compiler) would stop so again: the rest is served as it came, not tried forever.
      if (preset !== 'auto')
        return { preset, tools: [...tools, ...request.tools.slice(from).map(tool => servedAsIs(tool, run.reason!))] }
      preset = 'json-schema'
      continue
    }
    preset = run.preset
    tools.push(...run.done)
    from += run.done.length
    if (run.failure !== undefined) {
      // The tool it stopped on is served as it came; a fresh thread takes the rest.
      tools.push(servedAsIs(request.tools[from]!, run.reason!))
      from++
    }
  }
  return { preset: preset === 'auto' ? 'json-schema' : preset, tools }
}

interface Run {
  preset?: Compiler.PresetName
  done: (CompiledUpstream | null)[]
  /** Why the thread stopped before the end: the tool after `done` is the one it was on. */
  failure?: 'timeout' | 'memory' | 'error'
  reason?: string
}

/** One thread, from tool `from` on, until it ends or stops on a tool. */
function runWorker(request: CompileRequest, from: number, limits: CompileLimits): Promise<Run> {
  return new Promise((resolve) => {
    const run: Run = { done: [] }
    const thread = compilerThread(limits.memoryMb, { ...request, from })
    if (!thread)
      return resolve({ ...run, failure: 'error', reason: 'no compiler thread' })
    let settled = false
    const finish = (failure?: Run['failure'], reason?: string): void => {
      if (settled)
        return
      settled = true
      clearTimeout(timer)
      if (failure !== undefined)
        Object.assign(run, { failure, reason })
      void thread.terminate()
      resolve(run)
    }
    // Telling the preset over the whole list has the same time as one tool.
    const expire = (): void => finish('timeout', `compiling it took longer than ${limits.timeoutMs} ms`)
    let timer = setTimeout(expire, limits.timeoutMs)
    thread.on('message', (message: WorkerMessage) => {
      if (message.kind === 'preset') {
        run.preset = message.preset
      }
      else if (message.kind === 'begin') {
        clearTimeout(timer)
        timer = setTimeout(expire, limits.timeoutMs)
      }
      else {
        run.done.push(message.result)
        if (from + run.done.length === request.tools.length)
          finish()
      }
    })
    thread.on('error', (error: Error & { code?: string }) => error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? finish('memory', `compiling it needed more than the ${limits.memoryMb} MB the proxy gives it`)
      : finish('error', `compiling it failed: ${error.message}`))
    thread.on('exit', () => finish('error', 'the compiler thread ended on it'))
  })
}
