// The proxy's compiler thread: compiles an upstream list tool by tool and says when each begins and
// ends, so the main thread can stop a compile that takes too long or too much memory and serve that
// one tool as it came, without waiting on it. Started ahead of the list, it waits for it, compiler loaded.
import type { PresetName } from '@flatmcp/core'
import type { CompiledUpstream, CompileRequest } from './compile-upstream'
import { parentPort, workerData } from 'node:worker_threads'
import { loadCompiler } from '../../precomputed/compiler'
import { compileRequested, listPreset } from './compile-upstream'

/** What the main thread hears: the preset told, a tool begun, a tool done (`null`: compiled before). */
export type WorkerMessage =
  | { kind: 'preset', preset: PresetName }
  | { kind: 'begin', index: number }
  | { kind: 'done', index: number, result: CompiledUpstream | null }

const compiler = loadCompiler('a proxied tool')
const post = (message: WorkerMessage): void => parentPort!.postMessage(message)

/** Compiles the list from tool `from` on, saying each step. */
function compile(request: CompileRequest & { from: number }): void {
  const preset = listPreset(compiler, request)
  post({ kind: 'preset', preset })
  for (const done of compileRequested(compiler, request, preset, request.from, index => post({ kind: 'begin', index })))
    post({ kind: 'done', ...done })
}

// Started with its list, or ahead of it (compiler-thread.ts): then the list is the first message.
if (workerData === undefined || workerData === null)
  parentPort!.once('message', compile)
else
  compile(workerData as CompileRequest & { from: number })
