// `gemini`: the OpenAPI 3.0 subset Gemini's function declarations read (`parameters`).
import type { JsonSchemaObject } from '../types'
import type { TargetProfile } from './apply'
import type { TargetRule } from './rules'
import { withSentence } from '../keywords'
import { childPointer, isSchemaObject } from '../json'
import { admitsKeys, keepKeywords } from './keep-keywords'
import { encodeAsJson } from './json-text-rules'
import { isOpenObject, kindsOf, visitNodes } from './rules'
import { omitAbsentNulls } from './strict-objects'
import { PROFILE_OBJECTS } from './names'

/** Keywords of the OpenAPI `Schema` Gemini's `parameters` field reads. */
const GEMINI_KEYWORDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minProperties', 'maxProperties'])
const GEMINI_STRING_FORMATS = new Set(['date-time', 'enum'])
const GEMINI_NAME = /^[A-Z_]\w{0,63}$/i

const appendNote = (node: JsonSchemaObject, note: string): void => {
  node.description = withSentence(node.description, note)
}

/**
 * The node without the keys no value may have (`"key": false`): the OpenAPI route takes schema
 * objects only, and has no word for a refused key. Left out, wider; the original still refuses them.
 */
function withoutRefusedKeys(node: JsonSchemaObject, path: string, ctx: Parameters<NonNullable<TargetRule['node']>>[2]): JsonSchemaObject {
  const properties = isSchemaObject(node.properties) ? node.properties : {}
  const refused = Object.keys(properties).filter(key => properties[key] === false)
  if (refused.length === 0)
    return node
  ctx.report('keyword-dropped', 'info', childPointer(path, 'properties'), `gemini takes no schema that refuses every value; ${refused.map(key => JSON.stringify(key)).join(', ')} left out of properties (the schema only gets wider)`)
  const out: JsonSchemaObject = { ...node, properties: Object.fromEntries(Object.entries(properties).filter(([key]) => !refused.includes(key))) }
  if (Array.isArray(node.required))
    out.required = node.required.filter(key => !refused.includes(key as string))
  return out
}

/** One `type` per node: `nullable` for null, JSON text for several kinds and for objects of unknown keys. */
export const geminiTypes: TargetRule = {
  name: 'gemini-types',
  node(given, path, ctx) {
    const node = withoutRefusedKeys(given, path, ctx)
    const kinds = kindsOf(node).filter(kind => kind !== 'null')
    const root = path === ''
    // Gemini wants `properties` on every object it is told of, and non-empty.
    const empty = kinds[0] === 'object' && Object.keys(isSchemaObject(node.properties) ? node.properties : {}).length === 0
    // Keys a keyword Gemini does not take lets in (`patternProperties`) open the object once it is dropped.
    const opened = admitsKeys(node, Object.keys(node).filter(keyword => !GEMINI_KEYWORDS.has(keyword)))
    // The route takes schema objects only: an array whose `items` is `true` or `false` goes as JSON text.
    const booleanItems = typeof node.items === 'boolean'
    if (!root && (kinds.length !== 1 || isOpenObject(node, ctx.keepsUnknownKeys) || opened || empty || booleanItems))
      return encodeAsJson(node, path, ctx, 'keyword')
    const out = { ...node }
    if (kindsOf(node).includes('null')) {
      out.type = kinds[0]
      out.nullable = true
      // OpenAPI reads an enum beside `nullable` as the whole list; Gemini takes strings only, so no null in it.
      if (Array.isArray(out.enum)) {
        appendNote(out, `One of: ${out.enum.map(value => JSON.stringify(value)).join(', ')}.`)
        delete out.enum
      }
    }
    // The root takes any key once `additionalProperties` is dropped: what let keys in goes with it.
    for (const keyword of root && opened ? ['patternProperties', 'unevaluatedProperties'] : []) {
      if (out[keyword] !== undefined)
        ctx.report('keyword-dropped', 'info', childPointer(path, keyword), `gemini takes no ${keyword}; dropped (the schema only gets wider)`)
      delete out[keyword]
    }
    if (root && out.additionalProperties !== undefined) {
      delete out.additionalProperties
      ctx.report('keyword-dropped', 'info', childPointer(path, 'additionalProperties'), 'gemini takes no additionalProperties; dropped (the schema only gets wider)')
    }
    // Closed objects are closed by dropping the keyword: Gemini does not read it (wider).
    if (out.additionalProperties === false)
      delete out.additionalProperties
    if (Array.isArray(out.enum) && out.type !== 'string') {
      appendNote(out, `One of: ${out.enum.map(value => JSON.stringify(value)).join(', ')}.`)
      delete out.enum
    }
    if (typeof out.format === 'string' && !(out.type === 'string' && GEMINI_STRING_FORMATS.has(out.format))) {
      appendNote(out, `Format: ${out.format}.`)
      delete out.format
    }
    return out
  },
}

export const geminiNames: TargetRule = {
  name: 'gemini-names',
  document(schema, ctx) {
    visitNodes(schema, (node, _depth, path) => {
      for (const key of Object.keys(isSchemaObject(node.properties) ? node.properties : {})) {
        if (!GEMINI_NAME.test(key))
          ctx.report('target-limit', 'warning', childPointer(path, 'properties', key), `Gemini takes parameter names of letters, digits and "_" (64 at most, not starting with a digit); "${key}" may be rejected`)
      }
    })
  },
}

export const keepGeminiKeywords = keepKeywords('gemini-keywords', GEMINI_KEYWORDS)

/** The types a node of the OpenAPI route may have: one of these, never none (Gemini 3 refuses `TYPE_UNSPECIFIED`). */
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object'])

/**
 * Where a schema breaks the node rules of Gemini's OpenAPI `parameters` route (TARGETS.md, late
 * 2026): `anyOf` is the only keyword of its node (vercel/ai PR #19000); `properties` and `required`
 * only on an object (anomalyco/opencode #11889); `items` on every array (backstage #34038); every
 * other node one type, never none: a node without one converts to `TYPE_UNSPECIFIED`, which Gemini 3
 * refuses (inspect_ai PR #3097). As `pointer: rule` lines.
 */
export function geminiNodeViolations(schema: unknown, path = ''): string[] {
  if (!isSchemaObject(schema))
    return [`${path || '/'}: not a schema object (Gemini's parameters route takes schema objects only)`]
  const at = path || '/'
  const found: string[] = []
  if (Array.isArray(schema.anyOf)) {
    const beside = Object.keys(schema).filter(keyword => keyword !== 'anyOf')
    if (beside.length > 0)
      found.push(`${at}: anyOf beside ${beside.join(', ')} (Gemini takes anyOf as the only keyword of its node)`)
    schema.anyOf.forEach((branch, i) => found.push(...geminiNodeViolations(branch, childPointer(path, 'anyOf', String(i)))))
    return found
  }
  if (typeof schema.type !== 'string' || !GEMINI_TYPES.has(schema.type))
    found.push(`${at}: type ${JSON.stringify(schema.type) ?? 'left out'} is not one OpenAPI type (Gemini 3 refuses TYPE_UNSPECIFIED)`)
  for (const keyword of ['properties', 'required'] as const) {
    if (schema[keyword] !== undefined && schema.type !== 'object')
      found.push(`${at}: ${keyword} on a node that is no object (Gemini takes it on objects only)`)
  }
  if (schema.type === 'array' && schema.items === undefined)
    found.push(`${at}: an array without items (Gemini wants items on every array)`)
  for (const [key, child] of Object.entries(isSchemaObject(schema.properties) ? schema.properties : {}))
    found.push(...geminiNodeViolations(child, childPointer(path, 'properties', key)))
  if (schema.items !== undefined)
    found.push(...geminiNodeViolations(schema.items, childPointer(path, 'items')))
  return found
}

export const gemini: TargetProfile = {
  name: 'gemini',
  // A 2020-12 validator reads `nullable` as nothing and rejects the null: where the parser reads
  // null as a left-out key, the key is advertised without it.
  rules: [omitAbsentNulls, geminiTypes, keepGeminiKeywords, geminiNames],
  vendor: 'Gemini',
  objects: PROFILE_OBJECTS['gemini'],
  nullable: 'openapi',
  violations: geminiNodeViolations,
}
