// An upstream's input schema served as it came (too large or too slow to compile) must still be one
// every client takes: an object root with no combinator or condition, no draft-04 form anywhere, valid
// 2020-12. Reaching that without compiling: the root read as `argumentsRoot` reads it, each node's
// draft-04 forms read as 2020-12 and each keyword's value checked against the kind the 2020-12
// meta-schema gives it, in one walk bounded by a node count; what that cannot make whole is refused.
import type { JsonSchemaObject } from '../types'
import { isSchemaObject, setOwn } from '../json'
import { SUBSCHEMA_KEYWORDS } from '../keywords'
import { argumentsRoot } from './arguments-root'
import { readLegacyKeywords, readTupleItems } from '../frontend/legacy-keywords'

/** Schema nodes walked at most: past it the schema is refused (a client needs no schema that large). */
export const MAX_LISTED_NODES = 100_000

const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'])
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains']
const STRINGS = ['$ref', '$id', '$schema', '$anchor', '$dynamicRef', '$dynamicAnchor', 'pattern', 'format', 'title', 'description']

const DIALECT = 'https://json-schema.org/draft/2020-12/schema'

/** Whether `node` names an older dialect in `$schema`: it goes, for the node is now read as 2020-12 (a validator would read it the old way). */
function olderDialect(node: JsonSchemaObject): boolean {
  if (!('$schema' in node) || node.$schema === DIALECT || node.$schema === `${DIALECT}#`)
    return false
  delete node.$schema
  return true
}

/** What the 2020-12 meta-schema refuses in one keyword's value (subschemas are checked on their own). */
function wrongValue(keyword: string, value: unknown): string | undefined {
  const single = (SUBSCHEMA_KEYWORDS.single as readonly string[]).includes(keyword)
  if (single && typeof value !== 'boolean' && !isSchemaObject(value))
    return 'is not a schema'
  if ((SUBSCHEMA_KEYWORDS.list as readonly string[]).includes(keyword) && !(Array.isArray(value) && (keyword === 'prefixItems' || value.length > 0)))
    return 'is not a list of schemas'
  if ((SUBSCHEMA_KEYWORDS.map as readonly string[]).includes(keyword) && !isSchemaObject(value))
    return 'is not a map of schemas'
  if (keyword === 'type' && ![value].flat().every(name => TYPES.has(name as string)))
    return 'names no JSON type'
  if ((keyword === 'required' || keyword === 'enum') && !(Array.isArray(value) && (keyword === 'enum' || value.every(name => typeof name === 'string'))))
    return 'is not a list'
  if (NUMBERS.includes(keyword) && typeof value !== 'number')
    return 'is not a number'
  if (COUNTS.includes(keyword) && !(Number.isInteger(value) && (value as number) >= 0))
    return 'is not a count'
  if (STRINGS.includes(keyword) && typeof value !== 'string')
    return 'is not a string'
  return undefined
}

/** A subschema met in the walk: where its copy goes, and its pointer. */
interface Place { value: unknown, holder: Record<string, unknown>, key: string, at: string }

/** The subschemas of `node` (a copy being made), each with where its copy goes. */
function children(node: JsonSchemaObject, at: string): Place[] {
  const found: Place[] = []
  for (const [keyword, value] of Object.entries(node)) {
    if ((SUBSCHEMA_KEYWORDS.single as readonly string[]).includes(keyword))
      found.push({ value, holder: node, key: keyword, at: `${at}/${keyword}` })
    else if ((SUBSCHEMA_KEYWORDS.list as readonly string[]).includes(keyword) || (SUBSCHEMA_KEYWORDS.map as readonly string[]).includes(keyword)) {
      const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>
      node[keyword] = copy
      for (const key of Object.keys(copy))
        found.push({ value: copy[key], holder: copy, key, at: `${at}/${keyword}/${key}` })
    }
  }
  return found
}

/**
 * The schema as served without compiling (a copy), and the count of nodes a draft-04 form was read
 * in; or why no client can be served it (`refused`). Linear in the schema, and at most `maxNodes` nodes.
 */
export function listedForm(schema: unknown, maxNodes = MAX_LISTED_NODES): { schema: JsonSchemaObject, read: number } | { refused: string } {
  if (!isSchemaObject(schema))
    return { refused: 'its inputSchema is not an object schema ({ "type": "object", … })' }
  const root = argumentsRoot(schema).schema
  const combinator = ['anyOf', 'oneOf', 'allOf'].find(keyword => keyword in root)
  if (combinator !== undefined)
    return { refused: `its inputSchema has "${combinator}" at the root, which only compiling flattens` }
  if (root.type !== 'object')
    return { refused: 'its inputSchema takes no object' }
  let read = 0
  let nodes = 0
  const holder = { root: root as unknown }
  const stack: Place[] = [{ value: root, holder, key: 'root', at: '' }]
  while (stack.length > 0) {
    const { value, holder: into, key, at } = stack.pop()!
    if (typeof value === 'boolean')
      continue
    if (!isSchemaObject(value))
      return { refused: `its inputSchema at ${at || '/'} is not a schema` }
    if (++nodes > maxNodes)
      return { refused: `its inputSchema has more than ${maxNodes} schemas to check` }
    const node: JsonSchemaObject = { ...value }
    setOwn(into, key, node)
    read += readLegacyKeywords(node, at).length + (readTupleItems(node) ? 1 : 0) + (olderDialect(node) ? 1 : 0) > 0 ? 1 : 0
    for (const [keyword, child] of Object.entries(node)) {
      const wrong = wrongValue(keyword, child)
      if (wrong !== undefined)
        return { refused: `its inputSchema's "${keyword}" at ${at || '/'} ${wrong}` }
    }
    stack.push(...children(node, at))
  }
  return { schema: holder.root as JsonSchemaObject, read }
}
