// The original schemas as the probe reads samples with them (core/check/superset.ts): a JSON Schema
// part is judged by every client validator, compiled once per tool however many samples it reads.
import { describe, expect, it, vi } from 'vitest'
import { originalReader } from '../src/core/check/superset'
import { CLIENT_VALIDATORS } from '../src/core/check/validators'

describe('originalReader', () => {
  const part = { type: 'object', properties: { path: { type: 'string', minLength: 1 }, depth: { type: 'integer' } }, required: ['path'] }

  it('compiles a JSON part once for all the values it reads', async () => {
    const spies = CLIENT_VALIDATORS.map(validator => vi.spyOn(validator, 'compile'))
    try {
      const reader = originalReader([part], undefined, 'json-schema')
      for (let n = 0; n < 25; n++)
        await reader.read({ path: `p${n}`, depth: n })
      expect(spies.map(spy => spy.mock.calls.length)).toEqual(CLIENT_VALIDATORS.map(() => 1))
    }
    finally {
      spies.forEach(spy => spy.mockRestore())
    }
  })

  it('still rejects what any client validator rejects, and accepts the rest', async () => {
    const reader = originalReader([part], undefined, 'json-schema')
    expect(await reader.read({ path: '' })).toBeUndefined()
    expect(await reader.read({ depth: 1 })).toBeUndefined()
    expect(await reader.read({ path: 'a', depth: 1.5 })).toBeUndefined()
    expect(await reader.read({ path: 'a', depth: 2 })).toEqual({ output: { path: 'a', depth: 2 } })
  })
})
