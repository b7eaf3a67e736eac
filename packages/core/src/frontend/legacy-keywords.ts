// Keywords servers still write in a form older than 2020-12, read as they were meant: a validator of
// 2020-12 (and a model API's meta-schema) refuses them, while the server's own parser reads them
// the old way. Read in place, so every profile starts from the 2020-12 form.
import type { JsonPointer, JsonSchemaObject } from '../types'
import { childPointer } from '../json'

/** What reading one keyword changed (a `read` reading of the JSON Schema front end). */
interface LegacyReading { kind: 'read', path: JsonPointer, message: string }

const BOUNDS = [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const

/**
 * Draft-04's boolean exclusives (`minimum: 5, exclusiveMinimum: true`) become 2020-12's number
 * (`exclusiveMinimum: 5`), and a `required` that is not a list of names (`null`: no required keys,
 * as its server reads it) goes. The one table of these forms: the proxy's chooser and a schema served
 * as it came read them so too.
 */
export function readLegacyKeywords(node: JsonSchemaObject, path: JsonPointer): LegacyReading[] {
  const readings: LegacyReading[] = []
  for (const [exclusive, inclusive] of BOUNDS) {
    const flag = node[exclusive]
    if (typeof flag !== 'boolean')
      continue
    const bound = node[inclusive]
    delete node[exclusive]
    if (flag && typeof bound === 'number') {
      delete node[inclusive]
      node[exclusive] = bound
    }
    const meaning = flag && typeof bound === 'number' ? `${exclusive}: ${bound}` : typeof bound === 'number' ? `${inclusive}: ${bound}` : 'no bound'
    readings.push({ kind: 'read', path: childPointer(path, exclusive), message: `draft-04's ${exclusive}: ${flag} read as ${meaning}, the 2020-12 form` })
  }
  if ('required' in node && !(Array.isArray(node.required) && node.required.every(name => typeof name === 'string'))) {
    readings.push({ kind: 'read', path: childPointer(path, 'required'), message: `required: ${JSON.stringify(node.required)} read as no required keys` })
    delete node.required
  }
  return readings
}

/**
 * A draft-04 to 2019-09 tuple (`items` a list, `additionalItems` its rest) as 2020-12 writes it
 * (`prefixItems`, `items`), in place; whether it was one. The compiler reads the older form itself;
 * this is for a schema a 2020-12 reader takes as it is (a validator, one served as it came).
 */
export function readTupleItems(node: Record<string, unknown>): boolean {
  if (!Array.isArray(node.items))
    return false
  const { items, additionalItems } = node
  delete node.items
  delete node.additionalItems
  node.prefixItems = items
  if (additionalItems !== undefined)
    node.items = additionalItems
  return true
}
