// The ajv set-ups the build, the probe and the proxy judge values with (core/check/ajv.ts): each as
// the client it stands for reads a schema.
import { describe, expect, it } from 'vitest'
import { ajvCompile } from '../src/core/check/ajv'

describe('ajv set-ups', () => {
  const email = { type: 'string', format: 'email' }
  it('assert formats where their clients do (Gemini CLI\'s, the proxy\'s), and only there', () => {
    expect(ajvCompile('ajv 2020', email)('not an email')).toBe(true)
    expect(ajvCompile('ajv draft-07', email)('not an email')).toBe(true)
    expect(ajvCompile('ajv 2020 + ajv-formats', email)('not an email')).toBe(false)
    expect(ajvCompile('proxy', email)('not an email')).toBe(false)
    expect(ajvCompile('proxy', email)('a@example.com')).toBe(true)
  })

  it('read each draft as its client does: a tuple is items in draft-07, prefixItems in 2020-12', () => {
    const draft7Tuple = { type: 'array', items: [{ type: 'string' }], additionalItems: false }
    expect(ajvCompile('ajv draft-07', draft7Tuple)(['a', 'b'])).toBe(false)
    expect(ajvCompile('ajv draft-07', draft7Tuple)(['a'])).toBe(true)
    const tuple2020 = { type: 'array', prefixItems: [{ type: 'string' }], items: false }
    expect(ajvCompile('ajv 2020', tuple2020)(['a', 'b'])).toBe(false)
    expect(ajvCompile('ajv 2020', tuple2020)(['a'])).toBe(true)
  })

  it('keep no schema they compiled: one with an $id compiles again, as a new server\'s list does', () => {
    const schema = { $id: 'https://example.com/tool', type: 'object', properties: { q: { type: 'string' } } }
    for (let round = 0; round < 2; round++) {
      const validate = ajvCompile('ajv 2020', { ...schema })
      expect(validate({ q: 1 })).toBe(false)
      expect(validate.errors?.[0]?.instancePath).toBe('/q')
    }
  })
})
