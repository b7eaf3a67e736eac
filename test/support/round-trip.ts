// The two halves of a target profile's round trip as the tests run them: where a model's form hits
// the documented limit of inherited keys, and the inverse map as a server applies it.
import type { CompiledTool } from '@flatmcp/core'
import { inverseArgs, triesOf } from '@flatmcp/runtime/coerce'

type Json = unknown
const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Whether the model's form leaves out an optional key every object inherits (`constructor`): a
 * target profile types such a key again (as JSON text), and ajv then reads the inherited member
 * (the documented limit; the model's API checks the form itself, without that read).
 */
export function omitsInheritedKey(schema: Json, value: Json): boolean {
  if (!isObject(schema))
    return false
  if (Array.isArray(schema.anyOf))
    return schema.anyOf.some(branch => omitsInheritedKey(branch, value))
  if (Array.isArray(value))
    return value.some(item => omitsInheritedKey(schema.items, item))
  if (!isObject(value) || !isObject(schema.properties))
    return false
  const required = Array.isArray(schema.required) ? schema.required : []
  return Object.entries(schema.properties).some(([key, child]) => Object.prototype.hasOwnProperty.call(value, key)
    ? omitsInheritedKey(child, value[key])
    : key in {} && !required.includes(key))
}

/** The inverse map as the server applies it: the first of its tries the original accepts (else the first). */
export function inverse(tool: CompiledTool, advertised: Json, accepts: (value: Json) => boolean = () => true): Json {
  let first: Json
  for (const [reading, scalars] of triesOf(tool)) {
    const value = inverseArgs(advertised, tool, reading, scalars)
    first ??= value
    if (accepts(value))
      return value
  }
  return first
}
