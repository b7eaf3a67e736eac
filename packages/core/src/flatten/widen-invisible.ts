// A node's base type (its kinds and structure without the constraints on its values), and where keys
// of several variants collide, a node whose parser checks more than its JSON widened to it.
import type { JsonPointer, JsonSchema, JsonSchemaObject } from '../types'
import type { FlattenContext } from './context'
import { childPointer, isSchemaObject, setOwn } from '../json'
import { noteOf, report } from './context'
import { splitByKind } from './facets'
import { sortKinds } from '../keywords'

/** Where in the original a rewritten schema came from (a key merged by a union reports there). */
export function originOf(ctx: FlattenContext, schema: JsonSchema | undefined): JsonPointer | undefined {
  return typeof schema === 'object' ? ctx.origins.get(schema) : undefined
}

/**
 * Where a key collides, a node whose parser does more than its JSON shows (a refine, a trim, a
 * transform…) keeps its base type only: a constraint it shows could exclude what another variant's
 * parser accepts. Applies at any depth below the collided key.
 */
export function widenInvisible(schema: JsonSchema, ctx: FlattenContext, path: JsonPointer): JsonSchema {
  if (!isSchemaObject(schema))
    return schema
  let out: JsonSchemaObject = schema
  if (noteOf(ctx, schema)?.invisible?.length) {
    out = baseType(schema)
    report(ctx, 'invisible-constraint', 'info', path, `kept only the base type: the parser checks more than JSON Schema shows (${noteOf(ctx, schema)!.invisible!.join(', ')}) on a key several variants share`, originOf(ctx, schema))
  }
  let changed = out !== schema
  const next: JsonSchemaObject = { ...out }
  if (isSchemaObject(out.properties)) {
    const properties: Record<string, JsonSchema> = {}
    for (const [key, child] of Object.entries(out.properties)) {
      const widened = widenInvisible(child as JsonSchema, ctx, childPointer(path, 'properties', key))
      setOwn(properties, key, widened)
      changed ||= widened !== child
    }
    next.properties = properties
  }
  for (const keyword of ['items', 'additionalProperties'] as const) {
    if (isSchemaObject(out[keyword])) {
      next[keyword] = widenInvisible(out[keyword] as JsonSchema, ctx, childPointer(path, keyword))
      changed ||= next[keyword] !== out[keyword]
    }
  }
  if (Array.isArray(out.prefixItems)) {
    next.prefixItems = (out.prefixItems as JsonSchema[]).map((child, i) => widenInvisible(child, ctx, childPointer(path, 'prefixItems', i)))
    changed ||= (next.prefixItems as JsonSchema[]).some((child, i) => child !== (out.prefixItems as JsonSchema[])[i])
  }
  return changed ? next : schema
}

/** Constraints a base type drops: everything that narrows values within their kind. */
const VALUE_CONSTRAINTS = new Set(['enum', 'const', 'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'propertyNames', 'contains', 'default'])

/** The node's kinds and structure (properties, items), without the constraints on its values. */
export function baseType(schema: JsonSchemaObject): JsonSchemaObject {
  const { kinds } = splitByKind(schema)
  const out: JsonSchemaObject = {}
  for (const [keyword, value] of Object.entries(schema)) {
    if (!VALUE_CONSTRAINTS.has(keyword))
      out[keyword] = value
  }
  if (out.type === undefined && ('enum' in schema || 'const' in schema)) {
    const types = sortKinds(kinds.keys())
    out.type = types.length === 1 ? types[0] : types
  }
  return out
}
