// What the operator's outputs hold of text from elsewhere: a caller's cut to one stated length (a
// surrogate pair kept whole), a server's control characters escaped so none reaches the terminal.
import fc from 'fast-check'
import v8 from 'node:v8'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { CALLER_TEXT_CHARS, callerText } from '../src/util/caller-text'
import { escapeControl } from '../src/util/control-chars'

describe('the operator\'s text', () => {
  it('a caller\'s text is held whole up to the stated length, else its start and a mark, never a lone half of a pair', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: CALLER_TEXT_CHARS * 3 }), (text) => {
      const held = callerText(text)
      if (text.length <= CALLER_TEXT_CHARS)
        return held === text
      expect(held.endsWith('…')).toBe(true)
      expect(held.length).toBeLessThanOrEqual(CALLER_TEXT_CHARS + 1)
      expect(text.startsWith(held.slice(0, -1))).toBe(true)
      expect(held.slice(0, -1)).toBe(Buffer.from(held.slice(0, -1), 'utf8').toString('utf8'))
      return true
    }))
    expect(callerText(12)).toBe('12')
  })

  it('a caller\'s long text held cut keeps none of the whole in memory (a span or a map may keep what is held)', () => {
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as () => void
    gc()
    const before = process.memoryUsage().heapUsed
    // 64 names of 1 MiB each, as a request's parsed body holds them: held whole, 64 MiB; cut, a few KiB.
    const held = Array.from({ length: 64 }, (_, i) => callerText(JSON.parse(JSON.stringify(`${i}:${'x'.repeat(1 << 20)}`)) as string))
    gc()
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(16 << 20)
    expect(held.every((text, i) => text.startsWith(`${i}:x`) && text.length === CALLER_TEXT_CHARS + 1)).toBe(true)
  })

  it('escaped text holds no control character but tab (and line feed where lines are kept), and reads back as it came', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      // eslint-disable-next-line no-control-regex
      expect(escapeControl(text)).not.toMatch(/[\x00-\x08\x0A-\x1F\x7F-\x9F]/)
      // eslint-disable-next-line no-control-regex
      expect(escapeControl(text, true)).not.toMatch(/[\x00-\x08\x0B-\x1F\x7F-\x9F]/)
      // Nothing but control characters changes: with the escapes read back (and no backslash of its own), it is the same text.
      if (!text.includes('\\'))
        expect(escapeControl(text).replace(/\\(?:x([0-9a-f]{2})|([nr]))/g, (_, hex: string | undefined, named: string | undefined) => hex ? String.fromCharCode(Number.parseInt(hex, 16)) : named === 'n' ? '\n' : '\r')).toBe(text)
    }))
    expect(escapeControl('a\rb\x1B[2J\x9Bc\x7F\td')).toBe('a\\rb\\x1b[2J\\x9bc\\x7f\td')
  })
})
