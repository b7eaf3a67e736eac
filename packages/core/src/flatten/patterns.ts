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

import type { Mode } from './pattern-reader'
import { Unsupported } from './pattern-reader'
import { Translator } from './pattern-translator'
import { compiles } from './well-formed'

export type PatternTranslation =
  | { pattern: string, changed: boolean, widened: boolean }
  | { dropped: string }

/** The longest pattern rewritten; a longer one is dropped (the schema only gets wider). */
const MAX_PATTERN = 10_000

/** Any string holding an astral character, in unicode mode (matches nothing in legacy mode). */
const ASTRAL = '[^\\u0000-\\uFFFF]'

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
