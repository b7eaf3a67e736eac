import type { CompiledTool, JsonSchema } from '@flatmcp/core'
import { compileTool } from '@flatmcp/core'
import { Ajv2020 } from 'ajv/dist/2020.js'
import AjvDraft7 from 'ajv'

/**
 * A real validator, strict about schema mistakes, with formats as annotations (zod and ajv disagree
 * on them); its tuple lint is off, since the minimal profile keeps zod's tuples as they are.
 */
const options = { strict: true, strictTuples: false, strictRequired: false, allowUnionTypes: true, validateFormats: false }
export const ajv = new Ajv2020(options)
export const ajvDraft7 = new AjvDraft7(options)

export function accepts(schema: JsonSchema, value: unknown): boolean {
  return ajv.validate(schema as object, value) as boolean
}

export function compile(input: unknown, extra: { params?: unknown, profile?: 'portable' | 'minimal' } = {}): CompiledTool {
  return compileTool({ name: 'tool', input, params: extra.params }, { profile: extra.profile })
}

/** The advertised input schema of a tool whose input is `input`. */
export function flat(input: unknown): Record<string, any> {
  return compile(input).inputSchema as Record<string, any>
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', '$ref', '$defs', 'definitions', '$schema', 'prefixItems']

/**
 * Every place in a schema that breaks the portable profile's shape rules, as JSON pointers. Kept
 * apart from core's `profileViolations` on purpose: tests check the compiler against an oracle of
 * their own, and `profileViolations` against this one.
 */
export function portableViolations(schema: unknown, path = '', inheritedOptional = false): string[] {
  if (typeof schema !== 'object' || schema === null)
    return []
  if (Array.isArray(schema))
    return schema.flatMap((item, i) => portableViolations(item, `${path}/${i}`))
  const node = schema as Record<string, unknown>
  const found = COMBINATORS.filter(k => k in node).map(k => `${path}/${k}`)
  const inSchemaPosition = !path.endsWith('/enum') && !path.endsWith('/default') && !path.endsWith('/examples')
  const anyEnd = path.endsWith('/items') && Object.keys(node).length === 0
  // An optional key every object inherits (`constructor`) has no type: ajv reads the inherited member when it is not sent.
  if (inSchemaPosition && !('type' in node) && !path.endsWith('/properties') && !anyEnd && !inheritedOptional)
    found.push(`${path} (untyped)`)
  const type = node.type
  if ((type === 'array' || (Array.isArray(type) && type.includes('array'))) && !('items' in node))
    found.push(`${path} (array without items)`)
  for (const [key, child] of Object.entries(node)) {
    if (key === 'enum' || key === 'default' || key === 'examples' || key === 'const')
      continue
    if (key === 'properties' && typeof child === 'object' && child !== null) {
      const required = Array.isArray(node.required) ? node.required : []
      for (const [name, property] of Object.entries(child))
        found.push(...portableViolations(property, `${path}/properties/${name}`, name in {} && !required.includes(name)))
    }
    else if (typeof child === 'object' && child !== null) {
      found.push(...portableViolations(child, `${path}/${key}`))
    }
  }
  return found
}
