// What a parser does beyond its JSON (zod's .catch(), preprocess, coerce, overwrites): the keys it
// accepts missing made optional, the node it accepts more of widened.
import type { JsonPointer, JsonSchemaObject } from '../types'
import type { FlattenContext } from './context'
import { isSchemaObject, withoutKeyword } from '../json'
import { noteOf, report } from './context'
import { splitByKind } from './facets'
import { baseType } from './widen-invisible'
import { ANNOTATIONS, sortKinds } from '../keywords'

/** Notes whose parser accepts values the JSON would reject: widened wherever they occur. */
const STRICTER_THAN_PARSER = new Set(['overwrite', 'coerce', 'catch', 'preprocess'])
/** Notes whose parser may accept a missing key: such a key is never required. */
const ACCEPTS_MISSING = new Set(['catch', 'preprocess'])

/** Applies what the parser does beyond the JSON: a key it accepts missing is optional; a node it accepts more of than the JSON says widens. */
export function adjustForInvisible(ctx: FlattenContext, original: JsonSchemaObject, node: JsonSchemaObject, path: JsonPointer): JsonSchemaObject {
  let out = node
  if (Array.isArray(out.required) && isSchemaObject(original.properties)) {
    const properties = original.properties
    // A `required` entry that is no string names no property (and cannot be used as a key: it may not even convert to one).
    const kept = out.required.filter(key => typeof key !== 'string' || !noteOf(ctx, properties[key])?.invisible?.some(kind => ACCEPTS_MISSING.has(kind)))
    if (kept.length !== out.required.length)
      out = kept.length > 0 ? { ...out, required: kept } : withoutKeyword(out, 'required')
  }
  const stricter = noteOf(ctx, original)?.invisible?.filter(kind => STRICTER_THAN_PARSER.has(kind)) ?? []
  if (stricter.length === 0)
    return out
  const widened = widenForParser(out, stricter)
  report(ctx, 'invisible-constraint', 'info', path, widened === 'any'
    ? `accepts any value: the parser takes input of any shape here (${stricter.join(', ')})`
    : `kept only the base type${widened === 'coerced' ? ' and what converts to it' : ''}: the parser accepts more than JSON Schema shows (${stricter.join(', ')})`)
  return widened === 'any' ? { ...annotationsOf(out), ...anyObject(ctx) } : widened === 'coerced' ? coercedNumber(out) : baseType(out)
}

/**
 * How far a node widens for its parser: `.catch()` and `z.preprocess()` take anything, a coerced
 * string or boolean takes anything (every value converts), a coerced number takes the kinds
 * `Number()` turns into numbers; an overwrite (`.trim()`…) keeps the base type.
 */
function widenForParser(node: JsonSchemaObject, stricter: string[]): 'any' | 'coerced' | 'base' {
  if (stricter.includes('catch') || stricter.includes('preprocess'))
    return 'any'
  if (stricter.includes('coerce')) {
    const kinds = splitByKind(node).kinds
    return [...kinds.keys()].every(kind => kind === 'number' || kind === 'integer') ? 'coerced' : 'any'
  }
  return 'base'
}

function anyObject(ctx: FlattenContext): JsonSchemaObject {
  const any = ctx.profile.anyValue()
  return isSchemaObject(any) ? any : {}
}

export function annotationsOf(node: JsonSchemaObject): JsonSchemaObject {
  return Object.fromEntries(Object.entries(node).filter(([keyword]) => ANNOTATIONS.has(keyword) && keyword !== 'default'))
}

/**
 * The strings `Number()` reads as a number: JavaScript's StringNumericLiteral (a decimal with sign,
 * fraction and exponent, or a 0x/0o/0b integer), within white space and line terminators (`\s` in
 * unicode mode is that very set), or nothing at all (which reads as 0).
 */
const NUMERIC_STRING = '^\\s*(?:[+-]?(?:\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)|0[bB][01]+|0[oO][0-7]+|0[xX][\\dA-Fa-f]+)?\\s*$'

/**
 * `Number()` turns strings, booleans, null and arrays into numbers; numbers keep their constraints.
 * A string is a number only as the numeric literals it can spell, and an array only as its one
 * element (`[]` is 0, `["7"]` is 7, `[1, 2]` is NaN): said exactly beside the number.
 */
function coercedNumber(node: JsonSchemaObject): JsonSchemaObject {
  // A converted value need not be one the enum lists, nor the default.
  const { enum: _enum, const: _const, default: _default, ...out } = node
  out.type = sortKinds([...splitByKind(node).kinds.keys(), 'array', 'string', 'boolean', 'null'])
  out.pattern = NUMERIC_STRING
  // The one element reads as its text: a numeric string, a number, null (""), or an array of one, and so on.
  out.items = { type: ['array', 'string', 'number', 'null'], pattern: NUMERIC_STRING, maxItems: 1, items: {} }
  out.maxItems = 1
  return out
}
