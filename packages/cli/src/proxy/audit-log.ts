// `--audit-log FILE`: one JSON line per request that goes upstream (tool calls, resources, prompts,
// completions: time, caller's credential name, request id, method, what it names, upstream, outcome,
// duration, the JSON paths the repair changed) and per request refused at a limit (why), never an
// argument's value, a result or a secret. Lines are handed to a file stream and written behind the request path; past 64 MiB the
// file becomes FILE.1 (the one before it is dropped), and lines that would wait on a disk slower
// than the calls (4 MiB behind) are dropped and counted on stderr. A file that cannot be written
// (a full disk, a folder taken away) loses its lines, said once; the proxy serves on.
import type { ProxiedCall, RefusedCall } from '@flatmcp/runtime/proxy'
import type { WriteStream } from 'node:fs'
import { closeSync, createWriteStream, openSync, statSync } from 'node:fs'
import { rename } from 'node:fs/promises'
import { ProxySetupError, UPSTREAM_METHODS } from '@flatmcp/runtime/proxy'

/** The size at which the file is rotated, and how far behind the disk the lines may fall. */
export const AUDIT_BOUNDS = { fileBytes: 64 * 2 ** 20, behindBytes: 4 * 2 ** 20 }

export interface AuditLog {
  write: (call: ProxiedCall | RefusedCall) => void
  /** Writes what is held and closes the file. */
  close: () => Promise<void>
}

/** One call's line: the fields in a fixed order, none of them a value sent or answered; what it names under its method's key (`tool`, `uri`, `prompt`, `ref`). */
export function auditLine(call: ProxiedCall | RefusedCall): string {
  const method = call.method ?? 'tools/call'
  const key = Object.hasOwn(UPSTREAM_METHODS, method) ? UPSTREAM_METHODS[method]?.key : undefined
  const head = { time: call.time, caller: call.caller ?? null, id: call.id ?? null, method, ...(key === undefined || call.tool === undefined ? {} : { [key]: call.tool }) }
  const rest = call.outcome === 'refused' ? { outcome: call.outcome, why: call.why } : { upstream: call.upstream, outcome: call.outcome, durationMs: call.durationMs, repaired: call.repaired }
  return `${JSON.stringify({ ...head, ...rest })}\n`
}

/** The file opened once at start, so one that cannot be (no such folder, no right to it) stops the proxy there, in one line. */
export function checkAuditFile(file: string): void {
  try {
    closeSync(openSync(file, 'a', 0o600))
  }
  catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    throw new ProxySetupError(`--audit-log ${file}: ${code === 'ENOENT' ? 'its folder does not exist' : `cannot be written (${code ?? message})`}`)
  }
}

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size
  }
  catch {
    return 0
  }
}

/** Resolves once `stream` has written what it holds, or failed to. */
const ended = (stream: WriteStream): Promise<void> => stream.destroyed ? Promise.resolve() : new Promise<void>(resolve => stream.end(() => resolve()))

/** An audit log at `file`, appended to; `log` hears the lines it had to drop (at the 1st, 2nd, 4th… drop). */
export function auditLog(file: string, log: (line: string) => void, bounds = AUDIT_BOUNDS): AuditLog {
  let failed = false
  // A write the file refuses is lost, never thrown: said once, and the next line tries a file opened anew.
  const open = (): WriteStream => createWriteStream(file, { flags: 'a', mode: 0o600 }).on('error', (error: NodeJS.ErrnoException) => {
    if (!failed)
      log(`flatmcp proxy: the audit log ${file} cannot be written (${error.code ?? error.message}); its lines are lost until it can (said once)`)
    failed = true
  })
  let stream = open()
  let size = sizeOf(file)
  let rotating: Promise<void> | undefined
  let held: string[] = []
  let dropped = 0
  const drop = (): void => {
    if ((++dropped & (dropped - 1)) === 0)
      log(`flatmcp proxy: the audit log ${file} fell behind the calls (over ${bounds.behindBytes} bytes waiting for the disk); ${dropped} line${dropped === 1 ? '' : 's'} dropped so far`)
  }
  const rotate = (): void => {
    const old = stream
    rotating = ended(old)
      .then(() => rename(file, `${file}.1`))
      .catch(() => {})
      .then(() => {
        stream = open()
        size = 0
        const lines = held
        held = []
        rotating = undefined
        lines.forEach(write)
      })
  }
  const write = (line: string): void => {
    if (rotating) {
      if (held.length * 256 < bounds.behindBytes)
        held.push(line)
      else
        drop()
      return
    }
    if (stream.destroyed)
      stream = open()
    if (stream.writableLength > bounds.behindBytes) {
      drop()
      return
    }
    stream.write(line)
    size += Buffer.byteLength(line)
    if (size >= bounds.fileBytes)
      rotate()
  }
  return {
    write: call => write(auditLine(call)),
    close: async () => {
      // A rotation's held lines may start another.
      while (rotating)
        await rotating
      await ended(stream)
    },
  }
}
