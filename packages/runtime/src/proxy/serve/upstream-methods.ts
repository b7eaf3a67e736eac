// The requests a caller sends on to the upstream, in one table: each counts against the caller's
// limits and is one audit line, and the table says which of its parameters names what it reaches
// (a tool, a resource's URI, a prompt) and the key the audit line gives it. The proxy answers the
// rest itself (initialize, ping, tools/list…), and they cost the upstream nothing.
import { callerText } from '../../util/caller-text'
import { isObject } from '../../util/object'

/** A request refused at its caller's limits: nothing of it went upstream. */
export interface RefusedCall {
  time: string
  caller?: string
  /** The request's JSON-RPC id (what the refusal answered with). */
  id: string | number | null
  method: string
  /** What it names (a tool, a URI, a prompt), where its method names one. */
  tool?: string
  outcome: 'refused'
  /** The limit it met (`3 calls a minute`). */
  why: string
}

/** Each such method, and where it names what it reaches (none for a list). */
export const UPSTREAM_METHODS: Readonly<Record<string, { param: string, key: string } | undefined>> = {
  'tools/call': { param: 'name', key: 'tool' },
  'resources/list': undefined,
  'resources/templates/list': undefined,
  'resources/read': { param: 'uri', key: 'uri' },
  'resources/subscribe': { param: 'uri', key: 'uri' },
  'resources/unsubscribe': { param: 'uri', key: 'uri' },
  'prompts/list': undefined,
  'prompts/get': { param: 'name', key: 'prompt' },
  'completion/complete': { param: 'ref', key: 'ref' },
}

/** Whether a method is one the caller sends on upstream. */
export const upstreamMethod = (method: string): boolean => Object.hasOwn(UPSTREAM_METHODS, method)

/** Whether a message is a request the caller sends on upstream (so its limits and the audit count it). */
export function sentUpstream(message: unknown): message is { method: string, id: string | number, params?: unknown } {
  return isObject(message) && typeof message.method === 'string' && upstreamMethod(message.method) && message.id !== undefined
}

/** A request refused at its caller's limits, as the audit log and the debug log hear it (the caller's text cut). */
export function refusedCall(message: { method: string, id: unknown, params?: unknown }, caller: string | undefined, why: string): RefusedCall {
  const tool = subjectOf(message.method, message.params)
  const { id } = message
  return {
    time: new Date().toISOString(),
    ...(caller === undefined ? {} : { caller: callerText(caller) }),
    id: typeof id === 'number' ? id : typeof id === 'string' ? callerText(id) : null,
    method: callerText(message.method),
    ...(tool === undefined ? {} : { tool: callerText(tool) }),
    outcome: 'refused',
    why,
  }
}

/** What a request names as its parameters say (a completion's reference by its name or URI), where its method names one. */
export function subjectOf(method: string, params: unknown): string | undefined {
  const param = upstreamMethod(method) ? UPSTREAM_METHODS[method]?.param : undefined
  const value = param === undefined || !isObject(params) ? undefined : params[param]
  if (isObject(value))
    return typeof value.name === 'string' ? value.name : typeof value.uri === 'string' ? value.uri : undefined
  return typeof value === 'string' ? value : undefined
}
