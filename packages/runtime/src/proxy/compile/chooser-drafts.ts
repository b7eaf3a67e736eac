// A draft-04 or draft-07 node as 2020-12 reads it, for the chooser: a 2020-12 validator refuses the
// older forms servers still write (a boolean exclusive bound, `id`, tuple `items`, `required: null`),
// and a schema it cannot compile chooses nothing, so a stringified integer went upstream unrepaired.
// The forms and their readings are the compiler's own (`readLegacyKeywords`, `readTupleItems`); what
// is left here is what only a validator needs: `id` and a stray `additionalItems` left out.
import { readLegacyKeywords, readTupleItems } from '@flatmcp/core'

/**
 * `node`'s keywords in their 2020-12 form (a copy; its subschemas as they are): a draft-04 exclusive
 * bound as the number it bounds by, an `items` list as `prefixItems` and `additionalItems` as `items`,
 * a `required` that is not a list of names left out (read as none), and `id` left out as `$id` is.
 */
export function as2020(node: Record<string, unknown>): Record<string, unknown> {
  // A spread keeps an own `__proto__` key as a key.
  const out: Record<string, unknown> = { ...node }
  readLegacyKeywords(out, '')
  if (!readTupleItems(out))
    delete out.additionalItems
  if (typeof out.id === 'string')
    delete out.id
  return out
}
