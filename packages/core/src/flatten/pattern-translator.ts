// A pattern rewritten atom by atom for unicode mode, as its flags and legacy syntax meant it.
import type { Mode } from './pattern-reader'
import type { Range } from './pattern-units'
import { CLASS_ESCAPES, PatternReader, Unsupported, WIDE_CLASS_ESCAPES } from './pattern-reader'
import { caseClosed, caseGroups, hex4, mergeRanges, rangesText, unitText } from './pattern-units'

const LINE_START = '(?<![^\\n\\r\\u2028\\u2029])'
const LINE_END = '(?![^\\n\\r\\u2028\\u2029])'

/** Counts capture groups, and tells whether any is named: what a `\1` or `\k` means depends on it. */
function groupsOf(source: string): { count: number, named: boolean } {
  let count = 0
  let named = false
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    if (char === '\\') {
      i++
    }
    else if (inClass) {
      inClass = char !== ']'
    }
    else if (char === '[') {
      inClass = true
    }
    else if (char === '(') {
      if (source[i + 1] !== '?') {
        count++
      }
      else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
        count++
        named = true
      }
    }
  }
  return { count, named }
}

export class Translator extends PatternReader {
  private out = ''
  sensitive = false
  changed = false
  /** What the last atom was: a quantifier may not follow a lookahead in unicode mode. */
  private last: 'atom' | 'lookahead' | 'none' = 'none'
  private readonly groups: { count: number, named: boolean }
  private readonly openings: ('group' | 'lookahead' | 'lookbehind')[] = []

  constructor(source: string, mode: Mode) {
    super(source, mode)
    this.groups = groupsOf(source)
  }

  run(): string {
    while (this.i < this.source.length)
      this.step()
    return this.out
  }

  private emit(text: string, kind: 'atom' | 'lookahead' | 'none' = 'atom', same = true): void {
    this.out += text
    this.last = kind
    if (!same)
      this.changed = true
  }

  private literal(unit: number, written: string): void {
    if (unit >= 0xD800 && unit <= 0xDFFF && !this.mode.unicode)
      this.sensitive = true
    if (this.mode.ignoreCase && !this.mode.unicode) {
      const { canonical, groups } = caseGroups()
      const group = groups.get(canonical[unit]!)!
      if (group.length > 1) {
        this.emit(`[${rangesText(mergeRanges(group.map(other => [other, other] as Range)))}]`, 'atom', false)
        return
      }
    }
    // A trail surrogate stands in a group of its own: written after a lead surrogate it would join
    // it into one astral character in unicode mode, where legacy mode reads two units.
    const text = this.mode.unicode ? written : unit >= 0xDC00 && unit <= 0xDFFF ? `(?:${hex4(unit)})` : unitText(unit, false)
    this.emit(text, 'atom', text === written)
  }

  private step(): void {
    const { source } = this
    const start = this.i
    const char = source[this.i++]!
    switch (char) {
      case '\\': return this.escape(start)
      case '[': return this.characterClass(start)
      case '.':
        this.sensitive ||= !this.mode.unicode
        return this.emit(this.mode.dotAll ? '[\\s\\S]' : '.', 'atom', !this.mode.dotAll)
      case '^': return this.emit(this.mode.multiline ? LINE_START : '^', 'none', !this.mode.multiline)
      case '$': return this.emit(this.mode.multiline ? LINE_END : '$', 'none', !this.mode.multiline)
      case '|': return this.emit('|', 'none')
      case '(': return this.openGroup()
      case ')': {
        const opened = this.openings.pop()
        return this.emit(')', opened === 'lookahead' ? 'lookahead' : opened === 'lookbehind' ? 'none' : 'atom')
      }
      case '*': case '+': case '?': return this.quantifier(char)
      case '{': {
        const bounds = /^\{\d+(?:,\d*)?\}/.exec(source.slice(start))
        if (bounds) {
          this.i = start + bounds[0].length
          return this.quantifier(bounds[0])
        }
        if (this.mode.unicode)
          throw new Unsupported('a lone "{"')
        return this.literal(char.charCodeAt(0), char)
      }
      default: {
        const unit = char.charCodeAt(0)
        return this.literal(unit, char)
      }
    }
  }

  private quantifier(text: string): void {
    if (this.last === 'lookahead')
      throw new Unsupported('a quantified lookahead')
    const lazy = this.source[this.i] === '?' ? '?' : ''
    this.i += lazy.length
    this.emit(text + lazy, 'none')
  }

  private openGroup(): void {
    const rest = this.source.slice(this.i)
    const opener = /^\?(?:[:=!]|<[=!]|<[A-Za-z_$][\w$]*>)/.exec(rest)?.[0] ?? ''
    if (rest.startsWith('?') && opener === '')
      throw new Unsupported('a group modifier')
    this.i += opener.length
    this.openings.push(opener === '?=' || opener === '?!' ? 'lookahead' : opener === '?<=' || opener === '?<!' ? 'lookbehind' : 'group')
    this.emit(`(${opener}`, 'none')
  }

  /** An escape outside a class. */
  private escape(start: number): void {
    const { source, mode } = this
    const next = source[this.i]
    if (next === undefined)
      throw new Unsupported('a trailing backslash')
    this.i++
    if (CLASS_ESCAPES.has(next)) {
      this.sensitive ||= !mode.unicode && WIDE_CLASS_ESCAPES.has(next)
      return this.emit(`\\${next}`)
    }
    if (next === 'b' || next === 'B')
      return this.emit(`\\${next}`, 'none')
    if (/[1-9]/.test(next)) {
      const digits = /^\d*/.exec(source.slice(this.i))![0]
      const number = Number(next + digits)
      if (mode.unicode || number <= this.groups.count) {
        if (mode.ignoreCase)
          throw new Unsupported('a backreference under the i flag')
        this.i += digits.length
        return this.emit(`\\${number}`)
      }
      this.i = start + 1
      return this.literal(this.legacyOctal(), source.slice(start, this.i))
    }
    if (next === 'k' && (mode.unicode || this.groups.named)) {
      const name = /^<[A-Za-z_$][\w$]*>/.exec(source.slice(this.i))?.[0]
      if (!name || mode.ignoreCase)
        throw new Unsupported('a named backreference')
      this.i += name.length
      return this.emit(`\\k${name}`)
    }
    if ((next === 'p' || next === 'P') && mode.unicode) {
      const property = /^\{[\w=]+\}/.exec(source.slice(this.i))?.[0]
      if (!property || mode.ignoreCase)
        throw new Unsupported('a property escape')
      this.i += property.length
      return this.emit(`\\${next}${property}`)
    }
    this.i = start
    const unit = this.unitEscape(false)
    this.literal(unit, source.slice(start, this.i))
  }

  private characterClass(start: number): void {
    const { source, mode } = this
    const { negated, ranges, escapes } = this.readClass()
    if (!mode.unicode && (negated || escapes.some(e => WIDE_CLASS_ESCAPES.has(e[1]!)) || ranges.some(([lo, hi]) => lo <= 0xDFFF && hi >= 0xD800)))
      this.sensitive = true
    const written = source.slice(start, this.i)
    if (mode.unicode)
      return this.emit(written)
    const closed = mode.ignoreCase ? caseClosed(ranges) : ranges
    const text = `[${negated ? '^' : ''}${rangesText(mergeRanges(closed))}${escapes.join('')}]`
    this.emit(text, 'atom', text === written)
  }
}
