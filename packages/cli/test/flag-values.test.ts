// A number a flag takes is written in digits (issue 69): an empty value (`--http=`, `--timeout=`) or a
// spelling Number() happens to read (`0x1f90`, `1e3`, ` 5`) is a usage error, not a port or time of
// its own choosing (`--http=` listened on any free port, `--timeout=` waited 0 ms).
import { describe, expect, it } from 'vitest'
import { UsageError } from '../src/commands/command'
import { servingOf } from '../src/commands/proxy'
import { readUpstreamCommand } from '../src/commands/upstream-args'

describe('a flag that takes a number', () => {
  it.each(['', ' ', '0x1f90', '1e3', ' 5', '5 ', '+5', '5.0'])('refuses %j', async (value) => {
    for (const flag of ['timeout', 'compile-timeout', 'strict-budget'])
      expect(() => readUpstreamCommand('proxy', [`--${flag}=${value}`, '--', 'node', 'server.js'])).toThrow(UsageError)
    const { values } = readUpstreamCommand('proxy', [`--http=${value}`, '--', 'node', 'server.js'])
    await expect(servingOf(values)).rejects.toThrow(/--http takes a whole number/)
  })

  it('takes digits, 0 among them', () => {
    expect(readUpstreamCommand('proxy', ['--timeout=0', '--strict-budget', '48', '--', 'node', 'server.js']).common).toMatchObject({ timeoutMs: 0, strictBudget: 48 })
  })
})
