import type { JsonPointer, JsonSchemaObject, ParserSemantics, PresetName } from '../../types'
import { childPointer, isSchemaObject } from '../../json'
import type { RegexDialect } from '../regex-dialect'

/**
 * What the parser behind a generated JSON Schema does that the JSON does not say. Each rule has a
 * source; a preset may only widen the flat schema, or let an advertised form give the parser the
 * same output (a key left out where `null` means the same).
 */
export interface Preset {
  name: PresetName
  /** Who writes schemas for this parser. */
  generators: string
  semantics: Omit<ParserSemantics, 'refSiblings'>
  /** How the parser reads a `pattern`: its regex engine's escapes and dot. */
  regex: RegexDialect
  /** A union's OpenAPI `discriminator` key is required by the parser, though its JSON gives it a default. */
  tagRequired: boolean
  /**
   * A union without a tag picks the branch with the most keys set, and a key sent as `null` counts
   * as set: inside one, `null` and a left-out key may pick different branches.
   */
  smartUnions: boolean
  /** What in a schema says this generator wrote it, one line each (empty: nothing). */
  fingerprints: (schema: JsonSchemaObject) => string[]
}

/** Where a node stands: its pointer, and the name it has under `properties` (`property`) or `$defs` (`definition`). */
export interface NodePlace {
  pointer: JsonPointer
  name?: string
  under?: 'property' | 'definition'
}

/**
 * Every schema node of a document, once each, parent before children (a visit may rewrite a node's
 * keywords; its children are read after). Data and extension keywords (`x-…`) hold no schemas.
 */
export function eachNode(schema: unknown, visit: (node: JsonSchemaObject, place: NodePlace) => void, place: NodePlace = { pointer: '' }, seen = new Set<object>()): void {
  if (Array.isArray(schema)) {
    schema.forEach((child, i) => eachNode(child, visit, { pointer: childPointer(place.pointer, i) }, seen))
    return
  }
  if (!isSchemaObject(schema) || seen.has(schema))
    return
  seen.add(schema)
  visit(schema, place)
  for (const [keyword, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(keyword) || keyword.startsWith('x-'))
      continue
    const named = keyword === 'properties' || keyword === '$defs' || keyword === 'definitions' || keyword === 'patternProperties'
    if (named && isSchemaObject(value)) {
      const under = keyword === 'properties' ? 'property' : keyword === 'patternProperties' ? undefined : 'definition'
      for (const [name, child] of Object.entries(value))
        eachNode(child, visit, { pointer: childPointer(place.pointer, keyword, name), ...(under ? { name, under } : {}) }, seen)
    }
    else {
      eachNode(value, visit, { pointer: childPointer(place.pointer, keyword) }, seen)
    }
  }
}

const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples'])

/** The nodes of a document for which `test` holds. */
export function countNodes(schema: unknown, test: (node: JsonSchemaObject, key: string | undefined) => boolean): number {
  let count = 0
  eachNode(schema, (node, place) => {
    if (test(node, place.under === 'property' ? place.name : undefined))
      count++
  })
  return count
}

/** Words a generated title adds to its key that say nothing more ("Foo Property" on `foo`). */
const GENERIC_NOUN = /(?:property|field|parameter|param|value|object|schema|model|type)$/

/**
 * A key and a title that say the same word for word (`max_results`, `maxResults` and "Max
 * Results"), or with a generic noun after it ("Foo Property", "Limit Value").
 */
export function restatesKey(title: unknown, key: string): boolean {
  const squash = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')
  if (typeof title !== 'string' || squash(title) === '')
    return false
  const said = squash(title)
  return said === squash(key) || (said.replace(GENERIC_NOUN, '') === squash(key) && squash(key) !== '')
}

/** `[T, "null"]` or `["null", T]` type arrays, with where the null stands. */
export function nullTypeArrays(schema: unknown, first: boolean): number {
  return countNodes(schema, node => Array.isArray(node.type) && node.type.length === 2 && node.type[first ? 0 : 1] === 'null')
}

/** `anyOf: [T, { type: "null" }]` beside `default: null`: Python's `X | None = None`. */
export function noneDefaults(schema: unknown): number {
  return countNodes(schema, node => node.default === null && Array.isArray(node.anyOf) && node.anyOf.some(branch => typeof branch === 'object' && branch !== null && (branch as JsonSchemaObject).type === 'null'))
}
