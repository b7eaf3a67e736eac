// What a client can send a tool is always one JSON object (MCP's `arguments`), whatever its input
// schema says of other values: a schema that says no type at its root, or another type beside the
// object, or a condition or negation at its root, is read for objects. This narrows nothing a client
// can send, and gives every profile a root a client takes (Claude Code drops a whole server for a
// tool whose root is not one object, and drops a root `allOf`, `if` or `then`).
import type { JsonPointer, JsonSchemaObject } from '../types'
import { childPointer, isSchemaObject } from '../json'

/** A root keyword a client refuses and that only ever narrows the root: left out, which widens. */
const ROOT_CONDITIONS = ['not', 'if', 'then', 'else'] as const

export interface ArgumentsReading {
  path: JsonPointer
  message: string
}

/**
 * The schema (a copy where it changes) without a root `not`, `if`, `then` or `else`, each said in
 * `readings`: also after flattening, where a folded intersection may bring one of its branches' up.
 */
export function withoutRootConditions(schema: JsonSchemaObject, readings: ArgumentsReading[]): JsonSchemaObject {
  const root: JsonSchemaObject = { ...schema }
  for (const keyword of ROOT_CONDITIONS) {
    if (keyword in root) {
      delete root[keyword]
      readings.push({ path: `/${keyword}`, message: `the root's "${keyword}" left out: clients refuse it at the root, and without it the schema only takes more` })
    }
  }
  return root
}

/** The input schema read as the arguments object it describes (a copy), and what reading it so changed. */
export function argumentsRoot(schema: JsonSchemaObject): { schema: JsonSchemaObject, readings: ArgumentsReading[] } {
  const readings: ArgumentsReading[] = []
  const root = withoutRootConditions(schema, readings)
  // A union's branch that says no type is read for objects (the union is then flattened as any other).
  const union = (['anyOf', 'oneOf'] as const).find(keyword => Array.isArray(root[keyword]))
  const types = [root.type ?? []].flat()
  if (union !== undefined && root.type === undefined) {
    // A `$ref` or a union in the branch is read beside `type` (they narrow it to the objects they take),
    // and a `true` branch is any object.
    root[union] = (root[union] as unknown[]).map((branch, i) => {
      if (branch !== true && (!isSchemaObject(branch) || branch.type !== undefined))
        return branch
      readings.push({ path: childPointer('', union, i, 'type'), message: 'a branch of the root union that says no type read as an object: a client\'s arguments are always one' })
      return { ...(isSchemaObject(branch) ? branch : {}), type: 'object' }
    })
  }
  else if (root.type !== 'object' && (types.length === 0 || types.includes('object'))) {
    readings.push({ path: '/type', message: `the root read as an object (it said ${root.type === undefined ? 'no type' : JSON.stringify(root.type)}): a client's arguments are always one` })
    root.type = 'object'
  }
  return { schema: root, readings }
}
