// The rules of the strict routes that arrived in 2026, by client, where no target profile stands for
// them (sources: docs/clients.md): Kimi (Moonshot's API, kimi-cli, OpenRouter) refuses a tool name
// that starts with a digit, a `required` key `properties` does not name, a `$ref` beside other
// keywords, and a `type` beside `anyOf`; xAI Grok's route a root that is not an object; Copilot in
// Visual Studio a name outside `^[a-zA-Z0-9_-]{1,128}$`; Mistral (its API checks each tool against a
// meta-schema) a `$id` or `$schema` anywhere and a draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum`;
// DeepSeek V4 a `required` that is not an array (`null`). Every list flatmcp serves should meet them
// all; the probe says where one does not.
import type { JsonPointer } from '../types'
import { childPointer, isSchemaObject } from '../json'

/** One rule a client's route applies, broken: the client, and what it refuses where. */
export interface ClientRuleViolation {
  client: 'Kimi' | 'xAI Grok' | 'Copilot in Visual Studio' | 'Mistral' | 'DeepSeek V4'
  message: string
}

type Node = Record<string, unknown>

/** Keywords that hold one schema, a map of schemas, or a list of schemas (every dialect's). */
const ONE = ['items', 'additionalItems', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties']
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']

/** Each node of a schema with its pointer, through every keyword that holds schemas. */
function eachNode(schema: unknown, visit: (node: Node, at: JsonPointer) => void, at: JsonPointer = '', depth = 0): void {
  if (!isSchemaObject(schema) || depth > 64)
    return
  visit(schema, at)
  for (const [keyword, child] of Object.entries(schema)) {
    if (MAP.includes(keyword) && isSchemaObject(child))
      Object.entries(child).forEach(([key, value]) => eachNode(value, visit, childPointer(at, keyword, key), depth + 1))
    else if (LIST.includes(keyword) && Array.isArray(child))
      child.forEach((value, i) => eachNode(value, visit, childPointer(at, keyword, String(i)), depth + 1))
    else if (ONE.includes(keyword))
      eachNode(child, visit, childPointer(at, keyword), depth + 1)
  }
}

interface Leftover { client: ClientRuleViolation['client'], at: JsonPointer, what: string }

/**
 * What no served schema may hold, whatever the upstream wrote: a `required` that is not an array
 * (DeepSeek V4 refuses `null`) and a draft-04 boolean exclusive bound (Mistral's meta-schema refuses
 * it). Neither is 2020-12, which MCP reads a tool schema as.
 */
function leftovers(schema: unknown): Leftover[] {
  const found: Leftover[] = []
  eachNode(schema, (node, at) => {
    if (Object.hasOwn(node, 'required') && !Array.isArray(node.required))
      found.push({ client: 'DeepSeek V4', at, what: `"required" is ${JSON.stringify(node.required)}, not an array` })
    for (const keyword of ['exclusiveMinimum', 'exclusiveMaximum'].filter(keyword => typeof node[keyword] === 'boolean'))
      found.push({ client: 'Mistral', at, what: `a draft-04 boolean "${keyword}"` })
  })
  return found
}

/** Those leftovers as a profile's violations (`pointer: rule`): every profile is free of them. */
export function draftViolations(schema: unknown): string[] {
  return leftovers(schema).map(({ client, at, what }) => `${at || '/'}: ${what}, which is not 2020-12 (${client} refuses it)`)
}

/** What Mistral's meta-schema refuses beyond those: a `$id` or `$schema` anywhere. */
function mistralViolations(schema: unknown): string[] {
  const found: string[] = []
  eachNode(schema, (node, at) => {
    for (const keyword of ['$id', '$schema'].filter(keyword => Object.hasOwn(node, keyword)))
      found.push(`"${keyword}" at ${at || '/'}`)
  })
  return found
}

/** What Kimi refuses in a schema. */
function kimiViolations(schema: unknown): string[] {
  const found: string[] = []
  eachNode(schema, (node, at) => {
    const named = isSchemaObject(node.properties) ? node.properties : {}
    for (const key of Array.isArray(node.required) ? node.required : []) {
      if (typeof key === 'string' && !Object.hasOwn(named, key))
        found.push(`"required" names ${JSON.stringify(key)}, which "properties" does not, at ${at || '/'}`)
    }
    if (typeof node.$ref === 'string' && Object.keys(node).some(keyword => keyword !== '$ref'))
      found.push(`a "$ref" beside other keywords (${Object.keys(node).filter(keyword => keyword !== '$ref').join(', ')}) at ${at || '/'}`)
    if (node.type !== undefined && (Array.isArray(node.anyOf) || Array.isArray(node.oneOf)))
      found.push(`a "type" beside "${Array.isArray(node.anyOf) ? 'anyOf' : 'oneOf'}" at ${at || '/'}`)
  })
  return found
}

/** Every rule of these clients a tool (its name and input schema) breaks. */
export function clientRuleViolations(name: string, inputSchema: unknown): ClientRuleViolation[] {
  const found: ClientRuleViolation[] = []
  if (/^\d/.test(name))
    found.push({ client: 'Kimi', message: `the name ${JSON.stringify(name)} starts with a digit` })
  for (const message of kimiViolations(inputSchema))
    found.push({ client: 'Kimi', message })
  const root = isSchemaObject(inputSchema) ? inputSchema : {}
  const branches = [...(Array.isArray(root.anyOf) ? root.anyOf : []), ...(Array.isArray(root.oneOf) ? root.oneOf : [])]
  if (root.type !== 'object' || branches.some(branch => !isSchemaObject(branch) || branch.type !== 'object'))
    found.push({ client: 'xAI Grok', message: 'the input schema\'s root is not an object alone' })
  if (!/^[\w-]{1,128}$/.test(name))
    found.push({ client: 'Copilot in Visual Studio', message: `the name ${JSON.stringify(name)} is not 1 to 128 letters, digits, "_" or "-"` })
  for (const message of mistralViolations(inputSchema))
    found.push({ client: 'Mistral', message })
  return [...found, ...leftovers(inputSchema).map(({ client, at, what }) => ({ client, message: `${what} at ${at || '/'}` }))]
}
