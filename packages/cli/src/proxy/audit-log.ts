// `--audit-log FILE`: one JSON line per tool call (time, caller's credential name, tool, upstream,
// outcome, duration, the JSON paths the repair changed), never an argument's value, a result or a
// secret. Lines are handed to a file stream and written behind the request path; past 64 MiB the
// file becomes FILE.1 (the one before it is dropped), and lines that would wait on a disk slower
// than the calls (4 MiB behind) are dropped and counted on stderr.
import type { ProxiedCall } from '@flatmcp/runtime/proxy'
import type { WriteStream } from 'node:fs'
import { createWriteStream, statSync } from 'node:fs'
import { rename } from 'node:fs/promises'

/** The size at which the file is rotated, and how far behind the disk the lines may fall. */
export const AUDIT_BOUNDS = { fileBytes: 64 * 2 ** 20, behindBytes: 4 * 2 ** 20 }

export interface AuditLog {
  write: (call: ProxiedCall) => void
  /** Writes what is held and closes the file. */
  close: () => Promise<void>
}

/** One call's line: the fields in a fixed order, none of them a value sent or answered. */
export function auditLine(call: ProxiedCall): string {
  return `${JSON.stringify({ time: call.time, caller: call.caller ?? null, tool: call.tool, upstream: call.upstream, outcome: call.outcome, durationMs: call.durationMs, repaired: call.repaired })}\n`
}

const open = (file: string): WriteStream => createWriteStream(file, { flags: 'a', mode: 0o600 })
const sizeOf = (file: string): number => {
  try {
    return statSync(file).size
  }
  catch {
    return 0
  }
}

/** An audit log at `file`, appended to; `log` hears the lines it had to drop (at the 1st, 2nd, 4th… drop). */
export function auditLog(file: string, log: (line: string) => void, bounds = AUDIT_BOUNDS): AuditLog {
  let stream = open(file)
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
    rotating = new Promise<void>(resolve => old.end(resolve))
      .then(() => rename(file, `${file}.1`))
      .catch(() => {})
      .then(() => {
        stream = open(file)
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
      await new Promise<void>(resolve => stream.end(resolve))
    },
  }
}
