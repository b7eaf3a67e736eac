// Canonical JSON and its SHA-256, one home for both: a tool's `schemaHash` (the progressive-disclosure
// proposal's: lowercase hex SHA-256 of the RFC 8785 canonical JSON of the tool as listed) and an
// upstream definition's digest (`digestOf`) are made here.
import { nodeBuiltin } from '../util/node-builtin'
import { nestsDeeper } from '../util/object'

/**
 * RFC 8785 canonical JSON: keys sorted by UTF-16 code units, no whitespace, numbers and strings as
 * ECMAScript's `JSON.stringify` writes them (which is what JCS specifies); undefined keys left out.
 */
export function canonicalJson(value: unknown): string {
  // Loops and concatenation, not entries, filter, map and join: a gateway hashes every tool in every
  // profile before its first list (about 5 times faster over the suite's 303 npm tools).
  if (typeof value !== 'object' || value === null)
    return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) {
    let text = '['
    for (let i = 0; i < value.length; i++)
      text += (i === 0 ? '' : ',') + canonicalJson(value[i])
    return `${text}]`
  }
  let text = '{'
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key]
    if (item !== undefined)
      text += (text === '{' ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(item)
  }
  return `${text}}`
}

/** Past this depth a value is hashed as `JSON.stringify` writes it: canonical JSON recurses, and a hostile definition may nest thousands deep. */
const CANONICAL_DEPTH = 256

/** What a value's hash is made of: its canonical JSON, or its JSON as given where it nests past `CANONICAL_DEPTH`. */
export function hashedText(value: unknown): string {
  return nestsDeeper(value, CANONICAL_DEPTH) ? JSON.stringify(value) : canonicalJson(value)
}

interface NodeCrypto { createHash: (algorithm: string) => { update: (text: string) => { digest: (encoding: 'hex') => string } } }

/** Node's own hashing where it is at hand: a call costs a tenth of Web Crypto's, which answers each digest a turn later. */
const nodeCrypto = nodeBuiltin<NodeCrypto>('node:crypto')

/** The lowercase hex SHA-256 of a text's UTF-8 bytes (Node's crypto where at hand; Web Crypto in Deno, Bun and workers). */
export async function sha256Hex(text: string): Promise<string> {
  if (nodeCrypto)
    return nodeCrypto.createHash('sha256').update(text).digest('hex')
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map(byte => byte.toString(16).padStart(2, '0')).join('')
}

// A listed tool is the same object every time it is served: its hash is made once.
const hashes = new WeakMap<object, Promise<string>>()

/** A tool's `schemaHash`: the lowercase hex SHA-256 of its canonical JSON (`hashedText`), as tools/list (and tools/describe) give it. */
export function schemaHash(tool: object): Promise<string> {
  let hash = hashes.get(tool)
  if (!hash) {
    hash = sha256Hex(hashedText(tool))
    hashes.set(tool, hash)
  }
  return hash
}
