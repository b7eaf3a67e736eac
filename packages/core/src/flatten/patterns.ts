/**
 * A schema library tests a `pattern` as the RegExp it was written as: with its flags (which the JSON
 * loses) and, for JavaScript libraries, without the `u` flag. JSON Schema validators compile the
 * bare source in unicode mode. This module rewrites a pattern so that, compiled with `u`, it accepts
 * every string the library's RegExp accepts: exactly where it can, otherwise a little more.
 *
 * - `i` becomes case classes (JavaScript's own canonicalization, computed from `toUpperCase`);
 * - `m` turns `^` and `$` into line-boundary lookarounds; `s` turns `.` into `[\s\S]`; `y` anchors;
 * - legacy syntax unicode mode rejects (identity escapes, octal escapes, lone braces) is respelled;
 * - a pattern whose atoms can match half of a surrogate pair (`.`, `[^…]`, `\S`…) reads astral
 *   characters differently in the two modes, so it also accepts any string holding one.
 */

import { compiles } from './well-formed'

export type PatternTranslation =
  | { pattern: string, changed: boolean, widened: boolean }
  | { dropped: string }

/** The longest pattern rewritten; a longer one is dropped (the schema only gets wider). */
const MAX_PATTERN = 10_000

/** Any string holding an astral character, in unicode mode (matches nothing in legacy mode). */
const ASTRAL = '[^\\u0000-\\uFFFF]'
const LINE_START = '(?<![^\\n\\r\\u2028\\u2029])'
const LINE_END = '(?![^\\n\\r\\u2028\\u2029])'
const SYNTAX = new Set('^$\\.*+?()[]{}|/')
const CLASS_ESCAPES = new Set('dDwWsS')
/** Class escapes that match lone surrogate code units. */
const WIDE_CLASS_ESCAPES = new Set('DWS')
const CONTROL_ESCAPES: Record<string, number> = { f: 12, n: 10, r: 13, t: 9, v: 11 }

let canonical: Uint16Array | undefined
let groups: Map<number, number[]> | undefined

/** JavaScript's non-unicode case canonicalization (ECMA-262 Canonicalize), for every code unit. */
function caseGroups(): { canonical: Uint16Array, groups: Map<number, number[]> } {
  if (!canonical || !groups) {
    canonical = new Uint16Array(0x10000)
    groups = new Map()
    for (let unit = 0; unit < 0x10000; unit++) {
      const upper = String.fromCharCode(unit).toUpperCase()
      const mapped = upper.length === 1 ? upper.charCodeAt(0) : unit
      const canon = unit >= 128 && mapped < 128 ? unit : mapped
      canonical[unit] = canon
      const group = groups.get(canon)
      if (group)
        group.push(unit)
      else
        groups.set(canon, [unit])
    }
  }
  return { canonical, groups }
}

function hex4(unit: number): string {
  return `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`
}

/** One code unit as unicode-mode pattern text, outside a class or inside one. */
function unitText(unit: number, inClass: boolean): string {
  const char = String.fromCharCode(unit)
  if (/[\w ]/.test(char) && unit < 128)
    return char
  if (unit > 32 && unit < 127)
    return (inClass ? '\\^-[]' : [...SYNTAX].join('')).includes(char) ? `\\${char}` : char
  return hex4(unit)
}

type Range = [number, number]

/** Ranges as class text. A trail-surrogate range goes first, so no lead escape ever precedes it. */
function rangesText(ranges: Range[]): string {
  const trail = (r: Range): boolean => r[0] >= 0xDC00 && r[0] <= 0xDFFF
  const ordered = [...ranges.filter(trail), ...ranges.filter(r => !trail(r))]
  return ordered.map(([lo, hi]) => lo === hi ? unitText(lo, true) : `${unitText(lo, true)}${hi === lo + 1 ? '' : '-'}${unitText(hi, true)}`).join('')
}

function toRanges(members: Uint8Array): Range[] {
  const ranges: Range[] = []
  for (let unit = 0; unit < members.length; unit++) {
    if (!members[unit])
      continue
    let end = unit
    while (end + 1 < members.length && members[end + 1])
      end++
    ranges.push([unit, end])
    unit = end
  }
  return ranges
}

const closedClasses = new Map<string, Range[]>()

/** Every unit case-equivalent to one in `ranges` (remembered: a pattern may repeat a class many times). */
function caseClosed(ranges: Range[]): Range[] {
  const key = JSON.stringify(ranges)
  let closed = closedClasses.get(key)
  if (!closed) {
    closed = closeOverCase(ranges)
    closedClasses.set(key, closed)
  }
  return closed
}

function closeOverCase(ranges: Range[]): Range[] {
  const { canonical, groups } = caseGroups()
  const members = new Uint8Array(0x10000)
  for (const [lo, hi] of ranges) {
    for (let unit = lo; unit <= hi; unit++) {
      for (const other of groups.get(canonical[unit]!)!)
        members[other] = 1
    }
  }
  return toRanges(members)
}

class Unsupported extends Error {}

interface Mode { unicode: boolean, ignoreCase: boolean, multiline: boolean, dotAll: boolean }

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

class Translator {
  private i = 0
  private out = ''
  sensitive = false
  changed = false
  /** What the last atom was: a quantifier may not follow a lookahead in unicode mode. */
  private last: 'atom' | 'lookahead' | 'none' = 'none'
  private readonly groups: { count: number, named: boolean }
  private readonly openings: ('group' | 'lookahead' | 'lookbehind')[] = []

  constructor(private readonly source: string, private readonly mode: Mode) {
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

  /** `\0`-`\377` as legacy mode reads them (at most three octal digits, value at most 255). */
  private legacyOctal(): number {
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
  private unitEscape(inClass: boolean): number {
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

  private characterClass(start: number): void {
    const { source, mode } = this
    const negated = source[this.i] === '^'
    if (negated)
      this.i++
    const ranges: Range[] = []
    const escapes: string[] = []
    let pending: number | undefined
    let dash = false
    const add = (unit: number): void => {
      if (dash && pending !== undefined) {
        if (unit < pending)
          throw new Unsupported('a class range out of order')
        ranges.push([pending, unit])
        pending = undefined
        dash = false
        return
      }
      if (dash) {
        ranges.push([45, 45])
        dash = false
      }
      if (pending !== undefined)
        ranges.push([pending, pending])
      pending = unit
    }
    const flush = (): void => {
      if (pending !== undefined)
        ranges.push([pending, pending])
      if (dash)
        ranges.push([45, 45])
      pending = undefined
      dash = false
    }
    for (;;) {
      const char = source[this.i]
      if (char === undefined)
        throw new Unsupported('an unclosed class')
      if (char === ']') {
        this.i++
        break
      }
      if (char === '-' && pending !== undefined && !dash && source[this.i + 1] !== ']') {
        dash = true
        this.i++
        continue
      }
      if (char === '\\' && CLASS_ESCAPES.has(source[this.i + 1] ?? '')) {
        // `[\w-a]`: the dash is a literal, in legacy mode only.
        if (dash && mode.unicode)
          throw new Unsupported('a class range with a class escape')
        flush()
        escapes.push(source.slice(this.i, this.i + 2))
        this.i += 2
        continue
      }
      if (char === '\\' && (source[this.i + 1] === 'p' || source[this.i + 1] === 'P') && mode.unicode) {
        const property = /^\\[pP]\{[\w=]+\}/.exec(source.slice(this.i))?.[0]
        if (!property || mode.ignoreCase)
          throw new Unsupported('a property escape')
        flush()
        escapes.push(property)
        this.i += property.length
        continue
      }
      if (char === '\\') {
        add(this.unitEscape(true))
        continue
      }
      if (mode.unicode) {
        const point = source.codePointAt(this.i)!
        if (point > 0xFFFF)
          throw new Unsupported('an astral character in a class')
      }
      add(char.charCodeAt(0))
      this.i++
    }
    flush()
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

function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0])
  const out: Range[] = []
  for (const range of sorted) {
    const last = out.at(-1)
    if (last && range[0] <= last[1] + 1)
      last[1] = Math.max(last[1], range[1])
    else
      out.push([...range])
  }
  return out
}

/**
 * A pattern as JSON Schema validators run it (unicode mode, no flags) that accepts every string
 * `new RegExp(source, flags)` accepts. Dropped when no such rewrite is known.
 */
export function validatorPattern(source: string, flags: string): PatternTranslation {
  // Bounds the work a hostile schema can ask for; a pattern this long is no tool argument's.
  if (source.length > MAX_PATTERN)
    return { dropped: `it is longer than ${MAX_PATTERN} characters` }
  if (!compiles(source, flags))
    return { dropped: 'it does not compile with its own flags' }
  const unknown = [...flags].filter(flag => !'dgimsuvy'.includes(flag))
  if (unknown.length > 0)
    return { dropped: `its flag "${unknown.join('')}" is unknown` }
  const unicodeSets = flags.includes('v')
  if (unicodeSets) {
    // The v flag's class syntax is its own; a pattern that reads the same under u is kept as is.
    if (/[ims]/.test(flags) || !compiles(source, 'u'))
      return { dropped: 'its v flag has no unicode-mode equivalent here' }
    return flags.includes('y') ? { pattern: `^(?:${source})`, changed: true, widened: false } : { pattern: source, changed: false, widened: false }
  }
  const mode: Mode = { unicode: flags.includes('u'), ignoreCase: flags.includes('i'), multiline: flags.includes('m'), dotAll: flags.includes('s') }
  // Unicode case folding has no table here to spell it out with.
  if (mode.unicode && mode.ignoreCase)
    return { dropped: 'its iu flags fold case by Unicode rules' }
  let translated: string
  let translator: Translator
  try {
    translator = new Translator(source, mode)
    translated = translator.run()
  }
  catch (error) {
    if (error instanceof Unsupported)
      return { dropped: `${error.message} cannot be rewritten for unicode mode` }
    throw error
  }
  let pattern = translated
  let changed = translator.changed || mode.ignoreCase || mode.multiline || mode.dotAll
  if (flags.includes('y')) {
    pattern = `^(?:${pattern})`
    changed = true
  }
  const widened = translator.sensitive
  if (widened)
    pattern = `(?:${pattern})|${ASTRAL}`
  if (!compiles(pattern, 'u'))
    return { dropped: 'its unicode-mode rewrite does not compile' }
  return { pattern, changed: changed || widened, widened }
}
