import type { JsonSchema, JsonSchemaObject, SchemaNotes } from '../types'
import { splitByKind } from '../flatten/facets'
import { tagOf } from '../flatten/hints'
import { isSchemaObject, jsonEqual, resolvePointer, resolveRef } from '../json'

/**
 * Where a JSON string may stand for an object or an array, and how to reach such places. Plain JSON,
 * read by `coerceArgs` in `@flatmcp/runtime`. `{}` means there is nothing to repair.
 */
export interface CoercionPlan {
  /** A string here may be JSON text: parse it, keep the result if it is of this kind. */
  parse?: 'object' | 'array' | 'any'
  /** Plans for an object's keys. */
  properties?: Record<string, CoercionPlan>
  /** The plan for keys not listed in `properties` (record values, catch-alls). */
  additional?: CoercionPlan
  /** The plan for array elements (after `prefix`). */
  items?: CoercionPlan
  /** Plans for tuple positions; `null` where a position needs none. */
  prefix?: (CoercionPlan | null)[]
  /** A union of objects told apart by a string key: the plan of the variant its value selects. */
  discriminator?: { key: string, cases: Record<string, CoercionPlan> }
}

export interface PlanOptions {
  /** Notes from `toOriginalSchema`: a declared discriminator is used where the JSON alone is ambiguous. */
  notes?: SchemaNotes
}

/** How many times one `$ref` is followed inside itself; deeper values are left to the parser. */
const RECURSION_BOUND = 3

interface PlanContext {
  root: JsonSchema
  discriminators: WeakMap<object, string>
  refs: string[]
  depth: number
}

/** Deeper than this, values are left to the parser (`coerceArgs` stops there too). */
const MAX_DEPTH = 128

/**
 * The coercion plan of an original (not flattened) schema: a string is parsed only where the schema
 * expects an object or an array and does not accept a string.
 */
export function planCoercion(schema: JsonSchema, options: PlanOptions = {}): CoercionPlan {
  const discriminators = new WeakMap<object, string>()
  for (const [pointer, note] of Object.entries(options.notes ?? {})) {
    const node = resolvePointer(schema, pointer)
    if (note.discriminator && isSchemaObject(node))
      discriminators.set(node, note.discriminator)
  }
  // The arguments object itself arriving as a string is `coerceArgs`' own rule, not the plan's.
  const { parse: _root, ...plan } = planNode({ root: schema, discriminators, refs: [], depth: 0 }, schema) ?? {}
  return plan
}

function resolve(ctx: PlanContext, schema: unknown): { schema: JsonSchema, ref?: string } | undefined {
  if (isSchemaObject(schema) && typeof schema.$ref === 'string') {
    const ref = schema.$ref
    if (ctx.refs.filter(seen => seen === ref).length >= RECURSION_BOUND)
      return undefined
    const target = resolveRef(ctx.root, ref)
    return isSchemaObject(target) || typeof target === 'boolean' ? { schema: target, ref } : undefined
  }
  return isSchemaObject(schema) || typeof schema === 'boolean' ? { schema } : undefined
}

/** The alternatives a value may match: the node itself, or its union branches (nested unions spread). */
function alternatives(ctx: PlanContext, schema: unknown, seen = 0): JsonSchemaObject[] {
  const resolved = resolve(ctx, schema)
  if (!resolved || !isSchemaObject(resolved.schema) || seen > 32)
    return resolved?.schema === true ? [{}] : []
  const node = resolved.schema
  const branches = [node.anyOf, node.oneOf].find(Array.isArray)
  if (!branches)
    return [node]
  return branches.flatMap(branch => alternatives(ctx, branch, seen + 1))
}

function kindsAccepted(alts: JsonSchemaObject[]): Set<string> {
  const kinds = new Set<string>()
  for (const alt of alts) {
    for (const kind of splitByKind(alt).kinds.keys())
      kinds.add(kind)
  }
  return kinds
}

function planNode(ctx: PlanContext, schema: unknown): CoercionPlan | undefined {
  const resolved = resolve(ctx, schema)
  if (!resolved || ctx.depth >= MAX_DEPTH)
    return undefined
  if (resolved.ref)
    ctx.refs.push(resolved.ref)
  ctx.depth++
  try {
    const alts = alternatives(ctx, resolved.schema)
    const kinds = kindsAccepted(alts)
    const plan: CoercionPlan = {}
    if (!kinds.has('string') && (kinds.has('object') || kinds.has('array')))
      plan.parse = kinds.has('object') && kinds.has('array') ? 'any' : kinds.has('object') ? 'object' : 'array'
    const objects = alts.filter(alt => splitByKind(alt).kinds.has('object'))
    const arrays = alts.filter(alt => splitByKind(alt).kinds.has('array'))
    Object.assign(plan, objectPlan(ctx, objects, discriminatorOf(ctx, resolved.schema)), arrayPlan(ctx, arrays))
    return Object.keys(plan).length > 0 ? plan : undefined
  }
  finally {
    ctx.depth--
    if (resolved.ref)
      ctx.refs.pop()
  }
}

function discriminatorOf(ctx: PlanContext, schema: JsonSchema): string | undefined {
  return isSchemaObject(schema) ? ctx.discriminators.get(schema) : undefined
}

/** The plan all alternatives agree on; where they disagree nothing is coerced (the parser decides). */
function agreed(plans: (CoercionPlan | undefined)[]): CoercionPlan | undefined {
  const first = plans[0]
  return first && plans.every(plan => plan && jsonEqual(plan, first)) ? first : undefined
}

function ownObjectPlan(ctx: PlanContext, object: JsonSchemaObject): CoercionPlan {
  const plan: CoercionPlan = {}
  if (isSchemaObject(object.properties)) {
    const properties: Record<string, CoercionPlan> = {}
    for (const [key, child] of Object.entries(object.properties)) {
      const sub = planNode(ctx, child)
      if (sub)
        properties[key] = sub
    }
    if (Object.keys(properties).length > 0)
      plan.properties = properties
  }
  const additional = isSchemaObject(object.additionalProperties) ? planNode(ctx, object.additionalProperties) : undefined
  if (additional)
    plan.additional = additional
  return plan
}

function objectPlan(ctx: PlanContext, objects: JsonSchemaObject[], declared: string | undefined): CoercionPlan {
  if (objects.length === 0)
    return {}
  const plans = objects.map(object => ownObjectPlan(ctx, object))
  if (objects.length === 1)
    return plans[0]!
  const tag = tagOf(objects, declared)
  if (tag !== undefined) {
    const cases: Record<string, CoercionPlan> = {}
    objects.forEach((_, i) => {
      if (Object.keys(plans[i]!).length > 0)
        tag.values[i]!.forEach(value => cases[value] = plans[i]!)
    })
    return Object.keys(cases).length > 0 ? { discriminator: { key: tag.key, cases } } : {}
  }
  // Ambiguous: a key is coerced only where every alternative that declares it agrees.
  const plan: CoercionPlan = {}
  const keys = new Set(objects.flatMap(object => isSchemaObject(object.properties) ? Object.keys(object.properties) : []))
  const properties: Record<string, CoercionPlan> = {}
  for (const key of keys) {
    const declaring = objects.map((object, i) => ({ object, plan: plans[i]! })).filter(({ object }) => isSchemaObject(object.properties) && key in object.properties)
    const sub = agreed(declaring.map(d => d.plan.properties?.[key]))
    if (sub)
      properties[key] = sub
  }
  if (Object.keys(properties).length > 0)
    plan.properties = properties
  const additional = agreed(plans.map(p => p.additional))
  if (additional)
    plan.additional = additional
  return plan
}

function ownArrayPlan(ctx: PlanContext, array: JsonSchemaObject): CoercionPlan {
  const plan: CoercionPlan = {}
  const prefixSchemas = Array.isArray(array.prefixItems) ? array.prefixItems : Array.isArray(array.items) ? array.items : undefined
  const rest = Array.isArray(array.items) ? array.additionalItems : array.items
  if (prefixSchemas) {
    const prefix = prefixSchemas.map(child => planNode(ctx, child) ?? null)
    if (prefix.some(Boolean))
      plan.prefix = prefix
  }
  const items = isSchemaObject(rest) ? planNode(ctx, rest) : undefined
  if (items)
    plan.items = items
  return plan
}

function arrayPlan(ctx: PlanContext, arrays: JsonSchemaObject[]): CoercionPlan {
  const plans = arrays.map(array => ownArrayPlan(ctx, array))
  if (plans.length <= 1)
    return plans[0] ?? {}
  const plan: CoercionPlan = {}
  const items = agreed(plans.map(p => p.items))
  if (items)
    plan.items = items
  const prefix = agreed(plans.map(p => p.prefix as CoercionPlan | undefined)) as CoercionPlan['prefix']
  if (prefix)
    plan.prefix = prefix
  return plan
}

/** One plan for an object assembled from parts with disjoint keys (params, input, shared fields). */
export function mergeObjectPlans(parts: CoercionPlan[]): CoercionPlan {
  const out: CoercionPlan = {}
  for (const part of parts) {
    if (part.properties)
      out.properties = { ...out.properties, ...part.properties }
    if (part.additional && !out.additional)
      out.additional = part.additional
    if (part.discriminator && !out.discriminator)
      out.discriminator = part.discriminator
  }
  return out
}
