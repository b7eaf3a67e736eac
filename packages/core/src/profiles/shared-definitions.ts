// Repeated shapes said once. Flattening inlines every `$ref`, so a definition the original used in
// ten places is written out ten times (Microsoft 365's Graph tools grew up to 5×). Where a profile's
// clients read `$defs` (OpenAI's and Anthropic's strict modes do), a subschema written out more than
// once is kept in the root's `$defs` and referenced by a bare `$ref`, which means the same to every
// validator. Never recursive, never beside another keyword (Kimi refuses a `$ref` with siblings).
import type { JsonSchema, JsonSchemaObject } from '../types'
import { isSchemaObject } from '../json'
import { mapSubschemas } from '../keywords'

/** Below this many characters of JSON a subschema is left inline: a definition costs its name twice. */
const MIN_SHARED = 64
/** At most this many definitions per schema: each takes a pass over the document. */
const MAX_DEFINITIONS = 96
const PREFIX = '#/$defs/'
/**
 * A key named as an `Object.prototype` member (`constructor`, `__proto__`): ajv misreads a property
 * of that name inside a referenced definition (it refuses `{"constructor": …}` objects it takes
 * inline), so a shape with one stays inline, and no definition is named so.
 */
const PROTOTYPE_KEY = new RegExp(`"(?:${Object.getOwnPropertyNames(Object.prototype).join('|')})":`)

/** `schema` with each subschema it writes out more than once kept once in `$defs` (largest saving first). */
export function withSharedDefinitions(schema: JsonSchemaObject): JsonSchemaObject {
  if (schema.$defs !== undefined || schema.definitions !== undefined)
    return schema
  let root: JsonSchemaObject = schema
  const defs: Record<string, JsonSchema> = {}
  for (let round = 0; round < MAX_DEFINITIONS; round++) {
    const best = mostRepeated(root, defs)
    if (best === undefined)
      break
    const name = definitionName(best.name, defs)
    const ref = { $ref: PREFIX + name }
    const swap = (node: JsonSchema): JsonSchema => isSchemaObject(node) && JSON.stringify(node) === best.text ? ref : isSchemaObject(node) ? mapSubschemas(node, swap) : node
    root = mapSubschemas(root, swap)
    for (const [key, def] of Object.entries(defs))
      defs[key] = isSchemaObject(def) ? mapSubschemas(def, swap) : def
    defs[name] = JSON.parse(best.text) as JsonSchema
  }
  return Object.keys(defs).length === 0 ? schema : { ...root, $defs: defs }
}

/** `schema` with its `$defs` written back where they are referenced (what a client that reads them sees). */
export function withoutSharedDefinitions(schema: JsonSchema): JsonSchema {
  if (!isSchemaObject(schema) || !isSchemaObject(schema.$defs))
    return schema
  const { $defs: defs, ...root } = schema as JsonSchemaObject & { $defs: Record<string, JsonSchema> }
  const inline = (node: JsonSchema, depth: number): JsonSchema => {
    if (!isSchemaObject(node))
      return node
    if (typeof node.$ref === 'string' && node.$ref.startsWith(PREFIX) && depth < MAX_DEFINITIONS + 1) {
      const target = defs[node.$ref.slice(PREFIX.length)]
      if (target !== undefined)
        return inline(target, depth + 1)
    }
    return mapSubschemas(node, child => inline(child, depth))
  }
  return inline(root, 0)
}

export interface Repeated {
  text: string
  /** The property (or keyword) it was first found at: `createdBy`. */
  name: string
  /** Where it was first found, as a reader follows it: `body.childFolders[].createdBy`. */
  at: string
}

/**
 * The subschema (not the root, not a definition's own root) written out more than once whose
 * sharing saves the most characters, among those `accept` takes.
 */
export function mostRepeated(root: JsonSchemaObject, defs: Record<string, JsonSchema>, accept: (node: JsonSchemaObject) => boolean = () => true): Repeated | undefined {
  const seen = new Map<string, { count: number, name: string, at: string }>()
  const count = (node: JsonSchema, name: string, at: string): void => {
    if (!isSchemaObject(node))
      return
    const text = JSON.stringify(node)
    if (text.length >= MIN_SHARED && !text.includes('"x-mcp-header"') && !PROTOTYPE_KEY.test(text) && accept(node)) {
      const known = seen.get(text)
      seen.set(text, { count: (known?.count ?? 0) + 1, name: known?.name ?? name, at: known?.at ?? at })
    }
    countChildren(node, name, at)
  }
  const countChildren = (node: JsonSchemaObject, name: string, at: string): void => {
    mapSubschemas(node, (child, keyword, key) => {
      const named = keyword === 'properties' ? key! : `${name}_${keyword}`
      count(child, named, keyword === 'properties' ? (at === '' ? key! : `${at}.${key!}`) : keyword === 'items' ? `${at}[]` : at)
      return child
    })
  }
  countChildren(root, 'root', '')
  for (const [name, def] of Object.entries(defs)) {
    if (isSchemaObject(def))
      countChildren(def, name, name)
  }
  let best: Repeated | undefined
  let bestSaving = 0
  for (const [text, { count: times, name, at }] of seen) {
    // Each use becomes `{"$ref":"#/$defs/name"}`; the definition is written once, `"name":…,`, in `,"$defs":{…}`:
    // under the name it will take (`toString` is kept as `toString_shape`, a taken one numbered).
    const taken = definitionName(name, defs).length
    const saving = times * text.length - times * (19 + taken) - (text.length + taken + 4) - (Object.keys(defs).length === 0 ? 11 : 0)
    if (times >= 2 && saving > bestSaving) {
      best = { text, name, at }
      bestSaving = saving
    }
  }
  return best
}

/** A definition's name from where it was first used (`createdBy`), unique among those taken. */
function definitionName(used: string, defs: Record<string, JsonSchema>): string {
  const base = used.replace(/[^\w-]/g, '_').slice(0, 48) || 'shape'
  let name = PROTOTYPE_KEY.test(`"${base}":`) ? `${base}_shape` : base
  for (let i = 2; Object.hasOwn(defs, name); i++)
    name = `${base}_${i}`
  return name
}
