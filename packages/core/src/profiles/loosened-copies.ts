// A bound on inlining where `$ref` cannot be said (`portable`). Flattening writes a definition out
// wherever the original referenced it; while that leaves the schema larger than the original, the
// shape written out most often keeps its keys where it is first found, and each other copy is listed
// as its kind alone with a note naming where its keys are. Wider than the copy, so still sound.
import type { JsonSchema, JsonSchemaObject } from '../types'
import { isSchemaObject } from '../json'
import { mapSubschemas } from '../keywords'
import { mostRepeated } from './shared-definitions'

/** At most this many shapes are loosened per schema: each takes a pass over the document. */
const MAX_SHAPES = 96

/** An object shape (`object`, or `object` and `null`) with keys of its own: what a loose copy can stand for. */
function isObjectShape(node: JsonSchemaObject): boolean {
  const kinds = [node.type].flat()
  return kinds.includes('object') && kinds.every(kind => kind === 'object' || kind === 'null') && isSchemaObject(node.properties)
}

/** A copy by its kind, and where its keys and description are (said once, there). */
function looseCopy(node: JsonSchemaObject, at: string): JsonSchemaObject {
  return { type: node.type, description: `Same as \`${at}\`.` }
}

/**
 * `schema` with repeated object shapes loosened, largest saving first, until it is no larger than
 * `limit` characters of JSON; and where the shapes kept their keys (each loosened shape's first place).
 */
export function withLoosenedCopies(schema: JsonSchemaObject, limit: number): { schema: JsonSchemaObject, kept: string[] } {
  let root = schema
  const kept: string[] = []
  for (let round = 0; round < MAX_SHAPES && JSON.stringify(root).length > limit; round++) {
    const best = mostRepeated(root, {}, isObjectShape)
    if (best === undefined)
      break
    let first = true
    const swap = (node: JsonSchema): JsonSchema => {
      if (!isSchemaObject(node))
        return node
      if (JSON.stringify(node) !== best.text)
        return mapSubschemas(node, swap)
      if (!first)
        return looseCopy(node, best.at)
      first = false
      return node
    }
    root = mapSubschemas(root, swap)
    kept.push(best.at)
  }
  return { schema: root, kept }
}
