// The headers a 2026-07-28 HTTP request mirrors from its body (SEP-2243): `Mcp-Name` (the tool's
// name) and one `Mcp-Param-<Name>` per `x-mcp-header` property the tool declares. A call the proxy
// rewrote carries other arguments than the client's, so they are made again from the body sent on,
// by the upstream's own declarations; the client's are never copied (the upstream refuses a header
// that disagrees with the body).
import type { UpstreamTool } from '../../artifact/format'
import { declaredHeaders } from '@flatmcp/core'
import { isObject } from '../../util/object'

const PARAM_PREFIX = 'mcp-param-'
const BASE64_OPEN = '=?base64?'
const BASE64_CLOSE = '?='

/** A tool's header declarations: each property's path of keys from the arguments' root, and its header name. */
export type HeaderDeclarations = [path: string[], header: string][]

/** The declarations of an upstream tool's input schema. */
export function headerDeclarations(tool: UpstreamTool): HeaderDeclarations {
  return [...declaredHeaders(tool.inputSchema as never)].map(([pointer, header]) => [
    pointer.split('/').slice(1).filter((_, i) => i % 2 === 1).map(token => token.replaceAll('~1', '/').replaceAll('~0', '~')),
    header,
  ])
}

/** A primitive argument as its header says it (none for anything else, or a number a header cannot carry exactly). */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string')
    return value
  if (typeof value === 'boolean')
    return String(value)
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)))
    return String(value)
  return undefined
}

/** A value as a field value: plain printable ASCII as it is, anything else as `=?base64?…?=` of its UTF-8. */
function fieldValue(text: string): string {
  const plain = text !== '' && text === text.trim() && !(text.startsWith(BASE64_OPEN) && text.endsWith(BASE64_CLOSE)) && /^[\t\x20-\x7E]*$/.test(text)
  if (plain)
    return text
  let binary = ''
  for (const byte of new TextEncoder().encode(text))
    binary += String.fromCodePoint(byte)
  return `${BASE64_OPEN}${btoa(binary)}${BASE64_CLOSE}`
}

/**
 * `headers` with the body-mirrored ones made from the call sent on: `Mcp-Param-*` dropped and made
 * again from `args` by `declarations`, `Mcp-Name` set to the tool's name where the request carried one.
 */
export function mirrorCall(headers: Headers, name: string, args: unknown, declarations: HeaderDeclarations): void {
  for (const header of [...headers.keys()].filter(header => header.toLowerCase().startsWith(PARAM_PREFIX)))
    headers.delete(header)
  if (headers.has('mcp-name'))
    headers.set('mcp-name', fieldValue(name))
  for (const [path, header] of declarations) {
    let value: unknown = args
    for (const key of path)
      value = isObject(value) && Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined
    const text = value === null || value === undefined ? undefined : headerText(value)
    if (text !== undefined)
      headers.set(`Mcp-Param-${header}`, fieldValue(text))
  }
}
