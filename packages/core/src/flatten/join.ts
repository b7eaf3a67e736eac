import type { JsonPointer, JsonSchema, JsonSchemaObject } from '../types'
import type { FlattenContext, ObjectVariant } from './context'
import type { Facets } from './facets'
import type { Kind } from '../keywords'
import { childPointer, hasOwn, isSchemaObject, jsonEqual, setOwn, uniqueJson } from '../json'
import { noteOf, report, tagLabel } from './context'
import { acceptsAnything, assembleFacets, enumsConflict, splitByKind } from './facets'
import { describeVariantKey, describeVariants, findDiscriminator } from './hints'
import { LOWER_BOUNDS, sortKinds, UPPER_BOUNDS } from '../keywords'

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

function declaredKeys(schema: JsonSchemaObject): string[] {
  const properties = isSchemaObject(schema.properties) ? Object.keys(schema.properties) : []
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []
  return [...new Set([...properties, ...required])]
}

function propertyOf(schema: JsonSchemaObject, key: string, keep: boolean): JsonSchema | undefined {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {}
  if (hasOwn(properties, key))
    return properties[key] as JsonSchema
  // Required without a property (a record with enum keys): its value is what extra keys hold. Any
  // one of several matching patterns is a sound stand-in, since the value must satisfy them all.
  return Array.isArray(schema.required) && schema.required.includes(key) ? undeclaredKeySchemas(schema, key, keep)[0] ?? true : undefined
}

function isRequired(schema: JsonSchemaObject, key: string): boolean {
  return Array.isArray(schema.required) && schema.required.includes(key)
}

/**
 * What a variant accepts for keys it does not declare: a schema, or undefined when it gives them no
 * meaning (it strips or forbids them). An object without `properties` (`{type: "object"}`, the object
 * side of an untyped member, an object of patterns only) keeps every other key, whatever it holds;
 * so does every object that says nothing of extra keys when the parser `keep`s unknown keys (a
 * validator does; zod strips them).
 */
function extraKeysSchema(schema: JsonSchemaObject, keep: boolean): JsonSchema | undefined {
  const extra = schema.additionalProperties
  if (extra === true || isSchemaObject(extra))
    return extra
  return extra === undefined && (keep || !isSchemaObject(schema.properties)) ? true : undefined
}

/** What a variant that does not declare `key` accepts under it: its matching patterns, else its catch-all. */
function undeclaredKeySchemas(schema: JsonSchemaObject, key: string, keep: boolean): JsonSchema[] {
  const patterns = isSchemaObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : []
  const matched = patterns.filter(([pattern]) => matchesPattern(pattern, key)).map(([, child]) => child as JsonSchema)
  if (matched.length > 0)
    return matched
  const extra = extraKeysSchema(schema, keep)
  return extra === undefined ? [] : [extra]
}

/** A pattern that cannot be compiled here is assumed to match (the sound guess). */
function matchesPattern(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(key)
  }
  catch {
    return true
  }
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

/**
 * What the variants that do not declare a key accept under it (their matching patterns, else their
 * catch-all), each schema once, in the order of the first variant that gives it: a catch-all that
 * does not depend on the key (most are `true` or a record's value, or none) is grouped once, so a key
 * costs its declaring variants and the variants with patterns, not every variant.
 */
function catchAllIndex(variants: ObjectVariant[], keep: boolean): (key: string, declaring: readonly number[]) => JsonSchema[] {
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
function objectConstraints(schema: JsonSchemaObject): JsonSchemaObject {
  const { properties: _p, required: _r, additionalProperties: _a, ...rest } = schema
  return rest
}

/** Where in the original a rewritten schema came from (a key merged by a union reports there). */
function originOf(ctx: FlattenContext, schema: JsonSchema | undefined): JsonPointer | undefined {
  return typeof schema === 'object' ? ctx.origins.get(schema) : undefined
}

function withDescription(schema: JsonSchemaObject, description: string): JsonSchemaObject {
  const out: JsonSchemaObject = { ...schema }
  if (description === '')
    delete out.description
  else
    out.description = description
  return out
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
