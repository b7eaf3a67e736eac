import type { JsonSchema, JsonSchemaObject } from '../types'
import type { Kind } from '../keywords'
import { ALL_KINDS, ANNOTATIONS, KIND_KEYWORDS, keywordKind, kindOfValue, sortKinds } from '../keywords'

/** Keywords that apply to every value and cannot be split by kind. */
const OPAQUE_KEYWORDS = ['$ref', 'not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', '$dynamicRef']

/**
 * A schema split by kind: what it accepts of each JSON kind, as one facet per kind (`{ type: kind,
 * ...keywords of that kind }`), plus its annotations. The union of a schema's facets accepts exactly
 * what the schema accepts, unless `opaque` says a keyword could not be split (then the facets are
 * wider: bare kinds).
 */
export interface Facets {
  kinds: Map<Kind, JsonSchemaObject>
  annotations: JsonSchemaObject
  opaque: boolean
}

const KNOWN_KINDS = new Set<string>(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'])

function declaredKinds(schema: JsonSchemaObject): Kind[] | undefined {
  const type = schema.type
  if (type === undefined)
    return undefined
  const list = Array.isArray(type) ? type : [type]
  if (!list.every(kind => typeof kind === 'string' && KNOWN_KINDS.has(kind)))
    return undefined
  return list as Kind[]
}

function enumValues(schema: JsonSchemaObject): unknown[] | undefined {
  if ('const' in schema)
    return Array.isArray(schema.enum) ? schema.enum.filter(v => JSON.stringify(v) === JSON.stringify(schema.const)) : [schema.const]
  return Array.isArray(schema.enum) ? schema.enum : undefined
}

/** The kind a listed value belongs to, among the kinds a schema declares. */
function valueKind(value: unknown, kinds: ReadonlySet<Kind>): Kind | undefined {
  const kind = kindOfValue(value)
  if (kind !== 'number')
    return kinds.has(kind) ? kind : undefined
  if (kinds.has('number'))
    return 'number'
  return kinds.has('integer') && Number.isInteger(value) ? 'integer' : undefined
}

export function splitByKind(schema: JsonSchema): Facets {
  const kinds = new Map<Kind, JsonSchemaObject>()
  const annotations: JsonSchemaObject = {}
  if (schema === false)
    return { kinds, annotations, opaque: false }
  if (schema === true) {
    for (const kind of ALL_KINDS)
      kinds.set(kind, { type: kind })
    return { kinds, annotations, opaque: false }
  }

  const values = enumValues(schema)
  const declared = declaredKinds(schema)
  let allowed: Set<Kind>
  if (declared)
    allowed = new Set(declared)
  else if (values)
    allowed = new Set(values.map(kindOfValue))
  else
    allowed = new Set(ALL_KINDS)

  const opaque = OPAQUE_KEYWORDS.some(keyword => keyword in schema) || (schema.type !== undefined && !declared)

  let valuesByKind: Map<Kind, unknown[]> | undefined
  if (values) {
    valuesByKind = new Map()
    for (const value of values) {
      const kind = valueKind(value, allowed)
      if (kind)
        valuesByKind.set(kind, [...(valuesByKind.get(kind) ?? []), value])
    }
    allowed = new Set(valuesByKind.keys())
  }

  for (const kind of sortKinds(allowed)) {
    const facet: JsonSchemaObject = { type: kind }
    if (!opaque) {
      const own = kind === 'integer' ? KIND_KEYWORDS.number : KIND_KEYWORDS[kind]
      for (const keyword of own) {
        if (keyword in schema)
          facet[keyword] = schema[keyword]
      }
      const listed = valuesByKind?.get(kind)
      // `null` has one value: listing it adds nothing.
      if (listed && kind !== 'null')
        facet.enum = listed
    }
    else if (kind === 'object') {
      // Nothing is known of its keys: any key may hold any value.
      facet.additionalProperties = true
    }
    kinds.set(kind, facet)
  }

  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'type' || keyword === 'enum' || keyword === 'const' || OPAQUE_KEYWORDS.includes(keyword) || keywordKind(keyword))
      continue
    if (keyword.startsWith('$') && !ANNOTATIONS.has(keyword))
      continue
    annotations[keyword] = value
  }
  return { kinds, annotations, opaque }
}

/** Puts facets (at most one per kind, keywords disjoint by kind) back into one schema. */
export function assembleFacets(facets: JsonSchemaObject[], annotations: JsonSchemaObject): JsonSchema {
  if (facets.length === 0)
    return false
  const out: JsonSchemaObject = { ...annotations }
  const kinds = sortKinds(facets.map(facet => facet.type as Kind))
  out.type = kinds.length === 1 ? kinds[0] : kinds
  const enums = facets.map(facet => facet.enum as unknown[] | undefined)
  const allListed = facets.every(facet => facet.type === 'null' || facet.enum)
  if (allListed && enums.some(Boolean)) {
    out.enum = facets.flatMap(facet => facet.type === 'null' ? [null] : facet.enum as unknown[])
  }
  for (const facet of facets) {
    for (const [keyword, value] of Object.entries(facet)) {
      if (keyword !== 'type' && keyword !== 'enum')
        out[keyword] = value
    }
  }
  return out
}

/** True when the assembled schema lost an enum because some kinds listed values and others did not. */
export function enumsConflict(facets: JsonSchemaObject[]): boolean {
  return facets.some(facet => facet.enum) && !facets.every(facet => facet.type === 'null' || facet.enum)
}

/** How many levels of nested arrays the typed "any" shape spells out before its items go untyped. */
export const ANY_DEPTH = 1

/**
 * A typed schema that accepts any value: the portable stand-in for `{}`. Every client wants `items`
 * beside `array`, so the shape nests a few levels and ends in the loosest schema, `{}`.
 */
export function anyValue(annotations: JsonSchemaObject = {}, depth = ANY_DEPTH): JsonSchemaObject {
  return depth <= 0 ? { ...annotations } : { ...annotations, type: [...ALL_KINDS], items: anyValue({}, depth - 1) }
}

/** Keywords of an "any" schema that leave every value through when their own schema does. */
const OPEN_CHILDREN = new Set(['items', 'additionalProperties', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems'])

/** Keywords that name or hold schemas without constraining the value. */
const INERT = new Set(['$schema', '$id', '$anchor', '$comment', '$defs', 'definitions'])

/** True when a schema accepts every JSON value: `true`, `{}`, or every kind with nothing that narrows. */
export function acceptsAnything(schema: unknown): boolean {
  if (schema === true)
    return true
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return false
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'type') {
      const kinds = new Set(Array.isArray(value) ? value : [value])
      if (!ALL_KINDS.every(kind => kinds.has(kind)))
        return false
    }
    else if (OPEN_CHILDREN.has(keyword)) {
      if (!acceptsAnything(value))
        return false
    }
    else if (keyword === 'properties') {
      if (typeof value !== 'object' || value === null || !Object.values(value).every(acceptsAnything))
        return false
    }
    else if (!ANNOTATIONS.has(keyword) && !INERT.has(keyword)) {
      return false
    }
  }
  return true
}
