// The rest-key form: a strict target closes every object, so an object whose keys are not all named
// (a record, a catch-all, a loose object, or one that says nothing of other keys where the parser
// keeps them) is closed with one more key that holds the others as the JSON text of an object (`{}`
// for none; a null is read as none too). The inverse map takes that key out and merges the keys it holds back in; the
// original then judges them as it judges any key of its own.
import type { DiagnosticCode, JsonPointer, JsonSchema, JsonSchemaObject, Severity } from '../types'
import { hasOwn, isSchemaObject, setOwn } from '../json'
import { typesOf } from '../keywords'

const kindsOf = (node: JsonSchemaObject): string[] => typesOf(node) ?? []

/** What the rest-key form tells a target profile's context (`TargetContext` has it). */
interface RestContext {
  readonly profile: string
  report: (code: DiagnosticCode, severity: Severity, path: JsonPointer, message: string) => void
  restKey: (path: JsonPointer, key: string, named: readonly string[]) => void
}

/** The rest key's name, where no named key takes it (else the first of `other_keys_2`, `_3`, … free). */
export const REST_KEY = 'other_keys'

/** The rest key an object with these named keys gets: deterministic, never one of them. */
export function restKeyOf(properties: Record<string, unknown>): string {
  if (!hasOwn(properties, REST_KEY))
    return REST_KEY
  let n = 2
  while (hasOwn(properties, `${REST_KEY}_${n}`))
    n++
  return `${REST_KEY}_${n}`
}

/** Whether a node is an object (or null) and nothing else: one the rest-key form can close. */
export function onlyObject(node: JsonSchemaObject): boolean {
  const kinds = kindsOf(node)
  return kinds.includes('object') && kinds.every(kind => kind === 'object' || kind === 'null')
}

/** What the other keys' values may be, for the model: the `additionalProperties` schema's kinds. */
function valuesNote(values: JsonSchema | undefined): string {
  const kinds = isSchemaObject(values) ? kindsOf(values).filter(kind => kind !== 'null') : []
  if (kinds.length === 0)
    return ''
  const named = kinds.map(kind => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`).join(' or ')
  return ` Values: ${named}${isSchemaObject(values) && kindsOf(values).includes('null') ? ' or null' : ''}.`
}

/** The open object at `path`, closed, its other keys advertised in one key as JSON text (`ctx.restKey` records it for the inverse map). */
export function withRestKey(node: JsonSchemaObject, path: JsonPointer, ctx: RestContext): JsonSchemaObject {
  const named = isSchemaObject(node.properties) ? node.properties : {}
  const key = restKeyOf(named)
  const properties: Record<string, JsonSchema> = {}
  for (const [name, child] of Object.entries(named))
    setOwn(properties, name, child as JsonSchema)
  const note = `Other keys, as JSON object text ({} for none).${valuesNote(node.additionalProperties as JsonSchema | undefined)}`
  setOwn(properties, key, { type: 'string', description: note })
  const { additionalProperties: _open, ...closed } = node
  ctx.restKey(path, key, Object.keys(named))
  ctx.report('encoded-as-json', 'info', path, `${ctx.profile} takes no keys an object does not name: this object's other keys are advertised in "${key}" as the JSON text of an object, which the server merges back`)
  // A required key the object does not name is sent in the rest key: the original still requires it.
  const required = (Array.isArray(node.required) ? node.required as string[] : []).filter(name => hasOwn(named, name))
  return {
    ...closed,
    properties,
    required: [...required, key],
    additionalProperties: false,
  }
}
