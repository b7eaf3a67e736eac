// One server behind a gateway, as the merged client and the connections that keep it up share it,
// and where a served name goes.
import type { UpstreamClient } from '../upstream'
import type { NameOrigin } from './served-names'

/** Why a member is down before its first try has ended. */
export const STARTING = 'it is starting'

/** One server behind the gateway: its name, what its config keeps of its tools, and its client while it is up. */
export interface Member {
  name: string
  tools?: { only?: readonly string[], except?: readonly string[] }
  /** Connected: its client. Down: undefined, and `down` says why. */
  client?: UpstreamClient
  down?: string
  /** Settles once its first connection has succeeded or failed. */
  started: Promise<void>
  /** Ends its connection and starts it again (with backoff), said with why: one that hangs is not left hanging. */
  restart?: (why: string) => void
  /** Told when it has listed its tools: one that hung is back. */
  listed?: () => void
}

/**
 * Where a served name goes: its member (for folded replicas, the group, and each replica by name);
 * `unlisted`: no list holds it, it is only under a down member's prefix (answered, never sent on).
 */
export type Route = NameOrigin & { member: Member, replicas?: readonly Member[], unlisted?: true }
