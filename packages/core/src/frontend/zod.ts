import type * as zc from 'zod/v4/core'
import type { InvisibleConstraint, JsonPointer, JsonSchemaObject, ParserSemantics, SchemaNote } from '../types'
import type { JsonSchemaMethod, OriginalSchema } from './interface'
import { childPointer, isSchemaObject } from '../json'
import { UnrepresentableError } from './interface'
import type { Reading } from './json-schema'
import type { DefaultWatch } from './zod-defaults'
import { mark, takeMarks, takesNull, takesValue } from './marks'
import { watchDefaults } from './zod-defaults'

/**
 * zod tests its RegExps as written (legacy mode unless they carry `u`), counts lengths in code
 * points since 4.6 (a node whose check counts UTF-16 units says so in its note), checks
 * `multipleOf` by its own remainder and strips keys an object does not declare. Of
 * the formats it writes, these accept nothing ajv-formats or @cfworker/json-schema reject (measured
 * on zod's edge values by the format table in the core tests); email, hostname and duration do not.
 */
export const ZOD_SEMANTICS: ParserSemantics = {
  patternFlags: '',
  lengthUnit: 'codepoint',
  multipleOf: 'library',
  trustedFormats: ['date-time', 'date', 'ipv4', 'ipv6', 'uuid'],
  unknownKeys: 'strip',
  objectKeys: 'own',
  refSiblings: 'and',
  nullAsAbsent: 'never',
}

/** Formats whose check is not their pattern and accepts strings the pattern rejects. */
const INEXACT_PATTERN_FORMATS = new Set(['ipv6', 'cidrv6'])
/** String checks that test a RegExp of their own, not a format's. */
const PATTERN_CHECKS = new Set(['regex', 'includes', 'starts_with', 'ends_with', 'lowercase', 'uppercase'])

/** What a tool input can use instead of a kind JSON cannot carry. */
const INSTEAD: Record<string, string> = {
  'z.date()': 'for a date, use z.iso.datetime() or z.iso.date()',
  'z.bigint()': 'for a large integer, use z.string().regex(/^-?\\d+$/) (or z.number().int() within 2^53)',
  'z.int64()': 'for a large integer, use z.string().regex(/^-?\\d+$/) (or z.number().int() within 2^53)',
  'z.file()': 'a tool receives JSON: take the content as a base64 string (z.base64()) or a URL (z.url())',
  'z.nan()': 'JSON has no NaN: use z.number() or z.null()',
  'z.map()': 'use z.record() for string keys, or an array of [key, value] tuples',
  'z.set()': 'use z.array() (a set arrives as an array)',
  'z.undefined()': 'make the key optional with .optional() instead',
  'z.void()': 'make the key optional with .optional() instead',
  'z.symbol()': 'use a string or an enum',
}

interface ZodLike { _zod: { def: Record<string, unknown> & { type: string }, pattern?: unknown } }

export function isZod(schema: unknown): schema is zc.$ZodType {
  return typeof schema === 'object' && schema !== null && '_zod' in schema
}

function defOf(schema: unknown): (Record<string, unknown> & { type: string }) | undefined {
  return isZod(schema) ? (schema as unknown as ZodLike)._zod.def : undefined
}

function checkDefs(def: Record<string, unknown>): Record<string, unknown>[] {
  return ((def.checks as unknown[] | undefined) ?? []).map(check => (check as ZodLike)._zod?.def ?? {})
}

/** What a zod node's parser does that its JSON Schema does not show. */
function noteFor(schema: zc.$ZodType): SchemaNote | undefined {
  const def = defOf(schema)!
  const invisible: InvisibleConstraint[] = []
  for (const check of checkDefs(def)) {
    if (check.check === 'custom')
      invisible.push('refine')
    else if (check.check === 'overwrite')
      invisible.push('overwrite')
  }
  if (def.coerce === true)
    invisible.push('coerce')
  if (def.type === 'catch')
    invisible.push('catch')
  if (def.type === 'custom')
    invisible.push('refine')
  if (def.type === 'transform')
    invisible.push('transform')
  if (def.type === 'pipe') {
    if (defOf(def.in)?.type === 'transform')
      invisible.push('preprocess')
    else if (defOf(def.out)?.type === 'transform')
      invisible.push('transform')
    else
      invisible.push('pipe')
  }
  const note: SchemaNote = {}
  if (invisible.length > 0)
    note.invisible = invisible
  if (def.type === 'union' && typeof def.discriminator === 'string')
    note.discriminator = def.discriminator
  return note.invisible || note.discriminator ? note : undefined
}

interface Tested { regex: RegExp, inexact: boolean, format?: string, words?: string }

/** A string check whose JSON is a pattern, in words. */
function checkText(check: Record<string, unknown>): string {
  const quoted = JSON.stringify(check.includes ?? check.prefix ?? check.suffix ?? '')
  switch (check.format) {
    case 'includes': return typeof check.position === 'number' ? `Contains ${quoted} at or after index ${check.position} (counting from 0).` : `Contains ${quoted}.`
    case 'starts_with': return `Starts with ${quoted}.`
    case 'ends_with': return `Ends with ${quoted}.`
    case 'lowercase': return 'No uppercase letters.'
    case 'uppercase': return 'No lowercase letters.'
    default: return ''
  }
}

/** The RegExps a zod string node tests, in the order its JSON lists their patterns. */
function testedRegexes(schema: zc.$ZodType): Tested[] {
  const def = defOf(schema)!
  const tested: Tested[] = []
  const own = def.type === 'template_literal' ? (schema as unknown as ZodLike)._zod.pattern : def.pattern
  if (own instanceof RegExp)
    tested.push({ regex: own, inexact: INEXACT_PATTERN_FORMATS.has(def.format as string), ...(typeof def.format === 'string' && def.type !== 'template_literal' && def.format !== 'regex' ? { format: def.format } : {}) })
  for (const check of checkDefs(def)) {
    if (!(check.pattern instanceof RegExp))
      continue
    // The method forms (`z.string().ipv6()`) carry their format as a check, like `.regex()` does.
    const format = typeof check.format === 'string' && !PATTERN_CHECKS.has(check.format) ? check.format : undefined
    const inexact = (check.format === 'includes' && typeof check.position === 'number') || INEXACT_PATTERN_FORMATS.has(format as string)
    const words = format === undefined ? checkText(check) : ''
    tested.push({ regex: check.pattern, inexact, ...(format !== undefined ? { format } : {}), ...(words ? { words } : {}) })
  }
  return tested
}

/**
 * Marks each `pattern` of a string node (its own, or its `allOf` members') with the flags zod tests
 * it with and what it stands for, and a `format` that only names a check.
 */
function markPatterns(schema: zc.$ZodType, json: JsonSchemaObject): void {
  const tested = testedRegexes(schema)
  const holders = [json, ...(Array.isArray(json.allOf) ? json.allOf.filter(isSchemaObject) : [])]
  for (const holder of holders) {
    if (typeof holder.pattern !== 'string')
      continue
    const index = tested.findIndex(t => t.regex.source === holder.pattern)
    const found = index >= 0 ? tested.splice(index, 1)[0]! : undefined
    const note: SchemaNote = {}
    if (found && found.regex.flags.replace(/[gd]/g, '') !== '')
      note.patternFlags = found.regex.flags
    if (found?.inexact)
      note.patternInexact = true
    if (found?.format !== undefined && holder.format !== undefined)
      note.patternOfFormat = true
    if (found?.words !== undefined)
      note.patternInWords = found.words
    mark(holder, note)
  }
  // zod labels the node with its last check's name, also where the patterns sit in `allOf` members.
  if (typeof json.format === 'string' && PATTERN_CHECKS.has(json.format) && checkDefs(defOf(schema)!).some(check => check.format === json.format))
    mark(json, { formatIsCheckLabel: true })
}

type Check = { _zod: { def: Record<string, unknown>, check: (payload: { value: unknown, issues: unknown[] }) => void } }

/**
 * Whether the node's minimum length counts UTF-16 units (zod before 4.6 did; later versions count
 * code points, as validators do), asked of its own check: a string of exactly `minimum` units but
 * fewer code points passes only a check that counts units.
 */
function countsUnits(schema: zc.$ZodType): boolean {
  for (const check of ((defOf(schema)!.checks as Check[] | undefined) ?? [])) {
    const def = check._zod?.def
    const minimum = def?.check === 'min_length' ? def.minimum : def?.check === 'length_equals' ? def.length : undefined
    if (typeof minimum !== 'number' || minimum < 2)
      continue
    const payload = { value: '\u{1F600}'.repeat(Math.floor(minimum / 2)) + (minimum % 2 ? 'a' : ''), issues: [] as unknown[] }
    try {
      check._zod.check(payload)
    }
    catch {
      return true
    }
    return payload.issues.length === 0
  }
  return false
}

/**
 * A tuple with a rest is not checked for its length: zod reads each missing item as `undefined`,
 * so it takes the array without the trailing items that take `undefined` (`z.unknown()`), whatever
 * `minItems` its JSON writes. Without a rest, zod checks the length its JSON says.
 */
function shortestTuple(schema: zc.$ZodType, json: JsonSchemaObject): void {
  const def = defOf(schema)!
  if (def.rest === undefined || def.rest === null)
    return
  const items = (def.items as unknown[] | undefined) ?? []
  let shortest = items.length
  while (shortest > 0 && takesValue(items[shortest - 1], undefined))
    shortest--
  if (typeof json.minItems !== 'number' || json.minItems <= shortest)
    return
  if (shortest === 0)
    delete json.minItems
  else
    json.minItems = shortest
}

function pointerOf(path: (string | number)[]): JsonPointer {
  return childPointer('', ...path)
}

/** Kinds whose JSON says "any value": z.custom() and z.instanceof() check what JSON cannot show. */
const ANY_VALUE_TYPES = new Set(['custom'])

/** zod's own conversion options: notes left on the JSON, unrepresentable parts as errors with a path. */
const zodOptions = (defaults: DefaultWatch) => ({
  cycles: 'ref',
  reused: 'inline',
  unrepresentable: ({ zodSchema, path, message }: { zodSchema: unknown, path: (string | number)[], message: string }) => {
    const type = defOf(zodSchema)?.type ?? 'unknown'
    // "any" leaves zod's "any value" ({}), which is sound; the note says what null does.
    if (ANY_VALUE_TYPES.has(type))
      return 'any' as const
    throw new UnrepresentableError(pointerOf(path), `z.${type}()`, message, INSTEAD)
  },
  override: ({ zodSchema, jsonSchema, path }: { zodSchema: zc.$ZodType, jsonSchema: JsonSchemaObject, path: (string | number)[] }) => {
    const type = defOf(zodSchema)?.type
    // zod writes a file as a binary string, but a tool call carries JSON: no File arrives.
    if (type === 'file')
      throw new UnrepresentableError(pointerOf(path), 'z.file()', 'a File object cannot arrive in JSON arguments', INSTEAD)
    // zod describes z.success() by its output (a boolean); its input is whatever the inner schema
    // takes. Unknown here, so: any value (sound, and reported as untyped).
    if (type === 'success') {
      for (const key of Object.keys(jsonSchema))
        delete jsonSchema[key]
    }
    if (type === 'string' || type === 'template_literal')
      markPatterns(zodSchema, jsonSchema)
    if (type === 'tuple')
      shortestTuple(zodSchema, jsonSchema)
    const note = noteFor(zodSchema) ?? {}
    if (type === 'string' && countsUnits(zodSchema))
      note.lengthInUnits = true
    // Where the JSON was widened to "any value", whether the schema itself takes null: a strict
    // target's inverse keeps a null only where the original takes one.
    if ((type === 'success' || type === 'custom') && !takesNull(zodSchema))
      note.rejectsNull = true
    if (type === 'default')
      defaults.seen(() => defOf(zodSchema)!.defaultValue, jsonSchema, pointerOf(path))
    mark(jsonSchema, note)
  },
})

/** The zod front end: zod's own conversion, run in the user's copy of zod, with notes of what it cannot show. */
export function zodOriginal(convert: JsonSchemaMethod): OriginalSchema & { readings: Reading[] } {
  const defaults = watchDefaults()
  const json = convert({ target: 'draft-2020-12', libraryOptions: zodOptions(defaults) }) as JsonSchemaObject
  const readings = defaults.settled(json)
  return { schema: json, notes: takeMarks(json), semantics: ZOD_SEMANTICS, readings }
}
