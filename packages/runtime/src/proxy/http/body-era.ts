// A request whose `Mcp-Protocol-Version` header names another revision than its body's envelope is
// served in the body's (Claude Code through claude.ai connectors sends a 2025-11-25 header with a
// 2026-07-28 body, and a server should not refuse it: TARGETS, late 2026). Only the version header
// is set to the body's: the request is then one its caller could have sent with matching headers, so
// it reaches nothing it could not reach before; the guard, the caller's limits, the `Mcp-Method` and
// `Mcp-Name` checks and the envelope's own are all as they were.
import type { HandlerOptions } from './admit'
import { shown } from '../../util/log'
import { isObject } from '../../util/object'
import { parsedText } from './json-rpc'

/** Where a 2026-07-28 request names its revision. */
const VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion'

/** What a protocol version looks like: a body's claim that is not one is left to the handler to refuse. */
const VERSION = /^\d{4}-\d{2}-\d{2}$/

/** The largest body read, as the MCP handler reads one. */
const MAX_BODY = 4 * 1024 * 1024

/** The revision one JSON-RPC message's envelope names; none for a batch, a message without one, or one that is no string. */
export function bodyVersion(body: unknown): string | undefined {
  const meta = isObject(body) && isObject(body.params) ? body.params._meta : undefined
  const version = isObject(meta) ? meta[VERSION_META_KEY] : undefined
  return typeof version === 'string' ? version : undefined
}

/** The logs already told of a mismatch: said once on each (once per process, where serving has one). */
const told = new WeakSet<(line: string) => void>()

/**
 * `request` with its `Mcp-Protocol-Version` header set to the revision its body names where the two
 * disagree (said once on `log`, both escaped), carrying `text` (a body already read is not read
 * again); the request itself otherwise. A body that names no version (or names one in no version's
 * shape), or a request with no header, is left to the handler's own rules.
 */
export function headedByBody(request: Request, body: unknown, log: (line: string) => void, text?: string): Request {
  const header = request.headers.get('mcp-protocol-version')
  const claimed = bodyVersion(body)
  if (header === null || claimed === undefined || !VERSION.test(claimed) || header.trim() === claimed)
    return request
  if (!told.has(log)) {
    told.add(log)
    log(`flatmcp proxy: a client sent Mcp-Protocol-Version ${shown(header)} with a body of protocol version ${shown(claimed)}; served in the body's (said once)`)
  }
  const headers = new Headers(request.headers)
  headers.set('mcp-protocol-version', claimed)
  return new Request(request.url, { method: request.method, headers, signal: request.signal, ...(text === undefined ? {} : { body: text }) })
}

type Handle = (request: Request, options: HandlerOptions) => Promise<Response>

/**
 * `handle` given each POST in its body's era: the body read once (within the handler's own bound)
 * and handed on parsed, so the handler reads it no second time.
 */
export function servedInBodyEra(handle: Handle, log: (line: string) => void): Handle {
  return async (request, options) => {
    if (request.method !== 'POST' || !request.headers.has('mcp-protocol-version'))
      return handle(request, options)
    if (options.parsedBody !== undefined)
      return handle(headedByBody(request, options.parsedBody, log), options)
    const read = await parsedText(request, MAX_BODY)
    if (read instanceof Response)
      return read
    if (!('parsed' in read))
      return handle(new Request(request, { body: read.text }), options)
    return handle(headedByBody(request, read.parsed, log, read.text), { ...options, parsedBody: read.parsed })
  }
}
