// The argument parts' roots checked and merged into the one input object MCP sends a tool.
import type { JsonSchema, JsonSchemaObject } from '../types'
import type { ToolDiagnostic, ToolSchemaPart } from './tool-types'
import { isSchemaObject, setOwn } from '../json'
import { CompileError } from './tool-types'

/** MCP wants `type: "object"` at the root; anything else is reported (and kept, since it is sound). */
export function objectRoot(tool: string, part: ToolSchemaPart, schema: JsonSchema, diagnostics: ToolDiagnostic[]): JsonSchemaObject {
  if (isSchemaObject(schema) && schema.type === 'object')
    return schema
  diagnostics.push({ tool, schema: part, code: 'root-not-object', severity: 'error', path: '', message: `MCP needs an object schema at the root of a tool's ${part}; this one is ${JSON.stringify(isSchemaObject(schema) ? schema.type ?? 'untyped' : schema)}: ${rootFix(schema)}` })
  return isSchemaObject(schema) ? schema : { type: 'object' }
}

/** What to write instead of a root that is not one object. */
function rootFix(schema: JsonSchema): string {
  const types = isSchemaObject(schema) ? [schema.type ?? []].flat() : []
  if (types.length === 0 || types.length >= 6)
    return 'it takes any value. Give an object schema, z.object({ text: z.string() }): a plain object of schemas ({ text: z.string() }) is not one, wrap it in z.object'
  if (types.includes('object'))
    return `a union with ${types.filter(type => type !== 'object').map(type => JSON.stringify(type)).join(', ')} beside the object. Make every branch an object (z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), … }), …])), or put the value under a key, z.object({ value: … })`
  return `put it under a key, z.object({ value: … })`
}

/** Shared fields, `params` and `input` side by side in one object; a key declared twice is an error. */
export function mergeParts(tool: string, parts: [ToolSchemaPart, JsonSchemaObject][]): JsonSchemaObject {
  const out: JsonSchemaObject = { type: 'object' }
  const properties: Record<string, JsonSchema> = {}
  const owner = new Map<string, ToolSchemaPart>()
  const required: string[] = []
  const descriptions: string[] = []
  for (const [part, schema] of parts) {
    for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      const first = owner.get(key)
      if (first !== undefined) {
        const fix = first === 'extend' ? 'rename the tool\'s key or the shared field' : 'rename one of them'
        throw new CompileError(tool, part, `/properties/${key}`, `key "${key}" is declared in both ${first === 'extend' ? 'the shared extend fields' : first} and ${part}; ${fix}`)
      }
      owner.set(key, part)
      setOwn(properties, key, property)
    }
    required.push(...(schema.required as string[] | undefined ?? []))
    if (typeof schema.description === 'string' && part !== 'extend')
      descriptions.push(schema.description)
  }
  if (descriptions.length > 0)
    out.description = descriptions.join(' ')
  out.properties = properties
  if (required.length > 0)
    out.required = required
  if (parts.every(([, schema]) => schema.additionalProperties === false))
    out.additionalProperties = false
  return out
}
