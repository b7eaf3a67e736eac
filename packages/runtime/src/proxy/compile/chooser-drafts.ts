// A draft-04 or draft-07 node as 2020-12 reads it, for the chooser: a 2020-12 validator refuses the
// older forms servers still write (a boolean exclusive bound, `id`, tuple `items`, `required: null`),
// and a schema it cannot compile chooses nothing, so a stringified integer went upstream unrepaired.
import { defineOwn } from '../../util/object'

/** Each bound, and the draft-04 boolean beside it that makes it exclusive. */
const EXCLUSIVE_OF: Record<string, string> = { minimum: 'exclusiveMinimum', maximum: 'exclusiveMaximum' }

/** Whether `key` of `node` is an older form 2020-12 has no reading of: left out. */
function leftOut(node: Record<string, unknown>, key: string, value: unknown): boolean {
  switch (key) {
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return typeof value === 'boolean'
    case 'id':
      return typeof value === 'string'
    case 'required':
      return !(Array.isArray(value) && value.every(name => typeof name === 'string'))
    case 'additionalItems':
      return !Array.isArray(node.items)
    default:
      return false
  }
}

/** What `key` is called in 2020-12 where `node` holds it in an older form. */
function renamed(node: Record<string, unknown>, key: string): string {
  if (key in EXCLUSIVE_OF && node[EXCLUSIVE_OF[key]!] === true)
    return EXCLUSIVE_OF[key]!
  if (Array.isArray(node.items))
    return key === 'items' ? 'prefixItems' : key === 'additionalItems' ? 'items' : key
  return key
}

/**
 * `node`'s keywords in their 2020-12 form (its subschemas as they are): a draft-04 exclusive bound as
 * the number it bounds by (`false`, or `true` with no bound beside it, left out), `id` left out as
 * `$id` is, an `items` list as `prefixItems` and `additionalItems` as `items`, and a `required` that
 * is not a list of names left out (read as none).
 */
export function as2020(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (!leftOut(node, key, value))
      defineOwn(out, renamed(node, key), value)
  }
  return out
}
