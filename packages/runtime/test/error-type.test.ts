// `error.type` and `rpc.response.status_code` name a failure in spans and metric series alike. The
// code is the upstream's to choose: an upstream answering each call with another code must not make
// a metric series per call (each kept for the process's life), so only JSON-RPC's reserved range
// (-32768 to -32000, the spec's errors and the server errors MCP uses) is named as it is.
import { describe, expect, it } from 'vitest'
import { OTHER, errorType } from '../src/telemetry/conventions'

describe('errorType', () => {
  it('names a reserved JSON-RPC code as it is, any other code _OTHER, and never the message', () => {
    expect(errorType({ code: -32602, message: 'bad' })).toEqual({ type: '-32602', code: '-32602' })
    expect(errorType({ code: -32000 })).toEqual({ type: '-32000', code: '-32000' })
    expect(errorType({ code: -32768 })).toEqual({ type: '-32768', code: '-32768' })
    for (const code of [1, 0, -1, 404, -31999, -32769, 987_654_321, Number.MAX_SAFE_INTEGER])
      expect(errorType({ code, message: 'secret' }), String(code)).toEqual({ type: OTHER })
    const many = new Set(Array.from({ length: 1000 }, (_, n) => errorType({ code: 100_000 + n }).type))
    expect(many.size).toBe(1)
  })
})
