// `gemini`: the OpenAPI 3.0 subset Gemini's function declarations read (`parameters`).
import type { JsonSchemaObject } from '../types'
import type { TargetProfile } from './apply'
import type { TargetRule } from './rules'
import { withSentence } from '../keywords'
import { childPointer, isSchemaObject } from '../json'
import { encodeAsJson, isOpenObject, keepKeywords, kindsOf, omitAbsentNulls, visitNodes } from './rules'
import { PROFILE_OBJECTS } from './names'

/** Keywords of the OpenAPI `Schema` Gemini's `parameters` field reads. */
const GEMINI_KEYWORDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minProperties', 'maxProperties'])
const GEMINI_STRING_FORMATS = new Set(['date-time', 'enum'])
const GEMINI_NAME = /^[A-Z_]\w{0,63}$/i

const appendNote = (node: JsonSchemaObject, note: string): void => {
  node.description = withSentence(node.description, note)
}

/** One `type` per node: `nullable` for null, JSON text for several kinds and for objects of unknown keys. */
export const geminiTypes: TargetRule = {
  name: 'gemini-types',
  node(node, path, ctx) {
    const kinds = kindsOf(node).filter(kind => kind !== 'null')
    const root = path === ''
    // Gemini wants `properties` on every object it is told of, and non-empty.
    const empty = kinds[0] === 'object' && Object.keys(isSchemaObject(node.properties) ? node.properties : {}).length === 0
    if (!root && (kinds.length !== 1 || isOpenObject(node, ctx.keepsUnknownKeys) || empty))
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

export const gemini: TargetProfile = {
  name: 'gemini',
  // A 2020-12 validator reads `nullable` as nothing and rejects the null: where the parser reads
  // null as a left-out key, the key is advertised without it.
  rules: [omitAbsentNulls, geminiTypes, keepGeminiKeywords, geminiNames],
  vendor: 'Gemini',
  objects: PROFILE_OBJECTS['gemini'],
  nullable: 'openapi',
}
