import type { JsonPointer, JsonSchema, JsonSchemaObject, ParserSemantics } from '../types'
import type { FlattenContext } from './context'
import { childPointer, isSchemaObject, setOwn } from '../json'
import { noteOf, report } from './context'
import { ALL_KINDS, ANNOTATIONS, mapSubschemas, withSentence } from '../keywords'
import { validatorPattern } from './patterns'
import { isLegacyPattern } from './well-formed'

/** A raw JSON Schema's parser is a validator: every keyword means what validators read. */
export const VALIDATOR_SEMANTICS: ParserSemantics = {
  patternFlags: 'u',
  lengthUnit: 'codepoint',
  multipleOf: 'validator',
  trustedFormats: 'all',
  unknownKeys: 'keep',
  objectKeys: 'own',
  refSiblings: 'and',
  nullAsAbsent: 'never',
}

function appendDescription(node: JsonSchemaObject, sentence: string): void {
  node.description = withSentence(node.description, sentence)
}

/** Keys some array has: its indices and what arrays inherit (`length`, `map`…). */
function isArrayKey(key: string): boolean {
  return key in [] || /^(?:0|[1-9]\d*)$/.test(key)
}

/**
 * An object read with JavaScript's `in` and `typeof`: a key every object inherits (`constructor`,
 * `toString`…) is present even when not sent, and an array is an object, so an object none of
 * whose required keys an array lacks also takes arrays. Not at the root: a call's arguments are
 * an object.
 */
export function keysAsJavaScriptSees(ctx: FlattenContext, node: JsonSchemaObject, path: JsonPointer): JsonSchemaObject {
  if (ctx.semantics.objectKeys !== 'in' || node.type !== 'object')
    return node
  const out = { ...node }
  if (Array.isArray(out.required)) {
    const inherited = out.required.filter(key => typeof key === 'string' && key in {})
    if (inherited.length > 0) {
      report(ctx, 'keyword-rewritten', 'info', childPointer(path, 'required'), `${inherited.map(key => JSON.stringify(key)).join(', ')} not required: every object inherits ${inherited.length === 1 ? 'it' : 'them'}, and the library finds keys with \`in\``)
      const required = out.required.filter(key => !inherited.includes(key))
      if (required.length > 0)
        out.required = required
      else
        delete out.required
    }
  }
  if (path !== '' && (!Array.isArray(out.required) || out.required.every(key => typeof key === 'string' && isArrayKey(key)))) {
    report(ctx, 'keyword-rewritten', 'info', childPointer(path, 'type'), 'type "object" also takes an array: to the library an array is an object, and it has every key this object requires')
    Object.assign(out, { type: ['object', 'array'], ...arrayItems(out) })
  }
  return out
}

/**
 * ajv reads a property with `data[key]`, so an optional key every object inherits (`constructor`,
 * `toString`…) that was not sent is read as the inherited member (a function), which any typed
 * schema rejects: such a key is advertised with its annotations only, its kinds in the description,
 * everywhere in the finished document (unions merged, so the keys are final). Shared nodes once.
 */
export function untypedInheritedKeys(ctx: FlattenContext, schema: JsonSchema): JsonSchema {
  const done = new Map<object, JsonSchema>()
  const visit = (node: JsonSchema, path: JsonPointer): JsonSchema => {
    if (!isSchemaObject(node))
      return node
    const known = done.get(node)
    if (known)
      return known
    const out = inheritedOptional(ctx, mapSubschemas(node, (child, keyword, key) => visit(child, key === undefined ? childPointer(path, keyword) : childPointer(path, keyword, key))), path)
    done.set(node, out)
    return out
  }
  return visit(schema, '')
}

function inheritedOptional(ctx: FlattenContext, node: JsonSchemaObject, path: JsonPointer): JsonSchemaObject {
  if (!isSchemaObject(node.properties))
    return node
  const required = Array.isArray(node.required) ? node.required : []
  const properties = node.properties
  const keys = Object.keys(properties).filter(key => key in {} && !required.includes(key) && isSchemaObject(properties[key]) && Object.keys(properties[key] as object).some(keyword => !ANNOTATIONS.has(keyword)))
  if (keys.length === 0)
    return node
  const out = { ...node, properties: { ...properties } }
  for (const key of keys) {
    const child = properties[key] as JsonSchemaObject
    const kept = Object.fromEntries(Object.entries(child).filter(([keyword]) => ANNOTATIONS.has(keyword) && keyword !== 'default')) as JsonSchemaObject
    const kinds = [child.type].flat().filter(kind => typeof kind === 'string')
    if (kinds.length > 0 && kinds.length < ALL_KINDS.length)
      appendDescription(kept, `Type: ${kinds.join(' or ')}.`)
    setOwn(out.properties, key, kept)
    report(ctx, 'keyword-rewritten', 'warning', childPointer(childPointer(path, 'properties'), key), `optional ${JSON.stringify(key)} takes any value here: every object inherits it, and validators such as ajv read the inherited member when the key is not sent`)
  }
  return out
}

/**
 * What an array must hold to pass the object's checks: its elements are the values of its index
 * keys, so they meet the catch-all (none: only the empty array). Where the object names an index
 * or patterns its keys, any element (the sound guess).
 */
function arrayItems(node: JsonSchemaObject): JsonSchemaObject {
  const named = isSchemaObject(node.properties) && Object.keys(node.properties).some(isArrayKey)
  if (named || node.patternProperties !== undefined || node.additionalProperties === undefined || node.additionalProperties === true)
    return {}
  return node.additionalProperties === false ? { maxItems: 0 } : { items: node.additionalProperties }
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
  const formatKept = typeof out.format === 'string' && (semantics.trustedFormats === 'all' || semantics.trustedFormats.includes(out.format))
  if (typeof out.pattern === 'string' && note?.patternOfFormat && formatKept) {
    // zod writes a format's check twice, as `format` and as its RegExp: the RegExp costs a model
    // a hundred tokens (a date-time's) to say what the format says.
    report(ctx, 'keyword-dropped', 'info', childPointer(path, 'pattern'), `pattern of format "${String(out.format)}" dropped: the format says it (the schema only gets wider)`)
    delete out.pattern
  }
  if (note?.formatIsCheckLabel && typeof out.format === 'string') {
    // zod's label for a check (`includes`), which no validator knows: the pattern says it.
    report(ctx, 'keyword-dropped', 'info', childPointer(path, 'format'), `format "${out.format}" dropped: it names the library's check, which the pattern states`)
    delete out.format
  }
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
      if (note?.patternInWords)
        appendDescription(out, note.patternInWords)
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
