import type { JsonPointer, JsonSchemaObject, ParserSemantics } from '../types'
import type { FlattenContext } from './context'
import { childPointer } from '../json'
import { noteOf, report } from './context'
import { withSentence } from './keywords'
import { validatorPattern } from './patterns'
import { isLegacyPattern } from './well-formed'

/** A raw JSON Schema's parser is a validator: every keyword means what validators read. */
export const VALIDATOR_SEMANTICS: ParserSemantics = {
  patternFlags: 'u',
  lengthUnit: 'codepoint',
  multipleOf: 'validator',
  trustedFormats: 'all',
  unknownKeys: 'keep',
}

function appendDescription(node: JsonSchemaObject, sentence: string): void {
  node.description = withSentence(node.description, sentence)
}

/**
 * Rewrites, in `out` (a fresh copy of `original`'s keywords), each keyword validators would read
 * more strictly than the original's parser does, so the schema accepts at least what the parser
 * accepts under every validator: a pattern with its flags folded in, a length in code points, a
 * `multipleOf` or a format that validators check otherwise moved into the description.
 */
export function faithfulKeywords(ctx: FlattenContext, original: JsonSchemaObject, out: JsonSchemaObject, path: JsonPointer): void {
  const { semantics } = ctx
  const note = noteOf(ctx, original)
  if (typeof out.pattern === 'string') {
    const pointer = childPointer(path, 'pattern')
    const flags = note?.patternFlags ?? semantics.patternFlags
    const translated = note?.patternInexact
      ? { dropped: 'the library checks more than it (its JSON pattern only approximates the check)' }
      : validatorPattern(out.pattern, flags)
    if ('dropped' in translated) {
      if (isLegacyPattern(out.pattern) && flags.includes('u'))
        report(ctx, 'malformed-schema', 'warning', pointer, `pattern ${JSON.stringify(out.pattern)} is not valid in unicode mode, which JSON Schema validators use (an escape such as \\- outside [ ]); dropped, so the schema only gets wider`)
      else
        report(ctx, 'keyword-dropped', 'info', pointer, `pattern ${JSON.stringify(out.pattern)} dropped: ${translated.dropped}`)
      delete out.pattern
    }
    else if (translated.changed) {
      const how = translated.widened ? 'validators read astral characters as one, the library as two halves' : flags.replace(/[gdu]/g, '') === '' ? 'the library reads it in legacy mode' : `the library tests it with flags "${flags}"`
      report(ctx, 'keyword-rewritten', 'info', pointer, `pattern ${JSON.stringify(out.pattern)} rewritten for unicode-mode validators (${how})`)
      out.pattern = translated.pattern
    }
  }
  // A length the library counts in UTF-16 units: an astral character is one code point to a
  // validator and two units to the library, so a minimum holds only at half its count.
  if ((semantics.lengthUnit === 'utf16' || note?.lengthInUnits) && typeof out.minLength === 'number' && out.minLength > 1) {
    const halved = Math.ceil(out.minLength / 2)
    report(ctx, 'keyword-rewritten', 'info', childPointer(path, 'minLength'), `minLength ${out.minLength} counts UTF-16 units; validators count code points, so it is advertised as ${halved}`)
    out.minLength = halved
  }
  if (typeof out.multipleOf === 'number' && (semantics.multipleOf === 'library' || !Number.isInteger(out.multipleOf))) {
    const why = semantics.multipleOf === 'library' ? 'the library\'s remainder check and validators\' division disagree on large and fractional values' : 'validators divide a fractional multipleOf in floating point and reject exact multiples'
    report(ctx, 'keyword-dropped', 'info', childPointer(path, 'multipleOf'), `multipleOf ${out.multipleOf} moved into the description: ${why}`)
    appendDescription(out, `Multiple of ${out.multipleOf}.`)
    delete out.multipleOf
  }
  if (typeof out.format === 'string' && semantics.trustedFormats !== 'all' && !semantics.trustedFormats.includes(out.format)) {
    report(ctx, 'format-moved', 'info', childPointer(path, 'format'), `format "${out.format}" moved into the description: format-asserting validators reject values the library accepts`)
    appendDescription(out, `Format: ${out.format}.`)
    delete out.format
  }
}
