// `openai-strict`: what OpenAI's strict mode (structured outputs, strict function calling) accepts.
import type { TargetProfile } from './apply'
import type { TargetRule } from './rules'
import { isSchemaObject } from '../json'
import { closeObjects, requireEveryKey } from './strict-objects'
import { encodeOpenObjects, scalarEnums } from './json-text-rules'
import { keepKeywords } from './keep-keywords'
import { splitKinds, visitNodes } from './rules'
import { annotatedFormats } from './formats'
import { PROFILE_OBJECTS } from './names'

/** Keywords OpenAI's strict mode takes (the rest it rejects, or ignores at best). */
const OPENAI_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'title', 'description', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'minLength', 'maxLength'])

/** OpenAI's documented limits on one strict schema. */
export const OPENAI_LIMITS = { properties: 5000, depth: 10, enumValues: 1000, characters: 120_000, bigEnum: 250, bigEnumCharacters: 15_000 }

export const openaiLimits: TargetRule = {
  name: 'openai-limits',
  document(schema, ctx) {
    let properties = 0
    let enumValues = 0
    let characters = 0
    let deepest = { depth: 0, path: '' }
    visitNodes(schema, (node, depth, path) => {
      if (depth > deepest.depth)
        deepest = { depth, path }
      if (isSchemaObject(node.properties)) {
        const keys = Object.keys(node.properties)
        properties += keys.length
        characters += keys.reduce((sum, key) => sum + key.length, 0)
      }
      if (Array.isArray(node.enum)) {
        enumValues += node.enum.length
        const chars = node.enum.reduce((sum: number, value) => sum + (typeof value === 'string' ? value.length : 0), 0)
        characters += chars
        if (node.enum.length > OPENAI_LIMITS.bigEnum && chars > OPENAI_LIMITS.bigEnumCharacters)
          ctx.fallback(path, `an enum of ${node.enum.length} values and ${chars} characters (OpenAI takes at most ${OPENAI_LIMITS.bigEnumCharacters} characters in an enum over ${OPENAI_LIMITS.bigEnum} values)`)
      }
    })
    if (deepest.depth > OPENAI_LIMITS.depth)
      ctx.fallback(deepest.path, `objects nested ${deepest.depth} levels deep (OpenAI takes ${OPENAI_LIMITS.depth})`)
    if (properties > OPENAI_LIMITS.properties)
      ctx.fallback('', `${properties} properties (OpenAI takes ${OPENAI_LIMITS.properties})`)
    if (enumValues > OPENAI_LIMITS.enumValues)
      ctx.fallback('', `${enumValues} enum values (OpenAI takes ${OPENAI_LIMITS.enumValues})`)
    if (characters > OPENAI_LIMITS.characters)
      ctx.fallback('', `${characters} characters of property names and enum values (OpenAI takes ${OPENAI_LIMITS.characters})`)
  },
}

export const keepOpenAIKeywords = keepKeywords('openai-keywords', OPENAI_KEYWORDS)

export const openaiStrict: TargetProfile = {
  name: 'openai-strict',
  strict: true,
  rules: [keepOpenAIKeywords, annotatedFormats, scalarEnums, encodeOpenObjects, closeObjects, requireEveryKey, splitKinds(), openaiLimits],
  vendor: 'OpenAI',
  objects: PROFILE_OBJECTS['openai-strict'],
  nullsForMissing: true,
  definitions: 'shared',
}
