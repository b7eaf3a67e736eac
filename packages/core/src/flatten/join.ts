import type { JsonPointer, JsonSchema, JsonSchemaObject } from '../types'
import type { FlattenContext, ObjectVariant } from './context'
import type { Facets } from './facets'
import type { Kind } from '../keywords'
import { childPointer, isSchema, isSchemaObject, jsonEqual, setOwn, uniqueJson } from '../json'
import { report, tagLabel } from './context'
import { acceptsAnything, assembleFacets, enumsConflict, splitByKind } from './facets'
import { describeVariantKey, describeVariants, findDiscriminator } from './hints'
import { LOWER_BOUNDS, sortKinds, UPPER_BOUNDS } from '../keywords'
import { catchAllIndex, declaredKeys, extraKeysSchema, isRequired, objectConstraints, propertyOf } from './object-keys'
import { originOf, widenInvisible } from './widen-invisible'

export interface Joined {
  schema: JsonSchema
  /** True when the joined schema accepts exactly the union of its inputs (nothing was widened). */
  exact: boolean
}

/**
 * One schema accepting every value any of `schemas` accepts (their union), as precise as a single
 * schema without combinators can be: kinds become a `type` array, enums widen, conflicting
 * constraints loosen or drop, objects merge key by key. Never narrower than the union.
 */
export function joinSchemas(schemas: JsonSchema[], ctx: FlattenContext, path: JsonPointer, discriminator?: string): Joined {
  const joined = joinLive(schemas, ctx, path, discriminator)
  // The joined node stands where its first input stood in the original.
  const origin = schemas.map(schema => originOf(ctx, schema)).find(Boolean)
  if (origin !== undefined && typeof joined.schema === 'object' && !ctx.origins.has(joined.schema))
    ctx.origins.set(joined.schema, origin)
  return joined
}

/** How many properties an object schema declares (-1 for one without `properties`). */
function keyCount(schema: JsonSchema): number {
  return isSchemaObject(schema) && isSchemaObject(schema.properties) ? Object.keys(schema.properties).length : -1
}

function joinLive(schemas: JsonSchema[], ctx: FlattenContext, path: JsonPointer, discriminator?: string): Joined {
  const live = schemas.flatMap(branchesOf).filter(schema => schema !== false)
  if (live.length === 0)
    return { schema: false, exact: true }
  if (live.every(schema => jsonEqual(schema, live[0])))
    return { schema: live[0]!, exact: true }

  const split = live.map(splitByKind)
  const annotations = commonAnnotations(split.map(s => s.annotations))
  // A branch that takes any value makes the union take any value: nothing else may narrow it.
  if (live.some(acceptsAnything))
    return { schema: annotated(ctx.profile.anyValue(), annotations), exact: true }
  const hasNumber = split.some(s => s.kinds.has('number'))
  const byKind = new Map<Kind, { facet: JsonSchemaObject, variant: number }[]>()
  split.forEach((s, variant) => {
    for (const [rawKind, facet] of s.kinds) {
      // `integer` folds into `number` when both occur.
      const kind = rawKind === 'integer' && hasNumber ? 'number' : rawKind
      const entry = kind === rawKind ? facet : { ...facet, type: kind }
      const entries = byKind.get(kind)
      if (entries)
        entries.push({ facet: entry, variant })
      else
        byKind.set(kind, [{ facet: entry, variant }])
    }
  })

  let exact = !split.some(s => s.opaque)
  const facets: JsonSchemaObject[] = []
  for (const kind of sortKinds(byKind.keys())) {
    const entries = byKind.get(kind)!
    const joined = kind === 'object'
      ? mergeObjects(entries.map(({ facet, variant }) => ({ schema: facet, description: split[variant]!.annotations.description as string | undefined })), ctx, path, discriminator)
      : mergeFacets(entries.map(e => e.facet), ctx, path)
    // Compared only where the key counts agree: the joined object of a wide union has a key per
    // variant, and comparing every variant with it whole would cost n².
    const joinedKeys = keyCount(joined)
    exact &&= entries.length === 1 || entries.some(e => keyCount(e.facet) === joinedKeys && jsonEqual(e.facet, joined))
    facets.push(joined)
  }
  exact &&= !enumsConflict(facets) && annotationsKept(split, annotations)
  return { schema: assembleFacets(facets, annotations), exact }
}

function annotated(schema: JsonSchema, annotations: JsonSchemaObject): JsonSchema {
  if (Object.keys(annotations).length === 0)
    return schema
  return schema === true ? { ...annotations } : isSchemaObject(schema) ? { ...annotations, ...schema } : schema
}

/** A union left as it is (a profile that keeps it) joins through its branches: a union of unions is one union. */
function branchesOf(schema: JsonSchema): JsonSchema[] {
  // A value that is no schema (a string where a subschema goes) constrains nothing: joined as any value.
  if (!isSchema(schema))
    return [true]
  if (!isSchemaObject(schema))
    return [schema]
  const keys = Object.keys(schema)
  const union = keys.length === 1 && (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined)
  return union ? (union as JsonSchema[]).flatMap(branchesOf) : [schema]
}

function annotationsKept(split: Facets[], kept: JsonSchemaObject): boolean {
  return split.every(s => Object.keys(s.annotations).every(key => key === 'description' || key === 'title' || key in kept))
}

/** Annotations shared by every schema; a default that differs must not look like it applies to all. */
function commonAnnotations(all: JsonSchemaObject[]): JsonSchemaObject {
  const out: JsonSchemaObject = {}
  const first = all[0]!
  for (const [key, value] of Object.entries(first)) {
    if (all.every(other => key in other && jsonEqual(other[key], value)))
      out[key] = value
  }
  return out
}

/** Joins facets of one non-object kind: keep what all agree on, widen bounds and enums, drop the rest. */
function mergeFacets(facets: JsonSchemaObject[], ctx: FlattenContext, path: JsonPointer): JsonSchemaObject {
  const first = facets[0]!
  if (facets.every(facet => jsonEqual(facet, first)))
    return first
  return first.type === 'array' ? mergeArrays(facets, ctx, path) : mergeKeywords(facets)
}

/** Keeps each keyword all facets agree on; bounds take the loosest value, enums their union. */
function mergeKeywords(facets: JsonSchemaObject[]): JsonSchemaObject {
  const out: JsonSchemaObject = {}
  for (const keyword of new Set(facets.flatMap(Object.keys))) {
    const values = facets.map(facet => facet[keyword])
    if (values.includes(undefined))
      continue
    if (keyword === 'enum')
      out.enum = uniqueJson((values as unknown[][]).flat())
    else if (LOWER_BOUNDS.has(keyword) || UPPER_BOUNDS.has(keyword))
      out[keyword] = widestBound(keyword, values)
    else if (values.every(value => jsonEqual(value, values[0])))
      out[keyword] = values[0]
  }
  return stripUndefined(out)
}

function widestBound(keyword: string, values: unknown[]): number | undefined {
  if (!values.every(value => typeof value === 'number'))
    return undefined
  return LOWER_BOUNDS.has(keyword) ? Math.min(...values as number[]) : Math.max(...values as number[])
}

function stripUndefined(schema: JsonSchemaObject): JsonSchemaObject {
  for (const key of Object.keys(schema)) {
    if (schema[key] === undefined)
      delete schema[key]
  }
  return schema
}

/** The schemas one array facet allows at any position: its tuple positions and its `items`. */
function elementSchemas(facet: JsonSchemaObject): JsonSchema[] {
  const prefix = Array.isArray(facet.prefixItems) ? facet.prefixItems as JsonSchema[] : Array.isArray(facet.items) ? facet.items as JsonSchema[] : []
  const rest = Array.isArray(facet.items) ? facet.additionalItems : facet.items
  const tail: JsonSchema[] = rest === undefined ? [true] : [rest as JsonSchema]
  return [...prefix, ...tail]
}

function isTuple(facet: JsonSchemaObject): boolean {
  return Array.isArray(facet.prefixItems) || Array.isArray(facet.items)
}

function mergeArrays(facets: JsonSchemaObject[], ctx: FlattenContext, path: JsonPointer): JsonSchemaObject {
  const rest = facets.map(facet => Object.fromEntries(Object.entries(facet).filter(([k]) => !['items', 'prefixItems', 'additionalItems'].includes(k))))
  const out = mergeKeywords(rest)
  const itemsPath = childPointer(path, 'items')
  const prefixes = facets.map(facet => facet.prefixItems)
  const sameTuples = prefixes.every(p => Array.isArray(p) && p.length === (prefixes[0] as unknown[]).length)
    && facets.every(facet => jsonEqual(facet.items, facets[0]!.items))
  if (sameTuples) {
    const length = (prefixes[0] as unknown[]).length
    out.prefixItems = Array.from({ length }, (_, i) => joinSchemas(facets.map(f => (f.prefixItems as JsonSchema[])[i]!), ctx, childPointer(path, 'prefixItems', i)).schema)
    if (facets[0]!.items !== undefined)
      out.items = facets[0]!.items
    return out
  }
  if (!facets.some(isTuple)) {
    // An array without `items` takes elements of any shape.
    const items = joinSchemas(facets.map(facet => (facet.items ?? true) as JsonSchema), ctx, itemsPath).schema
    if (items !== true)
      out.items = items
    return out
  }
  // Tuples of different shapes: every position accepts what any position of any of them accepts.
  const elements = joinSchemas(facets.flatMap(elementSchemas), ctx, itemsPath).schema
  if (elements !== true)
    out.items = elements
  return out
}

/**
 * Merges object schemas into one flat object that accepts every variant. A key keeps the join of its
 * schemas across the variants that declare it (plus what a variant's catch-all accepts for it); it
 * is required only when every variant requires it. With a discriminator, the discriminator becomes a
 * string enum and keys gain per-variant hints.
 */
export function mergeObjects(variants: ObjectVariant[], ctx: FlattenContext, path: JsonPointer, declaredDiscriminator?: string): JsonSchemaObject {
  if (variants.length === 1)
    return variants[0]!.schema
  const discriminator = findDiscriminator(variants.map(v => v.schema), declaredDiscriminator, ctx, path)
  const keep = ctx.semantics.unknownKeys === 'keep'
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  // Which variants declare each key, found once: a union of n variants with a key each is n keys
  // joined over n variants, and asking every variant of every key would cost n².
  const declaredBy = new Map<string, number[]>()
  for (const [i, v] of variants.entries()) {
    for (const key of declaredKeys(v.schema)) {
      const declaring = declaredBy.get(key)
      if (declaring)
        declaring.push(i)
      else
        declaredBy.set(key, [i])
    }
  }
  const keys = [...declaredBy.keys()]
  if (discriminator)
    keys.splice(keys.indexOf(discriminator.key), 1)
  const catchAll = catchAllIndex(variants, keep)

  for (const key of keys) {
    const keyPath = childPointer(path, 'properties', key)
    const declaring = declaredBy.get(key)!.map(i => ({ schema: propertyOf(variants[i]!.schema, key, keep), i }))
    const catchAlls = catchAll(key, declaredBy.get(key)!)
    const candidates = [...declaring.map(e => e.schema!), ...catchAlls]
    let schema: JsonSchema = candidates.length === 1
      ? candidates[0]!
      : joinSchemas(candidates.map(s => widenInvisible(s, ctx, keyPath)), ctx, keyPath).schema
    if (acceptsAnything(schema) && !declaring.every(e => acceptsAnything(e.schema)))
      report(ctx, 'untyped-leaf', 'warning', keyPath, `"${key}" accepts any value: ${catchAlls.some(acceptsAnything) ? 'a variant that does not declare it keeps extra keys of any value' : 'a variant leaves it untyped'}, so no other variant's type may constrain it`, originOf(ctx, declaring[0]!.schema))
    const requiredBy = declaring.filter(e => isRequired(variants[e.i]!.schema, key)).map(e => e.i)
    if (requiredBy.length === variants.length)
      required.push(key)
    if (discriminator && isSchemaObject(schema)) {
      const { description, hint } = describeVariantKey(discriminator, tagLabel(ctx, path, discriminator.key), variants, key, declaring.map(e => e.i), requiredBy, node => isSchemaObject(node) ? ctx.hints.get(node) : undefined)
      schema = withDescription(schema, description)
      ctx.hints.set(schema, hint)
    }
    const origin = originOf(ctx, declaring[0]!.schema)
    if (origin !== undefined && typeof schema === 'object' && !ctx.origins.has(schema))
      ctx.origins.set(schema, origin)
    setOwn(properties, key, schema)
  }

  const out: JsonSchemaObject = { type: 'object' }
  Object.assign(out, mergeKeywords(variants.map(v => objectConstraints(v.schema))))
  if (discriminator) {
    out.properties = { [discriminator.key]: describeVariants(discriminator, variants), ...properties }
    required.unshift(discriminator.key)
  }
  else {
    out.properties = properties
  }
  if (required.length > 0)
    out.required = required
  const extras = variants.map(v => extraKeysSchema(v.schema, keep) ?? v.schema.additionalProperties)
  const patternsDiffer = 'patternProperties' in out === false && variants.some(v => 'patternProperties' in v.schema)
  const meaningful = extras.filter(isSchemaObject)
  // A variant that keeps every extra key keeps the flat object open, and says so: an outer union
  // joining this object must not read its silence as "extra keys carry nothing".
  if (extras.includes(true) || patternsDiffer) {
    out.additionalProperties = true
    return out
  }
  // Extra keys a variant gives meaning to (a record, a catch-all) must pass; those a variant only
  // strips carry nothing, like the undeclared keys of any variant.
  if (meaningful.length > 0)
    out.additionalProperties = joinSchemas(meaningful, ctx, childPointer(path, 'additionalProperties')).schema
  else if (extras.every(extra => extra === false))
    out.additionalProperties = false
  return out
}

function withDescription(schema: JsonSchemaObject, description: string): JsonSchemaObject {
  const out: JsonSchemaObject = { ...schema }
  if (description === '')
    delete out.description
  else
    out.description = description
  return out
}
