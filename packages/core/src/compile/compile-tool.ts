import type { Diagnostic, JsonPointer, JsonSchema, JsonSchemaObject, ProfileName } from '../types'
import { toOriginalSchema, UnrepresentableError } from '../frontend/original-schema'
import { flattenSchema } from '../flatten/flatten-schema'
import { isSchemaObject } from '../json'
import { canonicalSchema } from './canonical'

/** What the compiler reads of a tool. `@flatmcp/runtime`'s `defineTool` gives it its types. */
export interface ToolDefinition {
  name: string
  title?: string
  description?: string
  annotations?: Record<string, unknown>
  /** Path-like arguments: an object schema merged beside `input`. */
  params?: unknown
  /** The tool's arguments: an object schema or a union of them. */
  input?: unknown
  /** The structured result, when the tool declares one. */
  output?: unknown
}

/** Which of a tool's schemas a diagnostic or an error points into. */
export type ToolSchemaPart = 'params' | 'input' | 'output'

export interface ToolDiagnostic extends Diagnostic {
  tool: string
  schema: ToolSchemaPart
}

export interface CompileOptions {
  profile?: ProfileName
}

export interface CompiledTool {
  name: string
  title?: string
  description?: string
  inputSchema: JsonSchemaObject
  outputSchema?: JsonSchemaObject
  annotations?: Record<string, unknown>
  diagnostics: ToolDiagnostic[]
}

/** A tool cannot be compiled; says which tool, which of its schemas and where. */
export class CompileError extends Error {
  constructor(readonly tool: string, readonly schema: ToolSchemaPart | undefined, readonly path: JsonPointer, reason: string) {
    super(`tool "${tool}"${schema ? ` ${schema}` : ''}${path ? ` at ${path}` : ''}: ${reason}`)
    this.name = 'CompileError'
  }
}

const EMPTY_OBJECT: JsonSchemaObject = { type: 'object', properties: {} }

/**
 * Compiles one tool: its original schemas to JSON Schema, flattened for the profile, `params` and
 * `input` merged into one object. The result is plain JSON in a fixed key order.
 */
export function compileTool(tool: ToolDefinition, options: CompileOptions = {}): CompiledTool {
  if (!tool || typeof tool.name !== 'string' || tool.name === '')
    throw new CompileError(String(tool?.name ?? '?'), undefined, '', 'a tool needs a non-empty string name')
  const diagnostics: ToolDiagnostic[] = []
  const flat = (part: ToolSchemaPart, schema: unknown): JsonSchemaObject => {
    let original
    try {
      original = toOriginalSchema(schema, part === 'output' ? 'output' : 'input')
    }
    catch (error) {
      if (error instanceof UnrepresentableError)
        throw new CompileError(tool.name, part, error.path, error.message)
      throw new CompileError(tool.name, part, '', (error as Error).message)
    }
    const result = flattenSchema(original.schema, { profile: options.profile, notes: original.notes })
    diagnostics.push(...result.diagnostics.map(d => ({ ...d, tool: tool.name, schema: part })))
    return objectRoot(tool.name, part, result.schema, diagnostics)
  }

  const input = tool.input === undefined ? EMPTY_OBJECT : flat('input', tool.input)
  const inputSchema = tool.params === undefined ? input : mergeParams(tool.name, flat('params', tool.params), input)
  const compiled: CompiledTool = { name: tool.name } as CompiledTool
  if (tool.title !== undefined)
    compiled.title = tool.title
  if (tool.description !== undefined)
    compiled.description = tool.description
  compiled.inputSchema = canonicalSchema(inputSchema) as JsonSchemaObject
  if (tool.output !== undefined)
    compiled.outputSchema = canonicalSchema(flat('output', tool.output)) as JsonSchemaObject
  if (tool.annotations !== undefined)
    compiled.annotations = tool.annotations
  compiled.diagnostics = diagnostics
  return compiled
}

/** MCP wants `type: "object"` at the root; anything else is reported (and kept, since it is sound). */
function objectRoot(tool: string, part: ToolSchemaPart, schema: JsonSchema, diagnostics: ToolDiagnostic[]): JsonSchemaObject {
  if (isSchemaObject(schema) && schema.type === 'object')
    return schema
  diagnostics.push({ tool, schema: part, code: 'root-not-object', severity: 'error', path: '', message: `MCP needs an object schema at the root of a tool's ${part}; this one is ${JSON.stringify(isSchemaObject(schema) ? schema.type ?? 'untyped' : schema)}` })
  return isSchemaObject(schema) ? schema : { type: 'object' }
}

/** `params` and `input` side by side in one object; a key declared by both is an error. */
function mergeParams(tool: string, params: JsonSchemaObject, input: JsonSchemaObject): JsonSchemaObject {
  const paramProps = (params.properties ?? {}) as Record<string, JsonSchema>
  const inputProps = (input.properties ?? {}) as Record<string, JsonSchema>
  for (const key of Object.keys(inputProps)) {
    if (Object.prototype.hasOwnProperty.call(paramProps, key))
      throw new CompileError(tool, 'input', `/properties/${key}`, `key "${key}" is declared in both params and input; rename one of them`)
  }
  const out: JsonSchemaObject = { type: 'object' }
  const description = [params.description, input.description].filter(d => typeof d === 'string').join(' ')
  if (description)
    out.description = description
  out.properties = { ...paramProps, ...inputProps }
  const required = [...(params.required as string[] | undefined ?? []), ...(input.required as string[] | undefined ?? [])]
  if (required.length > 0)
    out.required = required
  if (params.additionalProperties === false && input.additionalProperties === false)
    out.additionalProperties = false
  return out
}
