// allOf folded into one schema: a sound stand-in that takes every value all its members take.
import type { JsonSchema, JsonSchemaObject } from '../types'
import type { Kind } from '../keywords'
import { isSchemaObject } from '../json'
import { acceptsAnything } from './facets'
import { sortKinds, SUBSCHEMA_KEYWORDS, typesOf } from '../keywords'

/**
 * One schema for values that satisfy all of `schemas`: the first schema to state a keyword keeps it,
 * properties merge key by key and required keys add up. Any value matching all inputs matches the
 * result, so it is a sound stand-in for `allOf`.
 */
export function foldAll(schemas: JsonSchema[]): JsonSchema {
  if (schemas.includes(false))
    return false
  const out: JsonSchemaObject = {}
  for (const schema of schemas) {
    if (!isSchemaObject(schema))
      continue
    for (const [keyword, value] of Object.entries(schema)) {
      if (!(keyword in out))
        out[keyword] = value
      else if (keyword === 'properties' && isSchemaObject(value) && isSchemaObject(out.properties))
        out.properties = { ...value, ...out.properties }
      else if (keyword === 'required' && Array.isArray(value) && Array.isArray(out.required))
        out.required = [...new Set([...out.required, ...value])]
      // A value of all the schemas has a kind each allows; a child that takes anything says less than one that does not.
      else if (keyword === 'type')
        out.type = commonKinds(out.type, value)
      else if (SUBSCHEMA_KEYWORDS.single.includes(keyword as never) && acceptsAnything(out[keyword]) && !acceptsAnything(value))
        out[keyword] = value
    }
  }
  // The typed "any value" of a member without a type leaves array items behind a type that has no arrays.
  const kinds = isSchemaObject(out) ? typesOf(out) : undefined
  if (kinds && !kinds.includes('array') && acceptsAnything(out.items))
    delete out.items
  return out
}

/** The kinds two `type`s share (`integer` within `number`); where they share none, the first (wider than nothing: sound). */
function commonKinds(a: unknown, b: unknown): unknown {
  const left = [a].flat().filter((kind): kind is Kind => typeof kind === 'string')
  const right = new Set([b].flat().filter((kind): kind is Kind => typeof kind === 'string'))
  const shared = left.flatMap((kind): Kind[] => right.has(kind) ? [kind] : kind === 'number' && right.has('integer') ? ['integer'] : kind === 'integer' && right.has('number') ? ['integer'] : [])
  if (shared.length === 0)
    return a
  const sorted = sortKinds(new Set(shared))
  return sorted.length === 1 ? sorted[0] : sorted
}

/**
 * `allOf` folded. A member that takes any value adds no constraint, but the parser hands on every
 * key it got: the keys no other member declares reach the output, so an object the fold makes
 * says it keeps them (a strict profile must not close it, or they are lost).
 */
export function foldIntersection(container: JsonSchemaObject, members: JsonSchema[]): JsonSchema {
  const constraining = members.filter(member => !acceptsAnything(member))
  const out = foldAll([container, ...constraining])
  const takesObjects = isSchemaObject(out) && [out.type].flat().includes('object')
  if (constraining.length < members.length && takesObjects && out.additionalProperties === undefined)
    return { ...out, additionalProperties: true }
  return out
}
