import type { JsonSchema, JsonSchemaObject, SchemaNotes } from '../types'
import { splitByKind } from '../flatten/facets'
import { tagOf } from '../flatten/hints'
import { isSchema, isSchemaObject, jsonEqual, resolvePointer, resolveRef } from '../json'

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
  /** The most elements the schema allows: a longer array is left to the parser, which rejects it. */
  maxItems?: number
  /** A union of objects told apart by a string key: the plan of the variant its value selects. */
  discriminator?: { key: string, cases: Record<string, CoercionPlan> }
  /** This place follows the plan named so in the root's `defs` (a recursive or shared definition). */
  ref?: string
  /** Named plans, on the root plan only: a recursive schema plans once, whatever its depth. */
  defs?: Record<string, CoercionPlan>
}

export interface PlanOptions {
  /** Notes from `toOriginalSchema`: a declared discriminator is used where the JSON alone is ambiguous. */
  notes?: SchemaNotes
}

/** A `$ref`'s plan longer than this (as JSON) is named in `defs` rather than copied where it is used. */
const INLINE_LIMIT = 256

interface PlanContext {
  root: JsonSchema
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
  for (const [pointer, note] of Object.entries(options.notes ?? {})) {
    const node = resolvePointer(schema, pointer)
    if (note.discriminator && isSchemaObject(node))
      discriminators.set(node, note.discriminator)
  }
  const ctx: PlanContext = { root: schema, discriminators, depth: 0, byRef: new Map(), recursive: new Set(), names: new Map(), defs: {} }
  // The arguments object itself arriving as a string is `coerceArgs`' own rule, not the plan's.
  const { parse: _root, ...plan } = body(ctx, planNode(ctx, schema)) ?? {}
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

/** A plan with `parse` set (when there is one) in front of `rest`; undefined when it says nothing. */
function withParse(parse: CoercionPlan['parse'], rest: CoercionPlan | undefined): CoercionPlan | undefined {
  const plan = { ...(parse ? { parse } : {}), ...rest }
  return Object.keys(plan).length > 0 ? plan : undefined
}

/**
 * The plan at a `$ref`: its target is planned once; a recursive or long plan is named in `defs` and
 * referred to. Whether to parse a string stays with each place (a named plan never parses).
 */
function planRef(ctx: PlanContext, ref: string): CoercionPlan | undefined {
  const target = resolveRef(ctx.root, ref)
  if (!isSchema(target))
    return undefined
  const parse = parseOf(ctx, target)
  const known = ctx.byRef.get(ref)
  if (known === null) {
    ctx.recursive.add(ref)
    return withParse(parse, { ref: nameOf(ctx, ref) })
  }
  if (!ctx.byRef.has(ref)) {
    ctx.byRef.set(ref, null)
    const { parse: _own, ...rest } = planNode(ctx, target) ?? {}
    if (ctx.recursive.has(ref) || JSON.stringify(rest).length > INLINE_LIMIT)
      ctx.defs[nameOf(ctx, ref)] = rest
    ctx.byRef.set(ref, rest)
  }
  return withParse(parse, ctx.names.has(ref) ? { ref: ctx.names.get(ref)! } : ctx.byRef.get(ref)!)
}

/** Whether a string may be JSON text here: the node expects an object or an array and takes no string. */
function parseOf(ctx: PlanContext, schema: JsonSchema): CoercionPlan['parse'] {
  const kinds = new Set<string>()
  for (const alt of alternatives(ctx, schema)) {
    const node = typeof alt.$ref === 'string' ? resolveRef(ctx.root, alt.$ref) : alt
    // A `$ref` to a union (or to nothing) is not looked into: it may take a string.
    const shallow = isSchemaObject(node) && typeof node.$ref !== 'string' && ![node.anyOf, node.oneOf].some(Array.isArray) ? node : {}
    for (const kind of splitByKind(node === false ? false : shallow).kinds.keys())
      kinds.add(kind)
  }
  if (kinds.has('string') || (!kinds.has('object') && !kinds.has('array')))
    return undefined
  return kinds.has('object') && kinds.has('array') ? 'any' : kinds.has('object') ? 'object' : 'array'
}

/** The alternatives a value may match: the node itself, or its union branches (nested unions spread). */
function alternatives(ctx: PlanContext, schema: unknown, seen = 0): JsonSchemaObject[] {
  if (seen > 32 || !isSchema(schema))
    return []
  if (schema === true)
    return [{}]
  if (schema === false)
    return []
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray)
  if (!branches)
    return [schema]
  return branches.flatMap(branch => alternatives(ctx, branch, seen + 1))
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
    const plan: CoercionPlan = {}
    const parse = parseOf(ctx, schema)
    if (parse)
      plan.parse = parse
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

/** An alternative's own plan; one reached through a `$ref` is planned (once) as that definition. */
function alternativePlan(ctx: PlanContext, alt: Alternative, own: (node: JsonSchemaObject) => CoercionPlan): CoercionPlan {
  if (typeof alt.written.$ref !== 'string')
    return own(alt.node)
  const { parse: _parse, ...rest } = planRef(ctx, alt.written.$ref) ?? {}
  return rest
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
  // Ambiguous: a key is coerced only where every alternative that declares it agrees.
  const bodies = plans.map(plan => body(ctx, plan) ?? {})
  const plan: CoercionPlan = {}
  const keys = new Set(nodes.flatMap(node => isSchemaObject(node.properties) ? Object.keys(node.properties) : []))
  const properties: Record<string, CoercionPlan> = {}
  for (const key of keys) {
    const declaring = nodes.map((node, i) => ({ node, plan: bodies[i]! })).filter(({ node }) => isSchemaObject(node.properties) && key in node.properties)
    const sub = agreed(declaring.map(d => d.plan.properties?.[key]))
    if (sub)
      properties[key] = sub
  }
  if (Object.keys(properties).length > 0)
    plan.properties = properties
  const additional = agreed(bodies.map(p => p.additional))
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
  const items = agreed(plans.map(p => p.items))
  if (items)
    plan.items = items
  const prefix = agreed(plans.map(p => p.prefix as CoercionPlan | undefined)) as CoercionPlan['prefix']
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
    const taken = Object.keys(original.defs ?? {}).some(name => out.defs && Object.prototype.hasOwnProperty.call(out.defs, name))
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
  return out
}

/** The same plan with every definition name (and every use of it) renamed. */
function renameRefs(plan: CoercionPlan, rename: (name: string) => string): CoercionPlan {
  const each = (map: Record<string, CoercionPlan>, renameKeys = false): Record<string, CoercionPlan> =>
    Object.fromEntries(Object.entries(map).map(([key, sub]) => [renameKeys ? rename(key) : key, renameRefs(sub, rename)]))
  const out: CoercionPlan = { ...plan }
  if (plan.ref !== undefined)
    out.ref = rename(plan.ref)
  if (plan.properties)
    out.properties = each(plan.properties)
  if (plan.additional)
    out.additional = renameRefs(plan.additional, rename)
  if (plan.items)
    out.items = renameRefs(plan.items, rename)
  if (plan.prefix)
    out.prefix = plan.prefix.map(sub => sub && renameRefs(sub, rename))
  if (plan.discriminator)
    out.discriminator = { key: plan.discriminator.key, cases: each(plan.discriminator.cases) }
  if (plan.defs)
    out.defs = each(plan.defs, true)
  return out
}
