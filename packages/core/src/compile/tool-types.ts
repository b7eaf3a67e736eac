import type { ClientHints } from './client-hints'
import type { Diagnostic, JsonPointer, JsonSchemaObject, PresetName, ProfileName } from '../types'
import type { SchemaConverters } from '../frontend/original-schema'
import type { CoercionPlan } from '../plan/plan-coercion'
import type { TargetProfile } from '../profiles/apply'

/** What the compiler reads of a tool. `@flatmcp/runtime`'s `defineTool` gives it its types. */
export interface ToolDefinition extends ClientHints {
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
export type ToolSchemaPart = 'params' | 'input' | 'output' | 'extend'

export interface ToolDiagnostic extends Diagnostic {
  tool: string
  schema: ToolSchemaPart
}

export interface CompileOptions {
  /** A built-in profile by name, or a target profile of one's own (rules over `portable`). */
  profile?: ProfileName | TargetProfile
  /** Fields every tool shares (an object schema), merged into each tool's input like `params`. */
  extend?: { schema: unknown }
  /** Converters of schema libraries that keep them outside their schemas (the build loads them from the project). */
  converters?: SchemaConverters
  /**
   * For a tool whose schemas are JSON Schema: the parser they were generated for (pydantic, Go's
   * encoding/json, serde, .NET), or `auto` (the default) to tell it by the schema's fingerprints.
   */
  preset?: PresetName | 'auto'
  /**
   * Where the preset says the parser reads a `null` like a left-out key (pydantic's `X | None =
   * None`, Go's slices and pointers), advertise the key without `null`: the shape Gemini's routes
   * and Claude Code take. Calls with `null` are still read as before. The `gemini` profile always does.
   */
  omitAbsentNulls?: boolean
  /**
   * One example per variant of a root union, made from the original schema and kept where the
   * original parser (its Standard Schema `validate`, run synchronously) accepts it: the root's
   * `examples` in `portable`, a line of the input's description in the target profiles; `schema`:
   * made from the JSON Schema alone, no parser run (where the author's transforms and refines must
   * not run on made-up values: a server compiling at start-up). Default: true.
   */
  examples?: boolean | 'schema'
}

export interface CompiledTool {
  name: string
  title?: string
  description?: string
  inputSchema: JsonSchemaObject
  /** The output as clients take it: a root object with no root combinator (see `outputWrap`). */
  outputSchema?: JsonSchemaObject
  /**
   * Set when the output's root is not one object (an array, a scalar, a union that stays one): it is
   * advertised as `{ result: … }`, and the tool's `structuredContent` goes wrapped the same way.
   */
  outputWrap?: 'result'
  annotations?: Record<string, unknown>
  /** The hints clients read (`anthropic/alwaysLoad`, `anthropic/searchHint`), from the definition's `alwaysLoad` and `searchHint`. */
  _meta?: Record<string, unknown>
  /** The profile this tool was compiled for, unless `portable`. */
  profile?: string
  /** For a JSON Schema input: the parser preset it was read with. */
  preset?: PresetName
  /** For a strict profile: whether the tool meets its rules (when not, it is the `portable` tool). */
  strict?: boolean
  /**
   * Where the runtime may parse JSON strings back into objects and arrays (with a strict profile, also
   * which nulls mean a missing key). With `decode`, the inverse map of the profile.
   */
  coercion: CoercionPlan
  /** Places the profile advertised as JSON text: parsed back first, before `coercion`. */
  decode?: CoercionPlan
  /** The discriminator of the input when it is a union of objects: the runtime names variants by it. */
  discriminator?: string
  /** Which argument keys belong to `params` and to the shared `extend` fields; the rest is `input`. */
  slices?: { params?: string[], extend?: string[] }
  diagnostics: ToolDiagnostic[]
}

/** A tool cannot be compiled; says which tool, which of its schemas and where. */
export class CompileError extends Error {
  constructor(readonly tool: string, readonly schema: ToolSchemaPart | undefined, readonly path: JsonPointer, readonly reason: string) {
    super(`tool "${tool}"${schema ? ` ${schema}` : ''}${path ? ` at ${path}` : ''}: ${reason}`)
    this.name = 'CompileError'
  }
}
