// What serving tools is, as its callers see it: a list per profile, and a call read with that
// profile's inverse. `createToolService` (tool-service.ts) makes one; the search surface (surface.ts)
// stands in front of one.
import type { McpTool } from '../artifact/format'
import type { RequestInfo } from './options'
import type { CallToolResult } from './results'

export interface ToolService {
  /** The tools/list answer for a profile (undefined: the base one): the same object every time, serialized once. */
  list: (profile?: string) => Promise<{ tools: McpTool[], ttlMs: number, cacheScope: 'public' | 'private' }>
  /**
   * One tools/call, read with `profile`'s inverse (`unsure`: its list is not known, see
   * `Decision`); a name no tool has throws the SDK's own protocol error (`unknownTool`).
   */
  call: (name: string, args: unknown, request: RequestInfo, profile?: string, unsure?: boolean) => Promise<CallToolResult>
  /**
   * The input a call's arguments are read as under `profile` (repaired, mapped back, the reading its
   * schema accepts), without calling the handler; undefined for a name no tool has. A proxy forwards it.
   */
  read: (name: string, args: unknown, profile?: string) => Promise<{ ok: true, input: unknown } | { ok: false, message: string } | undefined>
}

/** What serves a call for a name no tool has, instead of the unknown-tool error (a proxy forwards it). */
export type UnknownToolCall = (name: string, args: unknown, request: RequestInfo) => Promise<CallToolResult>

