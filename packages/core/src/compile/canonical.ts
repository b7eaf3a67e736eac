import type { JsonSchema } from '../types'
import { isSchemaObject } from '../json'
import { mapSubschemas } from '../keywords'

/** Keyword order in emitted schemas: what a reader looks for first comes first. */
const KEYWORD_ORDER = [
  '$schema',
  '$id',
  '$ref',
  'title',
  'description',
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'prefixItems',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
  'allOf',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$defs',
]
const RANK = new Map(KEYWORD_ORDER.map((keyword, i) => [keyword, i]))

function compareKeywords(a: string, b: string): number {
  const ra = RANK.get(a) ?? KEYWORD_ORDER.length
  const rb = RANK.get(b) ?? KEYWORD_ORDER.length
  return ra !== rb ? ra - rb : a < b ? -1 : a > b ? 1 : 0
}

/**
 * The same schema with keywords in a fixed order at every level, so equal schemas serialize to equal
 * bytes. Property maps keep their declared order (it is meaningful to a reader); values are data.
 */
export function canonicalSchema(schema: JsonSchema): JsonSchema {
  if (!isSchemaObject(schema))
    return schema
  const sorted = Object.fromEntries(Object.keys(schema).sort(compareKeywords).map(keyword => [keyword, schema[keyword]]))
  return mapSubschemas(sorted, canonicalSchema)
}
