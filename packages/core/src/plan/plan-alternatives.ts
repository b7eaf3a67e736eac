// What the planner knows while it walks a schema, and the alternatives a value there may match.
import type { JsonSchema, JsonSchemaObject } from '../types'
import type { CoercionPlan, ScalarKind } from './coercion-plan'
import { splitByKind } from '../flatten/facets'
import { foldAll } from '../flatten/fold-all'
import { isSchema, isSchemaObject, resolveRef } from '../json'

export interface PlanContext {
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

export const SCALAR_KINDS: ScalarKind[] = ['number', 'boolean', 'null']

/** The kinds a node's alternatives take by their own `type` (a `$ref` to a union, or to nothing, counts as every kind). */
export function shallowKinds(ctx: PlanContext, schema: JsonSchema): Set<string> {
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
export function alternatives(ctx: PlanContext, schema: unknown, seen = 0): JsonSchemaObject[] {
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
export interface Alternative {
  written: JsonSchemaObject
  node: JsonSchemaObject
}

/** The kinds of value an original schema may take (`integer` as `number`; unsure counts as every kind). */
export function kindsOf(ctx: PlanContext, schema: unknown, depth = 0): string[] {
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
export function takesNull(ctx: PlanContext, schema: unknown): boolean {
  return kindsOf(ctx, schema).includes('null')
}
