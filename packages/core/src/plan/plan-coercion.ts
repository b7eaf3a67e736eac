import type { JsonSchema, JsonSchemaObject, SchemaNotes } from '../types'
import { splitByKind } from '../flatten/facets'
import { foldAll } from '../flatten/walk'
import { tagOf } from '../flatten/hints'
import { hasOwn, isSchema, isSchemaObject, jsonEqual, ownValue, resolvePointer, resolveRef, setOwn } from '../json'

/**
 * Where a JSON string may stand for an object or an array, and how to reach such places. Plain JSON,
 * read by `coerceArgs` in `@flatmcp/runtime`. `{}` means there is nothing to repair.
 */
export interface CoercionPlan {
  /**
   * A string here may be JSON text: parse it, keep the result if it is of this kind. `json`: the place
   * was advertised as JSON text (a target profile's encoding), so any JSON value parsed is kept.
   */
  parse?: 'object' | 'array' | 'any' | 'json'
  /**
   * A repair tried only after the original rejected the arguments as sent: a string here that is the
   * canonical JSON text of a value of these kinds (`"5"`, `"true"`, `"null"`) is read as that value.
   * Only where the schema takes no string; `number` stands for integers too.
   */
  scalars?: ScalarKind[]
  /**
   * A target advertised this object's optional keys as nullable: a `null` is dropped (the key is
   * missing, so a default applies) except at the keys listed, whose schema takes `null` itself.
   */
  keepNull?: string[]
  /**
   * A union of objects without a discriminator, under a strict target: each alternative's keys with
   * the kinds they take, its required keys, and its plan. The first alternative the value fits by
   * those is followed, as a discriminator's case would be, keeping a `null` where any that fits takes it.
   */
  variants?: { fields: Record<string, string[]>, required: string[], plan: CoercionPlan }[]
  /** A target's decoding, at an optional key: a `null` means the key was left out, so it is removed first. */
  nullIsAbsent?: true
  /** A target's decoding: the key's value was advertised wrapped, `{ "value": … }`; it is taken out. */
  unwrap?: 'value'
  /**
   * A target's decoding: this object was closed with this key holding its other keys as the JSON text
   * of an object (`{}` or null for none); the key is taken out and the keys it holds merged back in.
   */
  rest?: string
  /** Plans for an object's keys. */
  properties?: Record<string, CoercionPlan>
  /** The plan for keys not listed in `properties` (record values, catch-alls). */
  additional?: CoercionPlan
  /** The plan for array elements (after `prefix`). */
  items?: CoercionPlan
  /** Plans for tuple positions; `null` where a position needs none. */
  prefix?: (CoercionPlan | null)[]
  /** The most elements the schema allows: a longer array is left to the parser, which rejects it. */
  maxItems?: number
  /** A union of objects told apart by a string key: the plan of the variant its value selects. */
  discriminator?: { key: string, cases: Record<string, CoercionPlan> }
  /** This place follows the plan named so in the root's `defs` (a recursive or shared definition). */
  ref?: string
  /** Named plans, on the root plan only: a recursive schema plans once, whatever its depth. */
  defs?: Record<string, CoercionPlan>
}

export type ScalarKind = 'number' | 'boolean' | 'null'

export interface PlanOptions {
  /** Notes from `toOriginalSchema`: a declared discriminator is used where the JSON alone is ambiguous. */
  notes?: SchemaNotes
  /** A `null` at an optional key means a missing key (a strict target's answer): plan `keepNull`. */
  nullsMeanAbsent?: boolean
}

/** A `$ref`'s plan longer than this (as JSON) is named in `defs` rather than copied where it is used. */
const INLINE_LIMIT = 256

interface PlanContext {
  root: JsonSchema
  nullsMeanAbsent: boolean
  /** Nodes whose JSON takes null where the schema does not (from the notes). */
  rejectsNull: WeakSet<object>
  discriminators: WeakMap<object, string>
  depth: number
  /** Plans of `$ref` targets by their `$ref`; `null` while one is being planned. */
  byRef: Map<string, CoercionPlan | undefined | null>
  /** `$ref`s met again while being planned: they are recursive and get a name. */
  recursive: Set<string>
  names: Map<string, string>
  defs: Record<string, CoercionPlan>
}

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
  return plan?.ref !== undefined ? ctx.defs[plan.ref] : plan
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
      ctx.defs[nameOf(ctx, ref)] = rest
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

const SCALAR_KINDS: ScalarKind[] = ['number', 'boolean', 'null']

/** The kinds a node's alternatives take by their own `type` (a `$ref` to a union, or to nothing, counts as every kind). */
function shallowKinds(ctx: PlanContext, schema: JsonSchema): Set<string> {
  const kinds = new Set<string>()
  for (const alt of alternatives(ctx, schema)) {
    const node = typeof alt.$ref === 'string' ? resolveRef(ctx.root, alt.$ref) : alt
    // A `$ref` to a union (or to nothing) is not looked into: it may take a string.
    const shallow = isSchemaObject(node) && typeof node.$ref !== 'string' && ![node.anyOf, node.oneOf].some(Array.isArray) ? node : {}
    for (const kind of splitByKind(node === false ? false : shallow).kinds.keys())
      kinds.add(kind)
  }
  return kinds
}

/** The alternatives a value may match: the node itself, or its union branches (nested unions spread). */
function alternatives(ctx: PlanContext, schema: unknown, seen = 0): JsonSchemaObject[] {
  if (seen > 32 || !isSchema(schema))
    return []
  if (schema === true)
    return [{}]
  if (schema === false)
    return []
  if (Array.isArray(schema.allOf))
    return intersected(ctx, schema, seen)
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray)
  if (!branches)
    return [schema]
  return branches.flatMap(branch => alternatives(ctx, branch, seen + 1))
}

/** At most this many alternatives an intersection spreads into; past it, it is planned as one. */
const MAX_INTERSECTED = 32

/**
 * The alternatives of an `allOf`: each way of taking one alternative of every member, folded into
 * one schema (a union member spreads the intersection into one alternative per branch), so plans
 * reach inside intersections as they do inside unions.
 */
function intersected(ctx: PlanContext, schema: JsonSchemaObject, seen: number): JsonSchemaObject[] {
  const { allOf, ...container } = schema
  let combined = alternatives(ctx, container, seen + 1)
  for (const member of allOf as unknown[]) {
    // A member that is no schema (zod has written `null` there) constrains nothing, as the flat schema reads it.
    if (!isSchema(member))
      continue
    const resolved = isSchemaObject(member) && typeof member.$ref === 'string' ? resolveRef(ctx.root, member.$ref) : member
    const options = alternatives(ctx, resolved, seen + 1)
    combined = combined.flatMap(left => options.flatMap((right) => {
      const folded = foldAll([left, right])
      return isSchemaObject(folded) ? [folded] : []
    }))
    if (combined.length > MAX_INTERSECTED)
      return [schema]
  }
  return combined
}

/** One alternative of a node: as written (perhaps a `$ref`) and resolved. */
interface Alternative {
  written: JsonSchemaObject
  node: JsonSchemaObject
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

/**
 * The plan all alternatives agree on; where they disagree nothing is coerced (the parser decides).
 * Plans that differ only in scalar repairs agree on the rest: a scalar is repaired only where every
 * alternative would read it so.
 */
function agreed(plans: (CoercionPlan | undefined)[]): CoercionPlan | undefined {
  const first = plans[0]
  if (!first || plans.some(plan => !plan))
    return undefined
  if (plans.every(plan => jsonEqual(plan, first)))
    return first
  const bare = plans.map(plan => mapPlans(plan!, withoutScalars))
  return bare.every(plan => jsonEqual(plan, bare[0])) && Object.keys(bare[0]!).length > 0 ? bare[0] : undefined
}

const isEmpty = (plan: CoercionPlan | null | undefined): boolean => !plan || Object.keys(plan).length === 0

/** A place without its scalar repairs, and without what is left saying nothing (its sub-plans are done first). */
function withoutScalars(place: CoercionPlan): CoercionPlan {
  const { scalars: _scalars, ...out } = place
  // An empty plan for a declared key says something only beside a plan for undeclared ones.
  if (out.properties && !out.additional) {
    const kept = Object.entries(out.properties).filter(([, sub]) => !isEmpty(sub))
    if (kept.length > 0) {
      out.properties = {}
      for (const [key, sub] of kept)
        setOwn(out.properties, key, sub)
    }
    else {
      delete out.properties
    }
  }
  if (isEmpty(out.items))
    delete out.items
  if (out.prefix) {
    out.prefix = out.prefix.map(sub => isEmpty(sub) ? null : sub)
    if (!out.items && out.prefix.every(sub => sub === null))
      delete out.prefix
  }
  if (!out.items && !out.prefix)
    delete out.maxItems
  if (out.discriminator) {
    const cases = Object.entries(out.discriminator.cases).filter(([, sub]) => !isEmpty(sub))
    if (cases.length > 0)
      out.discriminator = { key: out.discriminator.key, cases: Object.fromEntries(cases) }
    else
      delete out.discriminator
  }
  return out
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

/** The kinds of value an original schema may take (`integer` as `number`; unsure counts as every kind). */
function kindsOf(ctx: PlanContext, schema: unknown, depth = 0): string[] {
  if (depth > 16 || schema === true)
    return ['object', 'array', 'string', 'number', 'boolean', 'null']
  if (!isSchemaObject(schema))
    return []
  if (typeof schema.$ref === 'string')
    return kindsOf(ctx, resolveRef(ctx.root, schema.$ref), depth + 1)
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray)
  let kinds = branches ? branches.flatMap(branch => kindsOf(ctx, branch, depth + 1)) : [...splitByKind(schema).kinds.keys()].map(kind => kind === 'integer' ? 'number' : kind)
  // A member that is no schema constrains nothing (as `intersected` reads it).
  for (const part of Array.isArray(schema.allOf) ? schema.allOf.filter(isSchema) : []) {
    const allowed = kindsOf(ctx, part, depth + 1)
    kinds = kinds.filter(kind => allowed.includes(kind))
  }
  return [...new Set(ctx.rejectsNull.has(schema) ? kinds.filter(kind => kind !== 'null') : kinds)].sort()
}

/** Whether an original schema may take `null` (unsure counts as yes: the `null` is then kept). */
function takesNull(ctx: PlanContext, schema: unknown): boolean {
  return kindsOf(ctx, schema).includes('null')
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
      return { fields, required: Array.isArray(node.required) ? node.required.filter(key => key in properties) as string[] : [], plan: plans[i]! }
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

/** One plan for an object assembled from parts with disjoint keys (params, input, shared fields). */
export function mergeObjectPlans(parts: CoercionPlan[]): CoercionPlan {
  const out: CoercionPlan = {}
  parts.forEach((original, i) => {
    const taken = Object.keys(original.defs ?? {}).some(name => out.defs && hasOwn(out.defs, name))
    const part = taken ? renameRefs(original, name => `${i}_${name}`) : original
    if (part.properties)
      out.properties = { ...out.properties, ...part.properties }
    if (part.additional && !out.additional)
      out.additional = part.additional
    if (part.discriminator && !out.discriminator)
      out.discriminator = part.discriminator
    if (part.defs)
      out.defs = { ...out.defs, ...part.defs }
  })
  if (parts.every(part => part.keepNull))
    out.keepNull = parts.flatMap(part => part.keepNull!)
  return out
}

/** The same plan with every definition name (and every use of it) renamed. */
function renameRefs(plan: CoercionPlan, rename: (name: string) => string): CoercionPlan {
  const renamed = mapPlans(plan, place => place.ref === undefined ? place : { ...place, ref: rename(place.ref) })
  if (renamed.defs)
    renamed.defs = Object.fromEntries(Object.entries(renamed.defs).map(([name, sub]) => [rename(name), sub]))
  return renamed
}

/** The plan with `change` applied at every place of it (sub-plans first, definitions included); a new plan. */
function mapPlans(plan: CoercionPlan, change: (place: CoercionPlan) => CoercionPlan): CoercionPlan {
  const each = (map: Record<string, CoercionPlan>): Record<string, CoercionPlan> => {
    const out: Record<string, CoercionPlan> = {}
    for (const [key, sub] of Object.entries(map))
      setOwn(out, key, mapPlans(sub, change))
    return out
  }
  const out: CoercionPlan = { ...plan }
  if (plan.properties)
    out.properties = each(plan.properties)
  if (plan.additional)
    out.additional = mapPlans(plan.additional, change)
  if (plan.items)
    out.items = mapPlans(plan.items, change)
  if (plan.prefix)
    out.prefix = plan.prefix.map(sub => sub && mapPlans(sub, change))
  if (plan.discriminator)
    out.discriminator = { key: plan.discriminator.key, cases: each(plan.discriminator.cases) }
  if (plan.variants)
    out.variants = plan.variants.map(v => ({ ...v, plan: mapPlans(v.plan, change) }))
  if (plan.defs)
    out.defs = each(plan.defs)
  return change(out)
}
