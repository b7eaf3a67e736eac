// `--log-level`: which operator lines are said (proxy/operator-log.ts), and how a call is said at debug.
import { describe, expect, it } from 'vitest'
import { callLine, operatorLog } from '../src/proxy/operator-log'

describe('operatorLog', () => {
  const said = (level?: Parameters<typeof operatorLog>[0]): string[] => {
    const lines: string[] = []
    const log = operatorLog(level, line => lines.push(line))
    log('stopped', 'error')
    log('served as it came')
    log('serving 3 tools', 'info')
    log('call', 'debug')
    return lines
  }

  it('says each line at its level and above: a line without one is a warning', () => {
    expect(said('error')).toEqual(['stopped'])
    expect(said('warn')).toEqual(['stopped', 'served as it came'])
    expect(said()).toEqual(['stopped', 'served as it came', 'serving 3 tools'])
    expect(said('debug')).toEqual(['stopped', 'served as it came', 'serving 3 tools', 'call'])
  })

  it('says a call by its tool, upstream, caller, outcome, time and repaired paths', () => {
    const call = { time: '2026-12-05T00:00:00.000Z', tool: 'send\nx', upstream: 'chat', caller: 'ci', outcome: 'tool-error' as const, durationMs: 12.6, repaired: ['/media', '/limit'] }
    expect(callLine(call)).toBe('flatmcp proxy: call "send\\nx" (chat) by ci → tool-error in 13 ms; repaired /media, /limit')
    expect(callLine({ ...call, caller: undefined, repaired: [] })).toBe('flatmcp proxy: call "send\\nx" (chat) → tool-error in 13 ms')
    // The upstream names itself: a line break in its name cannot start a forged line.
    expect(callLine({ ...call, upstream: 'chat\nflatmcp proxy: forged' }).split('\n')).toHaveLength(1)
  })

  it('says another request that went upstream by its method and what it names, and a refusal by the limit it met', () => {
    const read = { time: '2026-12-05T00:00:00.000Z', method: 'resources/read', tool: 'file:///a', upstream: 'files', outcome: 'ok' as const, durationMs: 3, repaired: [] }
    expect(callLine(read)).toBe('flatmcp proxy: resources/read "file:///a" (files) → ok in 3 ms')
    expect(callLine({ ...read, method: 'prompts/list', tool: '' })).toBe('flatmcp proxy: prompts/list (files) → ok in 3 ms')
    expect(callLine({ time: read.time, caller: 'ci', id: 4, method: 'tools/call', tool: 'whoami', outcome: 'refused', why: '3 calls a minute' })).toBe('flatmcp proxy: call "whoami" by ci → refused (3 calls a minute)')
  })
})
