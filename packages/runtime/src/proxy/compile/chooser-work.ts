// What a validator may spend on one value before it runs: a validator tries every branch of a union,
// and a branch that recurses tries them all again, so a recursive union costs it 2^depth on a value a
// few hundred bytes long (20 levels: 4.5 s of ajv, every other call held). Counted here, memoized by
// schema and value, in time linear in what is reached, so the chooser can decline before it starts.
import { isObject } from '../../util/object'

type Schema = Record<string, unknown>

/** What one subschema applies where: in place, to an object's members, to an array's items. */
interface Applies {
  inPlace: unknown[]
  properties?: Schema
  additional?: unknown
  unevaluatedProperties?: unknown
  prefix?: unknown[]
  items?: unknown
  additionalItems?: unknown
  /** `contains` and `unevaluatedItems`: they apply to every item as well. */
  everyItem: unknown[]
}

/** A local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer): its target, or undefined. */
function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#'))
    return undefined
  let at: unknown = root
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const part = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (!(isObject(at) || Array.isArray(at)) || !Object.prototype.hasOwnProperty.call(at, part))
      return undefined
    at = (at as Record<string, unknown>)[part]
  }
  return at
}

function readApplies(root: unknown, schema: Schema): Applies {
  const inPlace: unknown[] = []
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    if (Array.isArray(schema[key]))
      inPlace.push(...schema[key] as unknown[])
  }
  for (const key of ['not', 'if', 'then', 'else']) {
    if (schema[key] !== undefined)
      inPlace.push(schema[key])
  }
  if (typeof schema.$ref === 'string')
    inPlace.push(resolveRef(root, schema.$ref))
  for (const key of ['dependentSchemas', 'dependencies']) {
    if (isObject(schema[key]))
      inPlace.push(...Object.values(schema[key]).filter(isObject))
  }
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined
  return {
    inPlace,
    properties: isObject(schema.properties) ? schema.properties : undefined,
    additional: schema.additionalProperties,
    unevaluatedProperties: schema.unevaluatedProperties,
    prefix,
    items: Array.isArray(schema.items) ? undefined : schema.items,
    additionalItems: Array.isArray(schema.items) ? schema.additionalItems : undefined,
    everyItem: [schema.contains, schema.unevaluatedItems].filter(child => child !== undefined),
  }
}

/** What each subschema applies where, read once per schema a tool has (not once per call). */
const appliesByRoot = new WeakMap<object, WeakMap<object, Applies>>()

function appliesOf(root: unknown, schema: Schema): Applies {
  const key = isObject(root) ? root : schema
  let known = appliesByRoot.get(key)
  if (!known)
    appliesByRoot.set(key, known = new WeakMap())
  let applies = known.get(schema)
  if (!applies)
    known.set(schema, applies = readApplies(root, schema))
  return applies
}

/** Past the limit: unwinds the walk at once. */
const OVER = Symbol('over')

/**
 * How many (subschema, place in the value) visits validating `value` against `root` takes at most,
 * every branch of every union tried (a validator that stops at the first passing branch spends less);
 * past `limit`, `limit + 1`. The count costs about what it counts, so it stops at the limit: a
 * subschema that applies itself in place, or nesting past the stack, is past it too.
 */
export function validationWork(root: unknown, value: unknown, limit: number): number {
  let spent = 0
  const visit = (schema: unknown, at: unknown): void => {
    if (++spent > limit)
      throw OVER
    if (!isObject(schema))
      return
    const applies = appliesOf(root, schema)
    for (const child of applies.inPlace)
      visit(child, at)
    if (Array.isArray(at)) {
      const { prefix, items, additionalItems, everyItem } = applies
      for (let i = 0; i < at.length; i++) {
        const own = prefix && i < prefix.length ? prefix[i] : prefix && additionalItems !== undefined ? additionalItems : items
        if (own !== undefined)
          visit(own, at[i])
        for (const child of everyItem)
          visit(child, at[i])
      }
    }
    else if (isObject(at)) {
      const { properties, additional, unevaluatedProperties } = applies
      for (const key of Object.keys(at)) {
        const own = properties && Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : additional
        if (own !== undefined)
          visit(own, at[key])
        if (unevaluatedProperties !== undefined)
          visit(unevaluatedProperties, at[key])
      }
    }
  }
  try {
    visit(root, value)
    return spent
  }
  catch {
    // OVER, or nesting past the stack: a validator would not get through it either.
    return limit + 1
  }
}

/** How many subschemas a member (or item) of a value is visited with, from one visit of `applies`. */
function fanOut(applies: Applies): number {
  const members = (applies.properties || applies.additional !== undefined ? 1 : 0) + (applies.unevaluatedProperties === undefined ? 0 : 1)
  const items = (applies.prefix || applies.items !== undefined ? 1 : 0) + applies.everyItem.length
  return Math.max(members, items)
}

/**
 * Whether validating against `root` costs at most a constant per place in the value: no subschema
 * applies itself in place, and no place is visited with more than one subschema from one visit of its
 * parent's (a union's branches that each step into the value are two). Such a schema needs no count.
 */
export function isLinear(root: unknown): boolean {
  const seen = new Set<object>()
  const pending: unknown[] = [root]
  while (pending.length > 0) {
    const schema = pending.pop()
    if (!isObject(schema) || seen.has(schema))
      continue
    seen.add(schema)
    // The subschemas met in place from here, each path counted, and how many visits into the value they make.
    let visits = 0
    const inPlace = (at: Schema, path: Set<object>): boolean => {
      const applies = appliesOf(root, at)
      visits += fanOut(applies)
      if (visits > 1 || path.size > 64)
        return false
      path.add(at)
      for (const child of applies.inPlace) {
        if (isObject(child) && (path.has(child) || !inPlace(child, path)))
          return false
      }
      path.delete(at)
      return true
    }
    if (!inPlace(schema, new Set()))
      return false
    const applies = appliesOf(root, schema)
    pending.push(...applies.inPlace, ...Object.values(applies.properties ?? {}), applies.additional, applies.unevaluatedProperties, ...(applies.prefix ?? []), applies.items, applies.additionalItems, ...applies.everyItem)
  }
  return true
}

/**
 * The visits a test may take on one value: about 50 ms of ajv on a recursive union (a value 20
 * levels deep takes 2^20 × 4 of them, 4.5 s). A schema without unions is never counted.
 */
export const WORK_LIMIT = 1 << 18

/**
 * A validator's test of `schema`, bounded: a value it would spend more than `WORK_LIMIT` visits on is
 * `'unchecked'` (counted first, in about as many steps as a plain validation), never run.
 */
export function boundedTest(validator: (schema: object) => (value: unknown) => boolean, schema: object): (value: unknown) => boolean | 'unchecked' {
  const test = validator(schema)
  if (isLinear(schema))
    return test
  return value => validationWork(schema, value, WORK_LIMIT) > WORK_LIMIT ? 'unchecked' : test(value)
}
