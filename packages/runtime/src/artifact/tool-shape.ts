// What a client's own check of a tools/list answer refuses (the MCP SDKs refuse the whole list for one
// such tool): checked where a list comes from outside the build, an artifact or a snapshot read at
// start-up or an upstream's list, so one bad entry is named instead of making the server deaf.
import { isObject } from '../util/object'

/** What is wrong with a schema a tool advertises (`field` names it: `inputSchema`); undefined when nothing is. */
export function malformedSchema(schema: unknown, field: string): string | undefined {
  if (!isObject(schema) || schema.type !== 'object')
    return `its ${field} is not an object schema ({ "type": "object", … })`
  if (schema.properties !== undefined && !isObject(schema.properties))
    return `its ${field}.properties is not an object`
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every(key => typeof key === 'string')))
    return `its ${field}.required is not a list of names`
  return undefined
}

/** Keywords a client refuses at the root of an input schema (Claude Code drops the tool, or the whole server). */
const ROOT_REFUSED = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else'] as const

/**
 * What a client refuses at the root of a tool's input schema beyond `malformedSchema`: a combinator
 * or a condition beside the object; undefined when nothing is.
 */
export function refusedInputRoot(schema: unknown): string | undefined {
  const wrong = malformedSchema(schema, 'inputSchema')
  if (wrong !== undefined)
    return wrong
  const keyword = ROOT_REFUSED.find(key => key in (schema as object))
  return keyword === undefined ? undefined : `its inputSchema has "${keyword}" at the root`
}

/** What is wrong with a tool as a list advertises it; undefined when nothing is. */
export function malformedTool(tool: unknown): string | undefined {
  if (!isObject(tool))
    return 'it is not an object'
  if (typeof tool.name !== 'string' || tool.name === '')
    return 'it has no name'
  const input = malformedSchema(tool.inputSchema, 'inputSchema')
  if (input !== undefined)
    return input
  const output = tool.outputSchema === undefined ? undefined : malformedSchema(tool.outputSchema, 'outputSchema')
  if (output !== undefined)
    return output
  for (const field of ['title', 'description'] as const) {
    if (tool[field] !== undefined && typeof tool[field] !== 'string')
      return `its ${field} is not a string`
  }
  if (tool.annotations !== undefined && !isObject(tool.annotations))
    return 'its annotations are not an object'
  return undefined
}
