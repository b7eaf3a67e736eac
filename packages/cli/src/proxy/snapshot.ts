// `flatmcp snapshot`: an upstream's tool list compiled ahead of time into an `*.mcp.json` artifact,
// which `flatmcp proxy --artifact` serves without compiling at start-up and the fetch handler serves
// statelessly; `flatmcp probe` checks it.
import type { PresetName, ProfileName } from '@flatmcp/core'
import type { UpstreamOptions } from './upstream'
import path from 'node:path'
import { createProxy, snapshotText } from '@flatmcp/runtime/proxy'
import { writeFileAtomic } from 'unplugin-flatmcp/internal'
import { ProxySetupError } from './setup-error'
import { connectUpstream } from './upstream'

export interface SnapshotCommandOptions extends UpstreamOptions {
  /** The file written. Default: the upstream's name, `.mcp.json`, in the working folder. */
  out?: string
  /** The target profiles compiled besides `portable`. Default: every one. */
  profiles?: ProfileName[]
  preset?: PresetName | 'auto'
  onInvalid?: 'serve' | 'drop'
  timeoutMs?: number
  compileTimeoutMs?: number
  /** What made the snapshot, as its `generator` field says: `flatmcp@1.0.0`. */
  generator: string
  log?: (line: string) => void
}

/** A server's name as a file name: letters, digits, dots, dashes and underscores. */
function fileNameOf(name: string): string {
  return `${name.replace(/[^\w.-]+/g, '-').replace(/^[.-]+|-+$/g, '') || 'upstream'}.mcp.json`
}

/** Connects to the upstream, compiles its list and writes the snapshot; resolves with the file written. */
export async function runSnapshot(options: SnapshotCommandOptions): Promise<string> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const upstream = await connectUpstream({ ...options, asks: false }, log)
  try {
    const proxy = await createProxy(upstream.client, {
      profiles: options.profiles ?? ['openai-strict', 'anthropic-strict', 'gemini'],
      ...(options.preset ? { preset: options.preset } : {}),
      ...(options.onInvalid ? { onInvalid: options.onInvalid } : {}),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.compileTimeoutMs === undefined ? {} : { compile: { timeoutMs: options.compileTimeoutMs } }),
      log,
    }).catch((error: unknown) => {
      throw new ProxySetupError(error instanceof TypeError ? error.message : `the tools of ${upstream.where} could not be read: ${(error as Error).message}`, { cause: error })
    })
    const snapshot = proxy.snapshot(options.generator)
    const file = path.resolve(options.out ?? fileNameOf(snapshot.upstream.name))
    writeFileAtomic(file, snapshotText(snapshot))
    const asIs = Object.entries(snapshot.runtime).filter(([, entry]) => entry.served === 'as-is').map(([name]) => name)
    log(`flatmcp snapshot: ${snapshot.tools.length} tool${snapshot.tools.length === 1 ? '' : 's'} of ${upstream.where}, read as ${snapshot.options.preset}, in ${['portable', ...snapshot.options.profiles].join(', ')}${asIs.length > 0 ? ` (${asIs.join(', ')} as it came)` : ''}`)
    return file
  }
  finally {
    await upstream.close().catch(() => {})
  }
}
