// How a model that follows a profile writes a value the original accepts, and whether what the
// inverse map gives back means the same: the two halves of a profile's round trip (SPEC §4), used by
// the probe and the project's round-trip property. Pure: no validator, no runtime.
import type { CoercionPlan } from '../plan/plan-coercion'
import { hasOwn, isSchemaObject, setOwn } from '../json'
import type { JsonSchema } from '../types'
import { kindOfValue } from '../keywords'
import { withoutSharedDefinitions } from './shared-definitions'

type Json = unknown
type Node = Record<string, unknown>

function kindOf(value: Json): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}

function takesNull(node: Node): boolean {
  if (Array.isArray(node.anyOf))
    return node.anyOf.some(branch => isSchemaObject(branch) && takesNull(branch))
  return node.nullable === true || [node.type].flat().includes('null')
}

/** The branch of a schema a value of this kind goes to (a split node is an `anyOf` of one kind each). */
function branchFor(node: Node, value: Json): Node {
  if (!Array.isArray(node.anyOf))
    return node
  const kind = kindOf(value)
  const found = node.anyOf.find((branch) => {
    if (!isSchemaObject(branch))
      return false
    const types = branch.type === undefined ? (Array.isArray(branch.enum) ? branch.enum.map(kindOf) : []) : [branch.type].flat()
    return types.includes(kind) || (kind === 'number' && types.includes('integer'))
  })
  return isSchemaObject(found) ? found : node
}

export interface ModelAnswerOptions {
  /** A strict profile's model writes `null` for every required key it leaves out. */
  nullsForMissing: boolean
}

/**
 * `value` as a model that follows the advertised schema writes it: JSON text where `decode` parses
 * (at an optional key that takes null, a real null is the text `"null"` and a bare null means left
 * out), `{ "value": … }` where the key is advertised wrapped, `null` for a required key it leaves
 * out (strict profiles), and only the keys a closed object declares.
 */
export function modelAnswer(advertised: unknown, decode: CoercionPlan | undefined, value: Json, options: ModelAnswerOptions): Json {
  // The model reads a shared definition where it is referenced.
  return answer(withoutSharedDefinitions(advertised as JsonSchema), decode, value, options)
}

function answer(advertised: unknown, decode: CoercionPlan | undefined, value: Json, options: ModelAnswerOptions): Json {
  const schema = isSchemaObject(advertised) ? advertised : {}
  if (decode?.parse === 'json') {
    // A number or boolean with a branch of its own beside the JSON text is sent as it is.
    if ((typeof value === 'number' || typeof value === 'boolean') && Array.isArray(schema.anyOf) && schema.anyOf.some(branch => isSchemaObject(branch) && (branch.type === kindOfValue(value) || (branch.type === 'integer' && Number.isInteger(value)))))
      return value
    return value === null && takesNull(schema) && !decode.nullIsAbsent ? null : JSON.stringify(value)
  }
  const node = branchFor(schema, value)
  if (Array.isArray(value))
    return isSchemaObject(node.items) ? value.map(item => answer(node.items, decode?.items, item, options)) : value
  if (!isSchemaObject(value) || !isSchemaObject(node.properties))
    return value
  const out: Record<string, Json> = {}
  const left = new Set<string>()
  const required = Array.isArray(node.required) ? node.required : []
  const rest = decode?.rest
  for (const [key, child] of Object.entries(node.properties)) {
    if (key === rest)
      continue
    // A null the schema does not take at an optional key: the model leaves the key out (its parser reads both alike).
    const sub = decode?.properties && hasOwn(decode.properties, key) ? decode.properties[key] : undefined
    if (hasOwn(value, key) && value[key] === null && !required.includes(key) && isSchemaObject(child) && 'type' in child && !takesNull(child) && sub?.parse !== 'json' && !sub?.unwrap) {
      left.add(key)
      continue
    }
    if (hasOwn(value, key)) {
      const wrapped = sub?.unwrap && isSchemaObject(child) && Array.isArray(child.anyOf) ? child.anyOf[0] : undefined
      const inner = isSchemaObject(wrapped) && isSchemaObject(wrapped.properties) ? wrapped.properties.value : undefined
      setOwn(out, key, inner !== undefined ? { value: answer(inner, sub, value[key], options) } : answer(child, sub, value[key], options))
    }
    else if (options.nullsForMissing && required.includes(key)) {
      setOwn(out, key, null)
    }
  }
  if (rest !== undefined)
    setOwn(out, rest, restText(value, node.properties, rest))
  if (node.additionalProperties !== false) {
    for (const key of Object.keys(value)) {
      if (!hasOwn(out, key) && !left.has(key))
        setOwn(out, key, value[key])
    }
  }
  return out
}

/** The keys of `value` that `properties` does not name (the rest key's own name among them), as JSON text. */
function restText(value: Record<string, Json>, properties: Record<string, unknown>, rest: string): string {
  const others: Record<string, Json> = {}
  for (const key of Object.keys(value)) {
    if (!hasOwn(properties, key) || key === rest)
      setOwn(others, key, value[key])
  }
  return JSON.stringify(others)
}

/**
 * Where two parsed outputs differ (a JSON pointer), or undefined when they mean the same. A missing
 * key and a key holding `null` differ: a strict model's null for a key it left out must never
 * reach the original as a null.
 */
export function outputDifference(expected: Json, actual: Json, path = ''): string | undefined {
  if (isSchemaObject(expected) && isSchemaObject(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const found = outputDifference(expected[key], actual[key], `${path}/${key}`)
      if (found !== undefined)
        return found
    }
    return undefined
  }
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    for (let i = 0; i < expected.length; i++) {
      const found = outputDifference(expected[i], actual[i], `${path}/${i}`)
      if (found !== undefined)
        return found
    }
    return undefined
  }
  return Object.is(expected, actual) || JSON.stringify(expected) === JSON.stringify(actual) ? undefined : path || '/'
}
