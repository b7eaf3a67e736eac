// Patterns as validators run them: for generated JavaScript patterns and flags, the unicode-mode
// rewrite accepts every string the original RegExp accepts, and, on strings without astral
// characters, exactly those.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { flags, pattern, text } from '../../../test/support/regex-arbitrary'
import { RUNS, SEED } from '../../../test/support/schema-arbitrary'
import { validatorPattern } from '../src/flatten/patterns'

function compiles(source: string, flagList: string): boolean {
  try {
    void new RegExp(source, flagList)
    return true
  }
  catch {
    return false
  }
}

function tests(regex: RegExp, value: string): boolean {
  regex.lastIndex = 0
  return regex.test(value)
}

const hasAstral = (value: string): boolean => /[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(value)

describe('validatorPattern', () => {
  it('accepts every string the original accepts, and on strings without astral characters only those', () => {
    let compared = 0
    let kept = 0
    fc.assert(fc.property(pattern, flags, fc.array(text, { minLength: 12, maxLength: 12 }), (source, flagList, strings) => {
      if (!compiles(source, flagList))
        return
      const translated = validatorPattern(source, flagList)
      if ('dropped' in translated)
        return
      kept++
      const original = new RegExp(source, flagList)
      const advertised = new RegExp(translated.pattern, 'u')
      for (const value of strings) {
        compared++
        const before = tests(original, value)
        if (before && !advertised.test(value))
          throw new Error(`/${source}/${flagList} accepts ${JSON.stringify(value)}; ${translated.pattern} rejects it`)
        if (!before && !hasAstral(value) && advertised.test(value))
          throw new Error(`/${source}/${flagList} rejects ${JSON.stringify(value)}; ${translated.pattern} accepts it (wider than it needs to be)`)
      }
    }), { numRuns: 3 * RUNS, seed: SEED })
    expect(kept).toBeGreaterThan(1000)
    expect(compared).toBeGreaterThan(12_000)
  })

  it('translates flags exactly where it can', () => {
    expect(validatorPattern('^[a-z]+$', 'i')).toEqual({ pattern: '^[A-Za-z]+$', changed: true, widened: false })
    expect(validatorPattern('^ok$', 'm')).toMatchObject({ pattern: '(?<![^\\n\\r\\u2028\\u2029])ok(?![^\\n\\r\\u2028\\u2029])', widened: false })
    expect(validatorPattern('^ok$', '')).toEqual({ pattern: '^ok$', changed: false, widened: false })
    expect(validatorPattern('^\\p{L}+$', 'u')).toEqual({ pattern: '^\\p{L}+$', changed: false, widened: false })
  })

  it('widens a pattern that reads astral characters as two halves, and says so', () => {
    expect(validatorPattern('^.{2}$', '')).toEqual({ pattern: '(?:^.{2}$)|[^\\u0000-\\uFFFF]', changed: true, widened: true })
  })

  it('bounds what a hostile pattern can ask for: repeated classes under i are rewritten, a huge pattern is dropped', () => {
    const repeated = validatorPattern(`^${'[a-c]'.repeat(1000)}$`, 'i')
    expect('pattern' in repeated && new RegExp(repeated.pattern, 'u').test('aBc'.repeat(334).slice(0, 1000))).toBe(true)
    expect(validatorPattern('x'.repeat(20_000), '')).toEqual({ dropped: 'it is longer than 10000 characters' })
  })

  it('drops what it cannot rewrite, with the reason', () => {
    expect(validatorPattern('(a)\\1', 'i')).toEqual({ dropped: expect.stringContaining('backreference') })
    expect(validatorPattern('^a$', 'iu')).toEqual({ dropped: expect.stringContaining('Unicode') })
    expect(validatorPattern('(', '')).toEqual({ dropped: expect.stringContaining('compile') })
  })
})
