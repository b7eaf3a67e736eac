// Objects as a strict target takes them: closed, every key required, an optional key's absence said
// with null (and a null of its own wrapped), nulls read back as absent.
import type { JsonSchema, JsonSchemaObject } from '../types'
import type { TargetRule } from './rules'
import { setTypes, withSentence } from '../keywords'
import { childPointer, hasOwn, isSchemaObject, withoutKeyword } from '../json'
import { isOpenObject, kindsOf, takesNull, withNull } from './rules'

/**
 * Every object closed. Sound for zod's plain objects, which drop unknown keys: a model leaves them
 * out and the original gives the same output. An open object left here (the root) falls back.
 */
export const closeObjects: TargetRule = {
  name: 'close-objects',
  node(node, path, ctx) {
    if (!kindsOf(node).includes('object'))
      return node
    if (isOpenObject(node, false)) {
      ctx.fallback(path, 'an object with unknown keys (a record, a catch-all or a loose object) cannot be closed')
      return node
    }
    if (isOpenObject(node, ctx.keepsUnknownKeys)) {
      ctx.fallback(path, 'an object that says nothing of other keys, which a JSON Schema validator keeps (it has no "additionalProperties": false), cannot be closed')
      return node
    }
    return node.additionalProperties === false ? node : { ...node, additionalProperties: false }
  },
}

const LEFT_OUT_NOTE = 'null leaves it out; {"value": ...} sends a value, null included.'

/** An optional key whose value may itself be null, as a strict model can tell both apart: null, or `{ value }`. */
function wrappedForNull(schema: JsonSchema): JsonSchemaObject {
  const own = isSchemaObject(schema) && typeof schema.description === 'string' ? `${schema.description} ` : ''
  // The description is said once, on the key; the value inside needs no copy of it.
  const value = isSchemaObject(schema) && own !== '' ? withoutKeyword(schema, 'description') : schema
  return { description: `${own}${LEFT_OUT_NOTE}`, anyOf: [{ type: 'object', properties: { value }, required: ['value'], additionalProperties: false }, { type: 'null' }] }
}

/**
 * Every key required; an optional one also takes `null`, which the inverse map turns back into a
 * missing key. Where the key's value may be null itself, the two answers must differ: JSON text
 * already tells `null` from `"null"`; any other value is wrapped, `{ "value": null }`.
 */
export const requireEveryKey: TargetRule = {
  name: 'require-every-key',
  node(node, path, ctx) {
    if (!isSchemaObject(node.properties))
      return node
    // A key no value may hold (`false`) is one no value sends: in a closed object, left out of it (required, it would have no form).
    if (Object.values(node.properties).includes(false) && node.additionalProperties === false) {
      const properties = Object.fromEntries(Object.entries(node.properties).filter(([, child]) => child !== false))
      node = { ...node, properties, ...(Array.isArray(node.required) ? { required: (node.required as string[]).filter(key => hasOwn(properties, key)) } : {}) }
    }
    const keys = Object.keys(node.properties as object)
    const required = new Set(Array.isArray(node.required) ? node.required as string[] : [])
    if (keys.every(key => required.has(key)))
      return Array.isArray(node.required) ? node : { ...node, required: keys }
    ctx.nullsMeanAbsent()
    const properties = Object.fromEntries(keys.map((key) => {
      const child = (node.properties as Record<string, JsonSchema>)[key]!
      if (required.has(key))
        return [key, child]
      const at = childPointer(path, 'properties', key)
      if (!takesNull(child)) {
        // The original's plan may not know the key (it came from another alternative of an open object): the decoding drops its null.
        if (ctx.hasRestKey(path))
          ctx.nullMeansLeftOut(at, false)
        return [key, withNull(child)]
      }
      // The parser gives a `null` the output of a left-out key (pydantic's `= None`, Go's nil): plain nullability says both.
      if (ctx.nullIsAbsent(at))
        return [key, child]
      const encoded = ctx.isEncoded(at)
      ctx.nullMeansLeftOut(at, !encoded)
      return [key, encoded && isSchemaObject(child) ? { ...child, description: withSentence(child.description, 'null leaves it out; the JSON text null sends null.') } : wrappedForNull(child)]
    }))
    return { ...node, properties, required: keys }
  },
}

/** The same schema without `null` (its `type`, its `enum`, OpenAPI's `nullable`), where it takes other values too. */
function withoutNull(node: JsonSchemaObject): JsonSchemaObject {
  const kinds = kindsOf(node)
  // A child a later rule already finished may say null the OpenAPI way.
  if (node.nullable === true) {
    const { nullable: _nullable, ...out } = node
    return out
  }
  if (!kinds.includes('null') || kinds.length === 1)
    return node
  const out = { ...node }
  setTypes(out, kinds.filter(kind => kind !== 'null'))
  if (Array.isArray(out.enum))
    out.enum = out.enum.filter(value => value !== null)
  if (out.default === null)
    delete out.default
  return out
}

/**
 * An optional key the parser reads alike whether left out or `null` (a preset's `nullAsAbsent`:
 * pydantic's `X | None = None`, Go's slices and pointers) is advertised without `null`: the shape
 * Gemini's routes and Claude Code take. A value holding `null` has an advertised form with the same
 * output, the key left out; a `null` sent anyway still reaches the parser, which takes it.
 */
export const omitAbsentNulls: TargetRule = {
  name: 'omit-absent-nulls',
  node(node, path, ctx) {
    if (!isSchemaObject(node.properties))
      return node
    const required = new Set(Array.isArray(node.required) ? node.required as string[] : [])
    let properties: Record<string, JsonSchema> | undefined
    for (const [key, child] of Object.entries(node.properties as Record<string, JsonSchema>)) {
      const at = childPointer(path, 'properties', key)
      if (required.has(key) || !isSchemaObject(child) || !ctx.nullIsAbsent(at))
        continue
      const narrowed = withoutNull(child)
      if (narrowed !== child)
        (properties ??= { ...node.properties as Record<string, JsonSchema> })[key] = narrowed
    }
    return properties ? { ...node, properties } : node
  },
}
