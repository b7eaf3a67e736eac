// The `minimal` profile: unions of objects flattened, everything else as the schema says (`$ref`s
// kept, no types added); only what draft-07 validators would read otherwise is rewritten.
import type { JsonPointer, JsonSchema, JsonSchemaObject } from '../types'
import type { FlattenContext, FlatteningProfile } from '../flatten/context'
import { tupleToItems } from './portable'

/**
 * A 2020-12 tuple with a rest (`prefixItems` beside `items`) reads differently to a draft-07
 * validator, where `items` then constrains every element: such a tuple becomes one `items` schema.
 */
function minimalNode(node: JsonSchemaObject, path: JsonPointer, ctx: FlattenContext): JsonSchema {
  if (!Array.isArray(node.prefixItems) || node.items === undefined)
    return node
  const out = { ...node }
  tupleToItems(out, path, ctx)
  return out
}

export const minimal: FlatteningProfile = { name: 'minimal', inlineRefs: false, joinEveryUnion: false, foldAllOf: false, anyValue: () => true, finishNode: minimalNode }
