// A tool's `schemaHash`, as the progressive-disclosure proposal names it: SHA-256 over the RFC 8785
// (JCS) canonical JSON of the tool as listed, so a client can tell a schema it holds is current.

/**
 * RFC 8785 canonical JSON: keys sorted by UTF-16 code units, no whitespace, numbers and strings as
 * ECMAScript's `JSON.stringify` writes them (which is what JCS specifies).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map(item => canonicalJson(item ?? null)).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** `sha256:` and the hex SHA-256 of the tool's canonical JSON. */
export async function schemaHash(tool: object): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(tool)))
  return `sha256:${[...new Uint8Array(digest)].map(byte => byte.toString(16).padStart(2, '0')).join('')}`
}
