import type { JsonSchema, JsonSchemaObject } from '../types'
import type { CoercionPlan, PlanOptions } from './coercion-plan'
import type { Alternative, PlanContext } from './plan-alternatives'
import { splitByKind } from '../flatten/facets'
import { tagOf } from '../flatten/hints'
import { hasOwn, isSchema, isSchemaObject, jsonEqual, ownValue, resolvePointer, resolveRef, setOwn } from '../json'
import { agreed } from './plan-algebra'
import { alternatives, kindsOf, SCALAR_KINDS, shallowKinds, takesNull } from './plan-alternatives'

export type { CoercionPlan, PlanOptions, ScalarKind } from './coercion-plan'
export { mergeObjectPlans } from './plan-algebra'

/** A `$ref`'s plan longer than this (as JSON) is named in `defs` rather than copied where it is used. */
const INLINE_LIMIT = 256

/** Deeper than this, values are left to the parser (`coerceArgs` stops there too). */
const MAX_DEPTH = 128

/**
 * The coercion plan of an original (not flattened) schema: a string is parsed only where the schema
 * expects an object or an array and does not accept a string. A `$ref` target is planned once:
 * recursion and shared definitions become named plans, so a plan grows with the schema, not with
 * how deep or how often its definitions nest.
 */
export function planCoercion(schema: JsonSchema, options: PlanOptions = {}): CoercionPlan {
  const discriminators = new WeakMap<object, string>()
  const rejectsNull = new WeakSet<object>()
  for (const [pointer, note] of Object.entries(options.notes ?? {})) {
    const node = resolvePointer(schema, pointer)
    if (note.discriminator && isSchemaObject(node))
      discriminators.set(node, note.discriminator)
    if (note.rejectsNull && isSchemaObject(node))
      rejectsNull.add(node)
  }
  const ctx: PlanContext = { root: schema, nullsMeanAbsent: options.nullsMeanAbsent === true, discriminators, rejectsNull, depth: 0, byRef: new Map(), recursive: new Set(), names: new Map(), defs: {} }
  // The arguments object itself arriving as a string is `coerceArgs`' own rule, not the plan's.
  const plan = withoutPlace(body(ctx, planNode(ctx, schema)) ?? {})
  if (Object.keys(ctx.defs).length > 0)
    plan.defs = ctx.defs
  return plan
}

/** The plan a `{ ref }` stands for (while it is still being planned: nothing yet). */
function body(ctx: PlanContext, plan: CoercionPlan | undefined): CoercionPlan | undefined {
  return plan?.ref !== undefined ? ownValue(ctx.defs, plan.ref) : plan
}

function nameOf(ctx: PlanContext, ref: string): string {
  let name = ctx.names.get(ref)
  if (name === undefined) {
    const base = ref === '#' ? 'root' : ref.slice(ref.lastIndexOf('/') + 1) || 'def'
    name = base
    for (let n = 2; [...ctx.names.values()].includes(name); n++)
      name = `${base}${n}`
    ctx.names.set(ref, name)
  }
  return name
}

/** What a plan says of a string at its own place, which stays with each place a definition is used. */
type PlaceRepairs = Pick<CoercionPlan, 'parse' | 'scalars'>

/** A plan with its place's repairs (those it has) in front of `rest`; undefined when it says nothing. */
function withPlace(place: PlaceRepairs, rest: CoercionPlan | undefined): CoercionPlan | undefined {
  const plan = { ...place, ...rest }
  return Object.keys(plan).length > 0 ? plan : undefined
}

/** A plan without its place's repairs: what a definition's uses share. */
function withoutPlace(plan: CoercionPlan): CoercionPlan {
  const { parse: _parse, scalars: _scalars, ...rest } = plan
  return rest
}

/**
 * The plan at a `$ref`: its target is planned once; a recursive or long plan is named in `defs` and
 * referred to. What to do with a string stays with each place (a named plan never parses).
 */
function planRef(ctx: PlanContext, ref: string): CoercionPlan | undefined {
  const target = resolveRef(ctx.root, ref)
  if (!isSchema(target))
    return undefined
  const place = placeOf(ctx, target)
  const known = ctx.byRef.get(ref)
  if (known === null) {
    ctx.recursive.add(ref)
    return withPlace(place, { ref: nameOf(ctx, ref) })
  }
  if (!ctx.byRef.has(ref)) {
    ctx.byRef.set(ref, null)
    const rest = withoutPlace(planNode(ctx, target) ?? {})
    if (ctx.recursive.has(ref) || JSON.stringify(rest).length > INLINE_LIMIT)
      setOwn(ctx.defs, nameOf(ctx, ref), rest)
    ctx.byRef.set(ref, rest)
  }
  return withPlace(place, ctx.names.has(ref) ? { ref: ctx.names.get(ref)! } : ctx.byRef.get(ref)!)
}

/**
 * What a string may be here, where the node takes no string: JSON text of the object or array it
 * expects (parsed whenever it is met), or the text of a scalar it takes (read so only as a repair).
 */
function placeOf(ctx: PlanContext, schema: JsonSchema): PlaceRepairs {
  const kinds = shallowKinds(ctx, schema)
  if (kinds.has('string'))
    return {}
  const place: PlaceRepairs = {}
  if (kinds.has('object') || kinds.has('array'))
    place.parse = kinds.has('object') && kinds.has('array') ? 'any' : kinds.has('object') ? 'object' : 'array'
  const scalars = SCALAR_KINDS.filter(kind => kinds.has(kind) || (kind === 'number' && kinds.has('integer')))
  if (scalars.length > 0)
    place.scalars = scalars
  return place
}

function planNode(ctx: PlanContext, schema: unknown): CoercionPlan | undefined {
  if (isSchemaObject(schema) && typeof schema.$ref === 'string')
    return planRef(ctx, schema.$ref)
  if (!isSchema(schema) || ctx.depth >= MAX_DEPTH)
    return undefined
  ctx.depth++
  try {
    const alts: Alternative[] = alternatives(ctx, schema).flatMap((written) => {
      const node = typeof written.$ref === 'string' ? resolveRef(ctx.root, written.$ref) : written
      return isSchemaObject(node) ? [{ written, node }] : []
    })
    const ofKind = (kind: 'object' | 'array'): Alternative[] => alts.filter(alt => splitByKind(alt.node).kinds.has(kind))
    const plan: CoercionPlan = placeOf(ctx, schema)
    Object.assign(plan, objectPlan(ctx, ofKind('object'), discriminatorOf(ctx, schema)), arrayPlan(ctx, ofKind('array')))
    return Object.keys(plan).length > 0 ? plan : undefined
  }
  finally {
    ctx.depth--
  }
}

function discriminatorOf(ctx: PlanContext, schema: JsonSchema): string | undefined {
  return isSchemaObject(schema) ? ctx.discriminators.get(schema) : undefined
}

function ownObjectPlan(ctx: PlanContext, object: JsonSchemaObject): CoercionPlan {
  const plan: CoercionPlan = {}
  if (isSchemaObject(object.properties)) {
    const properties: Record<string, CoercionPlan> = {}
    for (const [key, child] of Object.entries(object.properties)) {
      const sub = planNode(ctx, child)
      if (sub)
        setOwn(properties, key, sub)
    }
    if (Object.keys(properties).length > 0)
      plan.properties = properties
  }
  const additional = isSchemaObject(object.additionalProperties) ? planNode(ctx, object.additionalProperties) : undefined
  if (additional) {
    plan.additional = additional
    // A declared key follows its own schema, never the plan for undeclared ones: an empty plan says so.
    for (const key of Object.keys(isSchemaObject(object.properties) ? object.properties : {})) {
      plan.properties ??= {}
      if (!hasOwn(plan.properties, key))
        setOwn(plan.properties, key, {})
    }
  }
  // Only an object of declared keys: elsewhere a `null` may be the value of a key it does not declare.
  const properties = object.properties
  if (ctx.nullsMeanAbsent && isSchemaObject(properties) && (object.additionalProperties === undefined || object.additionalProperties === false))
    plan.keepNull = Object.keys(properties).filter(key => takesNull(ctx, properties[key]))
  return plan
}

/** An alternative's own plan; one reached through a `$ref` is planned (once) as that definition. */
function alternativePlan(ctx: PlanContext, alt: Alternative, own: (node: JsonSchemaObject) => CoercionPlan): CoercionPlan {
  if (typeof alt.written.$ref !== 'string')
    return own(alt.node)
  return withoutPlace(planRef(ctx, alt.written.$ref) ?? {})
}

function objectPlan(ctx: PlanContext, objects: Alternative[], declared: string | undefined): CoercionPlan {
  if (objects.length === 0)
    return {}
  const plans = objects.map(alt => alternativePlan(ctx, alt, node => ownObjectPlan(ctx, node)))
  if (objects.length === 1)
    return plans[0]!
  const nodes = objects.map(alt => alt.node)
  const tag = tagOf(nodes, declared)
  if (tag !== undefined) {
    const cases: Record<string, CoercionPlan> = {}
    plans.forEach((plan, i) => {
      if (Object.keys(plan).length > 0)
        tag.values[i]!.forEach(value => cases[value] = plan)
    })
    return Object.keys(cases).length > 0 ? { discriminator: { key: tag.key, cases } } : {}
  }
  // Ambiguous: a key is coerced only where every alternative that may hold it agrees: those that
  // declare it, and those that take undeclared keys (a record, a catch-all), by their plan for those.
  const bodies = plans.map(plan => body(ctx, plan) ?? {})
  const plan: CoercionPlan = {}
  const keys = new Set(nodes.flatMap(node => isSchemaObject(node.properties) ? Object.keys(node.properties) : []))
  const properties: Record<string, CoercionPlan> = {}
  const declares = (node: JsonSchemaObject, key: string): boolean => isSchemaObject(node.properties) && hasOwn(node.properties, key)
  for (const key of keys) {
    const holding = nodes.map((node, i) => ({ node, plan: bodies[i]! })).filter(({ node }) => declares(node, key) || isSchemaObject(node.additionalProperties))
    const sub = agreed(holding.map(({ node, plan }) => declares(node, key) ? ownValue(plan.properties, key) : plan.additional))
    if (sub)
      setOwn(properties, key, sub)
  }
  if (Object.keys(properties).length > 0)
    plan.properties = properties
  const additional = agreed(bodies.map(p => p.additional))
  if (additional)
    plan.additional = additional
  // Which alternatives a value may take is told by its keys: those that declare every key the value
  // gives a non-null value (see `variants`). With none, a `null` is kept where any alternative takes it.
  if (bodies.every(p => p.keepNull)) {
    plan.keepNull = [...new Set(bodies.flatMap(p => p.keepNull!))]
    plan.variants = nodes.map((node, i) => {
      const properties = isSchemaObject(node.properties) ? node.properties : {}
      const fields = Object.fromEntries(Object.keys(properties).map(key => [key, kindsOf(ctx, properties[key])]))
      const required = Array.isArray(node.required) ? node.required.filter(key => key in properties) as string[] : []
      // An alternative that takes keys it does not name: a value no alternative fits by its named keys may still be of it.
      return { fields, required, plan: plans[i]!, ...(node.additionalProperties === false ? {} : { open: true as const }) }
    })
  }
  return plan
}

function ownArrayPlan(ctx: PlanContext, array: JsonSchemaObject): CoercionPlan {
  const plan: CoercionPlan = {}
  const prefixSchemas = Array.isArray(array.prefixItems) ? array.prefixItems : Array.isArray(array.items) ? array.items : undefined
  const rest = Array.isArray(array.items) ? array.additionalItems : array.items
  const items = isSchemaObject(rest) ? planNode(ctx, rest) : undefined
  if (prefixSchemas) {
    const prefix = prefixSchemas.map(child => planNode(ctx, child) ?? null)
    // With a plan for the rest, the positions are listed even when none needs one: else they would follow it.
    if (prefix.some(Boolean) || items)
      plan.prefix = prefix
  }
  if (items)
    plan.items = items
  if ((plan.items || plan.prefix) && Number.isInteger(array.maxItems))
    plan.maxItems = array.maxItems as number
  return plan
}

function arrayPlan(ctx: PlanContext, arrays: Alternative[]): CoercionPlan {
  // A node names at most one definition (its object side's): an array side reached through a
  // `$ref` is spelled out, and while that definition is still being planned, left to the parser.
  const plans = arrays.map(alt => body(ctx, alternativePlan(ctx, alt, node => ownArrayPlan(ctx, node))) ?? {})
    .map(({ items, prefix, maxItems }) => ({ ...(items ? { items } : {}), ...(prefix ? { prefix } : {}), ...(maxItems === undefined ? {} : { maxItems }) }))
  if (plans.length <= 1)
    return plans[0] ?? {}
  const plan: CoercionPlan = {}
  // Under a strict target, alternatives whose elements need nothing do not count (see `agreed`);
  // elements and positions are judged together, so one alternative's positions never meet another's elements.
  const planned = ctx.nullsMeanAbsent ? plans.filter(p => p.items || p.prefix) : plans
  const whole = (p: CoercionPlan): CoercionPlan => ({ items: p.items, prefix: p.prefix })
  const shared = planned.length > 0 && planned.length < plans.length && planned.every(p => jsonEqual(whole(p), whole(planned[0]!))) ? planned[0]! : undefined
  const items = shared ? shared.items : agreed(plans.map(p => p.items))
  if (items)
    plan.items = items
  const prefix = shared ? shared.prefix : agreed(plans.map(p => p.prefix as CoercionPlan | undefined)) as CoercionPlan['prefix']
  if (prefix)
    plan.prefix = prefix
  // Any alternative may take the array: the bound is the loosest, and only when every one has one.
  if ((plan.items || plan.prefix) && plans.every(p => p.maxItems !== undefined))
    plan.maxItems = Math.max(...plans.map(p => p.maxItems!))
  return plan
}
