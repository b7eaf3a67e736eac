// What serving tools is, as its callers see it: a list per profile, and a call read with that
// profile's inverse. `createToolService` (tool-service.ts) makes one; the search surface (search/surface.ts)
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
   * schema accepts), without calling the handler; undefined for a name no tool has (a proxy forwards
   * it), `outside` for a tool the profile's view leaves out (a proxy refuses it as no tool).
   */
  read: (name: string, args: unknown, profile?: string) => Promise<ReadArguments | undefined>
}

/** How a call's arguments are read: the input, what is wrong with them, or that the caller's view has no such tool. */
export type ReadArguments = { ok: true, input: unknown } | { ok: false, message: string, outside?: true }

/** What serves a call for a name no tool has, instead of the unknown-tool error (a proxy forwards it). */
export type UnknownToolCall = (name: string, args: unknown, request: RequestInfo) => Promise<CallToolResult>

