// `x-mcp-header` (SEP-2243): a property an HTTP client copies into a request header, which must stay
// primitive and reachable through `properties` alone (a client drops a tool that breaks the rule).
import type { JsonPointer, JsonSchema } from '../types'
import { childPointer, isSchemaObject, resolvePointer, resolveRef } from '../json'

export const HEADER_KEYWORD = 'x-mcp-header'

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean'])

/** A place reached from the root through `properties` alone. */
const REACHABLE = /^(?:\/properties\/[^/]+)*$/

/** Where a schema declares header properties: `properties` paths from the root, through object unions, with the header names. */
export function declaredHeaders(root: JsonSchema): Map<JsonPointer, string> {
  const found = new Map<JsonPointer, string>()
  const visit = (node: unknown, path: JsonPointer, depth: number): void => {
    if (!isSchemaObject(node) || depth > 32)
      return
    if (typeof node.$ref === 'string')
      return visit(resolveRef(root, node.$ref), path, depth + 1)
    if (typeof node[HEADER_KEYWORD] === 'string')
      found.set(path, node[HEADER_KEYWORD] as string)
    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
      const branches = node[keyword]
      if (Array.isArray(branches))
        branches.forEach(branch => visit(branch, path, depth + 1))
    }
    if (isSchemaObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties))
        visit(child, childPointer(path, 'properties', key), depth + 1)
    }
  }
  visit(root, '', 0)
  return found
}

/**
 * Why an advertised schema breaks the header rule at each place the original declares a header:
 * the place must be there through `properties` alone, keep the header, and take one primitive type.
 */
export function headerViolations(declared: Map<JsonPointer, string>, advertised: JsonSchema): [JsonPointer, string][] {
  const out: [JsonPointer, string][] = []
  for (const [path, header] of declared) {
    const node = resolvePointer(advertised, path)
    const typed = isSchemaObject(node) && typeof node.type === 'string' && PRIMITIVE_TYPES.has(node.type)
    if (!isSchemaObject(node))
      out.push([path, `the header property "${header}" is no longer reachable through properties alone`])
    else if (node[HEADER_KEYWORD] !== header)
      out.push([path, `the header property "${header}" lost its ${HEADER_KEYWORD} annotation (its variants disagree on it)`])
    else if (!typed)
      out.push([path, `the header property "${header}" is not one primitive type here (${JSON.stringify(node.type ?? 'untyped')}): a union widened it`])
  }
  return out
}

/** Every `x-mcp-header` in an advertised schema that is not on a primitive property reachable through `properties` alone. */
export function misplacedHeaders(schema: JsonSchema): [JsonPointer, string][] {
  const found: [JsonPointer, string][] = []
  const visit = (node: unknown, path: JsonPointer, depth: number): void => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => visit(child, childPointer(path, i), depth + 1))
      return
    }
    if (!isSchemaObject(node) || depth > 64)
      return
    if (HEADER_KEYWORD in node) {
      if (!REACHABLE.test(path))
        found.push([path, `${HEADER_KEYWORD} on a property not reachable through properties alone`])
      else if (typeof node.type !== 'string' || !PRIMITIVE_TYPES.has(node.type))
        found.push([path, `${HEADER_KEYWORD} on a property that is not one primitive type`])
    }
    for (const [keyword, child] of Object.entries(node)) {
      if (keyword === 'properties' && isSchemaObject(child)) {
        for (const [key, property] of Object.entries(child))
          visit(property, childPointer(path, 'properties', key), depth + 1)
      }
      else if (typeof child === 'object' && !['enum', 'const', 'default', 'examples'].includes(keyword)) {
        visit(child, childPointer(path, keyword), depth + 1)
      }
    }
  }
  visit(schema, '', 0)
  return found
}
