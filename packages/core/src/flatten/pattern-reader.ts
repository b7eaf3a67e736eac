// A cursor over a pattern's source that reads what stands for code units: escapes and classes.
import type { Range } from './pattern-units'
import { SYNTAX } from './pattern-units'

/** A construct the rewrite does not know how to say in unicode mode: the pattern is dropped. */
export class Unsupported extends Error {}

export interface Mode { unicode: boolean, ignoreCase: boolean, multiline: boolean, dotAll: boolean }

export const CLASS_ESCAPES = new Set('dDwWsS')
/** Class escapes that match lone surrogate code units. */
export const WIDE_CLASS_ESCAPES = new Set('DWS')
const CONTROL_ESCAPES: Record<string, number> = { f: 12, n: 10, r: 13, t: 9, v: 11 }

/** A class as read: its units and ranges of them, and the class escapes it holds as written. */
export interface ClassRead {
  negated: boolean
  ranges: Range[]
  escapes: string[]
}

/** A class's members as they come: a unit waits for a dash that may make it a range's start. */
class ClassMembers {
  readonly ranges: Range[] = []
  private pending: number | undefined
  dash = false

  /** Whether a `-` here starts a range (it follows a unit, and no dash yet). */
  get rangeMayStart(): boolean {
    return this.pending !== undefined && !this.dash
  }

  add(unit: number): void {
    if (this.dash && this.pending !== undefined) {
      if (unit < this.pending)
        throw new Unsupported('a class range out of order')
      this.ranges.push([this.pending, unit])
      this.pending = undefined
      this.dash = false
      return
    }
    if (this.dash) {
      this.ranges.push([45, 45])
      this.dash = false
    }
    if (this.pending !== undefined)
      this.ranges.push([this.pending, this.pending])
    this.pending = unit
  }

  /** What waits is a unit of its own (and a dash a literal `-`). */
  flush(): void {
    if (this.pending !== undefined)
      this.ranges.push([this.pending, this.pending])
    if (this.dash)
      this.ranges.push([45, 45])
    this.pending = undefined
    this.dash = false
  }
}

export class PatternReader {
  protected i = 0

  constructor(protected readonly source: string, protected readonly mode: Mode) {}

  /** `\0`-`\377` as legacy mode reads them (at most three octal digits, value at most 255). */
  protected legacyOctal(): number {
    const match = /^[0-3][0-7]{0,2}|^[4-7][0-7]?/.exec(this.source.slice(this.i))
    if (!match) {
      // `\8`, `\9`: identity escapes.
      return this.source.charCodeAt(this.i++)
    }
    this.i += match[0].length
    return Number.parseInt(match[0], 8)
  }

  /**
   * The code unit of an escape that stands for one character, at `this.i` (on the backslash);
   * moves past it. `inClass` for the readings only a class has (`\b` is a backspace there).
   */
  protected unitEscape(inClass: boolean): number {
    const { source, mode } = this
    this.i++
    const next = source[this.i++]!
    if (next in CONTROL_ESCAPES)
      return CONTROL_ESCAPES[next]!
    if (inClass && next === 'b')
      return 8
    if (next === '0' && !/[0-9]/.test(source[this.i] ?? ''))
      return 0
    if (/[0-7]/.test(next) && !mode.unicode) {
      this.i--
      return this.legacyOctal()
    }
    if (next === 'x') {
      const hex = /^[0-9a-fA-F]{2}/.exec(source.slice(this.i))?.[0]
      if (hex) {
        this.i += 2
        return Number.parseInt(hex, 16)
      }
    }
    if (next === 'u') {
      const hex = /^[0-9a-fA-F]{4}/.exec(source.slice(this.i))?.[0]
      if (hex) {
        this.i += 4
        return Number.parseInt(hex, 16)
      }
      if (mode.unicode)
        throw new Unsupported('a code point escape')
    }
    if (next === 'c') {
      const letter = source[this.i]
      if (letter && (/[A-Za-z]/.test(letter) || (inClass && !mode.unicode && /[\d_]/.test(letter)))) {
        this.i++
        return letter.charCodeAt(0) % 32
      }
      if (mode.unicode)
        throw new Unsupported('a control escape')
      // Legacy mode reads `\c` before anything else as a backslash, then the `c`.
      this.i--
      return 92
    }
    if (mode.unicode && !SYNTAX.has(next) && !(inClass && next === '-'))
      throw new Unsupported(`the escape \\${next}`)
    return next.charCodeAt(0)
  }

  /** A class's members, from after its `[` through its `]` (moves past it). */
  protected readClass(): ClassRead {
    const { source, mode } = this
    const negated = source[this.i] === '^'
    if (negated)
      this.i++
    const members = new ClassMembers()
    const escapes: string[] = []
    for (;;) {
      const char = source[this.i]
      if (char === undefined)
        throw new Unsupported('an unclosed class')
      if (char === ']') {
        this.i++
        break
      }
      if (char === '-' && members.rangeMayStart && source[this.i + 1] !== ']') {
        members.dash = true
        this.i++
        continue
      }
      const escape = this.classEscape(members.dash)
      if (escape !== undefined) {
        members.flush()
        escapes.push(escape)
        this.i += escape.length
        continue
      }
      if (char === '\\') {
        members.add(this.unitEscape(true))
        continue
      }
      if (mode.unicode && source.codePointAt(this.i)! > 0xFFFF)
        throw new Unsupported('an astral character in a class')
      members.add(char.charCodeAt(0))
      this.i++
    }
    members.flush()
    return { negated, ranges: members.ranges, escapes }
  }

  /** A class escape at `this.i` inside a class (`\d`, `\p{…}`) as written; undefined for anything else. */
  private classEscape(afterDash: boolean): string | undefined {
    const { source, mode } = this
    if (source[this.i] !== '\\')
      return undefined
    const next = source[this.i + 1] ?? ''
    if (CLASS_ESCAPES.has(next)) {
      // `[\w-a]`: the dash is a literal, in legacy mode only.
      if (afterDash && mode.unicode)
        throw new Unsupported('a class range with a class escape')
      return source.slice(this.i, this.i + 2)
    }
    if ((next === 'p' || next === 'P') && mode.unicode) {
      const property = /^\\[pP]\{[\w=]+\}/.exec(source.slice(this.i))?.[0]
      if (!property || mode.ignoreCase)
        throw new Unsupported('a property escape')
      return property
    }
    return undefined
  }
}
