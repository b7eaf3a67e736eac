// What an object variant says of a key: the keys it declares, what it accepts for one it does not
// (its patterns, else its catch-all), and those catch-alls indexed across variants for a merge.
import type { JsonSchema, JsonSchemaObject } from '../types'
import type { ObjectVariant } from './context'
import { hasOwn, isSchemaObject } from '../json'

export function declaredKeys(schema: JsonSchemaObject): string[] {
  const properties = isSchemaObject(schema.properties) ? Object.keys(schema.properties) : []
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []
  return [...new Set([...properties, ...required])]
}

export function propertyOf(schema: JsonSchemaObject, key: string, keep: boolean): JsonSchema | undefined {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {}
  if (hasOwn(properties, key))
    return properties[key] as JsonSchema
  // Required without a property (a record with enum keys): its value is what extra keys hold. Any
  // one of several matching patterns is a sound stand-in, since the value must satisfy them all.
  return Array.isArray(schema.required) && schema.required.includes(key) ? undeclaredKeySchemas(schema, key, keep)[0] ?? true : undefined
}

export function isRequired(schema: JsonSchemaObject, key: string): boolean {
  return Array.isArray(schema.required) && schema.required.includes(key)
}

/**
 * What a variant accepts for keys it does not declare: a schema, or undefined when it gives them no
 * meaning (it strips or forbids them). An object without `properties` (`{type: "object"}`, the object
 * side of an untyped member, an object of patterns only) keeps every other key, whatever it holds;
 * so does every object that says nothing of extra keys when the parser `keep`s unknown keys (a
 * validator does; zod strips them).
 */
export function extraKeysSchema(schema: JsonSchemaObject, keep: boolean): JsonSchema | undefined {
  const extra = schema.additionalProperties
  if (extra === true || isSchemaObject(extra))
    return extra
  return extra === undefined && (keep || !isSchemaObject(schema.properties)) ? true : undefined
}

/** What a variant that does not declare `key` accepts under it: its matching patterns, else its catch-all. */
export function undeclaredKeySchemas(schema: JsonSchemaObject, key: string, keep: boolean): JsonSchema[] {
  const patterns = isSchemaObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : []
  const matched = patterns.filter(([pattern]) => matchesPattern(pattern, key)).map(([, child]) => child as JsonSchema)
  if (matched.length > 0)
    return matched
  const extra = extraKeysSchema(schema, keep)
  return extra === undefined ? [] : [extra]
}

/** A pattern that cannot be compiled here is assumed to match (the sound guess). */
export function matchesPattern(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key)
  }
  catch {
    return true
  }
}

/**
 * What the variants that do not declare a key accept under it (their matching patterns, else their
 * catch-all), each schema once, in the order of the first variant that gives it: a catch-all that
 * does not depend on the key (most are `true` or a record's value, or none) is grouped once, so a key
 * costs its declaring variants and the variants with patterns, not every variant.
 */
export function catchAllIndex(variants: ObjectVariant[], keep: boolean): (key: string, declaring: readonly number[]) => JsonSchema[] {
  const patterned: number[] = []
  const groups = new Map<JsonSchema, number[]>()
  for (const [i, v] of variants.entries()) {
    if (isSchemaObject(v.schema.patternProperties) && Object.keys(v.schema.patternProperties).length > 0) {
      patterned.push(i)
      continue
    }
    const extra = extraKeysSchema(v.schema, keep)
    const group = extra === undefined ? undefined : groups.get(extra)
    if (group)
      group.push(i)
    else if (extra !== undefined)
      groups.set(extra, [i])
  }
  return (key, declaring) => {
    const declares = new Set(declaring)
    const found: [number, JsonSchema][] = []
    for (const [extra, members] of groups) {
      const first = members.find(i => !declares.has(i))
      if (first !== undefined)
        found.push([first, extra])
    }
    for (const i of patterned) {
      if (!declares.has(i))
        found.push(...undeclaredKeySchemas(variants[i]!.schema, key, keep).map(schema => [i, schema] as [number, JsonSchema]))
    }
    return [...new Set(found.sort((a, b) => a[0] - b[0]).map(([, schema]) => schema))]
  }
}

/** An object's constraints other than its keys and what it says of extra keys. */
export function objectConstraints(schema: JsonSchemaObject): JsonSchemaObject {
  const { properties: _p, required: _r, additionalProperties: _a, ...rest } = schema
  return rest
}
