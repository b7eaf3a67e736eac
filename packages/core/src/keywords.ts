import type { JsonSchema, JsonSchemaObject } from './types'
import { isSchemaObject, setOwn } from './json'

/** The JSON kinds a value can have; `integer` is a refinement of `number`. */
export type Kind = 'null' | 'boolean' | 'object' | 'array' | 'number' | 'integer' | 'string'

/** Canonical order of kinds in a `type` array. */
export const KIND_ORDER: readonly Kind[] = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']

/** Every JSON value has one of these kinds: a `type` array of all of them accepts anything. */
export const ALL_KINDS: readonly Kind[] = ['object', 'array', 'string', 'number', 'boolean', 'null']

/** Keywords that only constrain values of one kind (JSON Schema ignores them for other kinds). */
export const KIND_KEYWORDS: Record<Kind, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType', 'contentSchema'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties', 'dependentRequired', 'dependentSchemas', 'dependencies', 'unevaluatedProperties'],
  array: ['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains', 'unevaluatedItems'],
  boolean: [],
  null: [],
}

const KEYWORD_KIND = new Map<string, Kind>()
for (const kind of ['string', 'number', 'object', 'array'] as const) {
  for (const keyword of KIND_KEYWORDS[kind])
    KEYWORD_KIND.set(keyword, kind)
}

/** The kind a keyword constrains, or undefined for keywords that apply to every value. */
export function keywordKind(keyword: string): Kind | undefined {
  return KEYWORD_KIND.get(keyword)
}

/** Keywords that describe but never reject a value. */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
])

/** Lower bounds: widening keeps the smallest; upper bounds: the largest. */
export const LOWER_BOUNDS: ReadonlySet<string> = new Set(['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties', 'minContains'])
export const UPPER_BOUNDS: ReadonlySet<string> = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties', 'maxContains'])

/** Keywords that hold one subschema, an array of subschemas, or a map of named subschemas. */
export const SUBSCHEMA_KEYWORDS = {
  single: ['additionalProperties', 'unevaluatedProperties', 'propertyNames', 'items', 'additionalItems', 'contains', 'unevaluatedItems', 'not', 'if', 'then', 'else', 'contentSchema'],
  list: ['prefixItems', 'allOf', 'anyOf', 'oneOf'],
  map: ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'],
} as const

/**
 * The node with each direct subschema replaced by `change(child, keyword, key)` (`key`: the
 * position or name in a list or map keyword), in the node's own keyword order; values that are
 * data (`enum`, `default`…) stay as they are.
 */
export function mapSubschemas(node: JsonSchemaObject, change: (child: JsonSchema, keyword: string, key?: string) => JsonSchema): JsonSchemaObject {
  const out: JsonSchemaObject = {}
  for (const [keyword, value] of Object.entries(node)) {
    let next: unknown = value
    if ((SUBSCHEMA_KEYWORDS.single as readonly string[]).includes(keyword) && !Array.isArray(value))
      next = change(value as JsonSchema, keyword)
    else if (((SUBSCHEMA_KEYWORDS.list as readonly string[]).includes(keyword) || keyword === 'items') && Array.isArray(value))
      next = value.map((child, i) => change(child as JsonSchema, keyword, String(i)))
    else if ((SUBSCHEMA_KEYWORDS.map as readonly string[]).includes(keyword) && isSchemaObject(value))
      next = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, change(child as JsonSchema, keyword, key)]))
    setOwn(out, keyword, next)
  }
  return out
}

/** Formats every major client accepts; other formats move into the description. */
// OpenAI rejects any other format even on non-strict tools (`uri` included), so the rest move into
// the description.
export const PORTABLE_FORMATS: ReadonlySet<string> = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'])

/** The longest description clients take whole: OpenAI fails a longer tool description, VS Code cuts node ones. */
export const MAX_DESCRIPTION = 1024

/** A text cut to `MAX_DESCRIPTION` at a word boundary, marked with an ellipsis; as it was when it fits. */
export function cutDescription(text: string): string {
  if (text.length <= MAX_DESCRIPTION)
    return text
  const head = text.slice(0, MAX_DESCRIPTION - 1)
  const space = head.lastIndexOf(' ')
  return `${(space > MAX_DESCRIPTION / 2 ? head.slice(0, space) : head).trimEnd()}…`
}

/** A description with one more sentence after it, the two kept apart by a full stop. */
export function withSentence(description: unknown, sentence: string): string {
  if (typeof description !== 'string' || description.trim() === '')
    return sentence
  const text = description.trimEnd()
  return `${text}${/[.!?:;]$/.test(text) ? '' : '.'} ${sentence}`
}

export function kindOfValue(value: unknown): Kind {
  if (value === null)
    return 'null'
  if (Array.isArray(value))
    return 'array'
  switch (typeof value) {
    case 'string': return 'string'
    case 'number': return 'number'
    case 'boolean': return 'boolean'
    default: return 'object'
  }
}

export function sortKinds(kinds: Iterable<Kind>): Kind[] {
  const set = new Set(kinds)
  return KIND_ORDER.filter(kind => set.has(kind))
}

/** The kinds a schema's `type` names, or undefined when it has none. */
export function typesOf(schema: JsonSchemaObject): Kind[] | undefined {
  if (typeof schema.type === 'string')
    return [schema.type as Kind]
  return Array.isArray(schema.type) ? schema.type as Kind[] : undefined
}

/** Sets a schema's `type` to these kinds (in canonical order; `integer` folded into `number`). */
export function setTypes(schema: JsonSchemaObject, kinds: Kind[]): void {
  const sorted = sortKinds(kinds.includes('number') ? kinds.filter(kind => kind !== 'integer') : kinds)
  schema.type = sorted.length === 1 ? sorted[0] : sorted
}
