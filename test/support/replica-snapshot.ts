// The replica upstream (replica-upstream.mjs) and a snapshot of it made by the CLI in a folder of
// its own: what replicas of `flatmcp proxy --http` serve in the tests and the bench.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './client'
import { runCli } from './proxy'

export const REPLICA_UPSTREAM = join(ROOT, 'test/support/replica-upstream.mjs')

/** A scratch folder holding the replica upstream's snapshot; `remove` takes it away. */
export async function replicaSnapshot(): Promise<{ scratch: string, snapshot: string, remove: () => void }> {
  const scratch = mkdtempSync(join(tmpdir(), 'flatmcp-replicas-'))
  const snapshot = join(scratch, 'snapshot.mcp.json')
  const made = await runCli(['snapshot', '--out', snapshot, '--', process.execPath, REPLICA_UPSTREAM])
  if (made.code !== 0)
    throw new Error(`flatmcp snapshot of the replica upstream failed: ${made.stderr}`)
  return { scratch, snapshot, remove: () => rmSync(scratch, { recursive: true, force: true }) }
}
