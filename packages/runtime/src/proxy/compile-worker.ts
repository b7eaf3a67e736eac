// The proxy's compiler thread: compiles an upstream list tool by tool and says when each begins and
// ends, so the main thread can stop a compile that takes too long or too much memory and serve that
// one tool as it came, without waiting on it.
import type { PresetName } from '@flatmcp/core'
import type { CompileRequest } from './compile-upstream'
import { parentPort, workerData } from 'node:worker_threads'
import { loadCompiler } from '../precomputed/compiler'
import { compileUpstreamTool, listPreset } from './compile-upstream'

/** What the main thread hears: the preset chosen, a tool begun, a tool done. */
export type WorkerMessage =
  | { kind: 'preset', preset: PresetName }
  | { kind: 'begin', index: number }
  | { kind: 'done', index: number, result: ReturnType<typeof compileUpstreamTool> }

const { tools, preset, profiles, maxSchemaBytes, from } = workerData as CompileRequest & { from: number }
const compiler = loadCompiler('a proxied tool')
const post = (message: WorkerMessage): void => parentPort!.postMessage(message)

const chosen = listPreset(compiler, tools, preset)
post({ kind: 'preset', preset: chosen })
for (let index = from; index < tools.length; index++) {
  post({ kind: 'begin', index })
  post({ kind: 'done', index, result: compileUpstreamTool(compiler, tools[index]!, chosen, { profiles, maxSchemaBytes }) })
}
