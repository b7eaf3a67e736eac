// Canonical JSON in loops (issue 70) answers as the form written from RFC 8785's words did, for any
// JSON value with undefined keys, `__proto__` from JSON.parse and keys that sort unlike an object's
// own order ("10" before "2"); the SHA-256 from Node's crypto is Web Crypto's, lone surrogates included.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson, sha256Hex } from '../src/service/schema-hash'

// The canonical form before issue 70's change, as it was.
function before70(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map(item => before70(item ?? null)).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${before70(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

const keys = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('__proto__', '10', '2', 'é', 'e\u0301', '\uD83D\uDE00', '\uFFFF'))
const values = fc.letrec(tie => ({
  value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.constant(undefined), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(keys, tie('value'), { maxKeys: 5 })),
})).value

async function webCryptoHex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Buffer.from(digest).toString('hex')
}

describe('canonical JSON and its hash', () => {
  it('answers as the entries form did, for generated values and for JSON.parse\'s own __proto__ keys', () => {
    fc.assert(fc.property(values, (value) => {
      expect(canonicalJson(value)).toBe(before70(value))
    }), { numRuns: 2000 })
    const parsed = JSON.parse('{"b":1,"__proto__":{"x":[1,{"10":true,"2":null}]},"a":"\\ud800"}') as unknown
    expect(canonicalJson(parsed)).toBe(before70(parsed))
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":[1,{"10":true,"2":null}]},"a":"\\ud800","b":1}')
  })

  it('hashes as Web Crypto does, for any text (lone surrogates as U+FFFD)', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (text) => {
      expect(await sha256Hex(text)).toBe(await webCryptoHex(text))
    }), { numRuns: 500 })
    expect(await sha256Hex('\uD800')).toBe(await sha256Hex('\uFFFD'))
  })
})
