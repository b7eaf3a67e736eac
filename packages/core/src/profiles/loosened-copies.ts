// A bound on inlining where `$ref` cannot be said (`portable`). Flattening writes a definition out
// wherever the original referenced it; while that leaves the schema larger than the original, the
// shape written out most often keeps its keys where it is first found, and each other copy is listed
// as its kind alone with a note naming where its keys are. Wider than the copy, so still sound. Copies
// of one definition inlined to different depths (a recursive one cut at its bound) are not equal as
// text: once no exact copy is left, shapes with the same keys and description count as copies.
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

/** What an object shape is known by across its copies, however deep each was inlined: its keys and its own description. */
const signature = (node: JsonSchemaObject): string => JSON.stringify([Object.keys(node.properties as object).sort(), node.description ?? null])

/** The object shape whose copies (by `signature`) past the first cost the most characters, and where it is first found. */
function mostAlike(root: JsonSchemaObject): { same: (node: JsonSchemaObject) => boolean, at: string } | undefined {
  const seen = new Map<string, { count: number, spent: number, at: string }>()
  const count = (node: JsonSchema, at: string): void => {
    if (!isSchemaObject(node))
      return
    if (isObjectShape(node)) {
      const key = signature(node)
      const known = seen.get(key)
      seen.set(key, known ? { count: known.count + 1, spent: known.spent + JSON.stringify(node).length, at: known.at } : { count: 1, spent: 0, at })
    }
    mapSubschemas(node, (child, keyword, key) => {
      count(child, keyword === 'properties' ? (at === '' ? key! : `${at}.${key!}`) : keyword === 'items' ? `${at}[]` : at)
      return child
    })
  }
  mapSubschemas(root, (child, keyword, key) => {
    count(child, keyword === 'properties' ? key! : keyword === 'items' ? '[]' : '')
    return child
  })
  let best: { key: string, at: string, saving: number } | undefined
  for (const [key, { count: times, spent, at }] of seen) {
    // Each copy past the first becomes its kind and a note of about 40 characters.
    const saving = spent - (times - 1) * (40 + at.length)
    if (times >= 2 && saving > (best?.saving ?? 0))
      best = { key, at, saving }
  }
  return best && { same: node => isObjectShape(node) && signature(node) === best.key, at: best.at }
}

/** The repeated shape to loosen next: an exact copy first, else copies of one shape inlined to different depths. */
function nextShape(root: JsonSchemaObject): { same: (node: JsonSchemaObject) => boolean, at: string } | undefined {
  const exact = mostRepeated(root, {}, isObjectShape)
  return exact ? { same: node => JSON.stringify(node) === exact.text, at: exact.at } : mostAlike(root)
}

/**
 * `schema` with repeated object shapes loosened, largest saving first, until it is no larger than
 * `limit` characters of JSON; and where the shapes kept their keys (each loosened shape's first place).
 */
export function withLoosenedCopies(schema: JsonSchemaObject, limit: number): { schema: JsonSchemaObject, kept: string[] } {
  let root = schema
  const kept: string[] = []
  for (let round = 0; round < MAX_SHAPES && JSON.stringify(root).length > limit; round++) {
    const best = nextShape(root)
    if (best === undefined)
      break
    let first = true
    const swap = (node: JsonSchema): JsonSchema => {
      if (!isSchemaObject(node))
        return node
      if (!best.same(node))
        return mapSubschemas(node, swap)
      if (!first)
        return looseCopy(node, best.at)
      first = false
      // A shape cut at its recursion bound may hold a shorter copy of itself.
      return mapSubschemas(node, swap)
    }
    root = mapSubschemas(root, swap)
    kept.push(best.at)
  }
  return { schema: root, kept }
}
