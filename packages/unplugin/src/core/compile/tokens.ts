// What a tool costs a model's context: o200k_base tokens (the encoding of OpenAI's current models,
// shipped inside gpt-tokenizer) of the tool's definition as compact JSON, the way a client hands it
// on. Other vendors' tokenizers differ by some percent; the ratio advertised ÷ original is what
// the figure is for.
import type { CompiledTool, SchemaConverters, ToolDefinition } from '@flatmcp/core'
import { isJsonSchemaDocument, toOriginalSchema } from '@flatmcp/core'

/** Per tool: the original's tokens, and each built profile's. */
export interface ToolTokens {
  original: number
  profiles: Record<string, number>
}

/** BPE is quadratic in a run without a break; text past this is counted in slices of it. */
const SLICE = 4096

type Counter = (text: string) => number
let countTokens: Counter | undefined

/**
 * Loads the encoding (about 0.3 s) once, when a module is compiled afresh: a build whose modules all
 * come from the cache never pays it.
 */
export async function loadTokenizer(): Promise<void> {
  countTokens ??= (await import('gpt-tokenizer/encoding/o200k_base')).countTokens
}

/** Tokens of a text; `loadTokenizer()` must have run. */
export function tokensOf(text: string): number {
  if (!countTokens)
    throw new Error('flatmcp: tokensOf() before loadTokenizer()')
  if (text.length <= SLICE * 4)
    return countTokens(text)
  let total = 0
  for (let at = 0; at < text.length; at += SLICE)
    total += countTokens(text.slice(at, at + SLICE))
  return total
}

/** A tool definition's tokens: its name, description and input schema as compact JSON. */
export function definitionTokens(tool: { name: string, description?: string, inputSchema: unknown }): number {
  return tokensOf(JSON.stringify({ name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), inputSchema: tool.inputSchema }))
}

/**
 * A tool's tokens as built, beside the original's: the same definition with the schema library's
 * own JSON Schema of `input` (and of `params`, counted as a second schema) instead of the flat one.
 */
export function toolTokens(definition: ToolDefinition, compiled: readonly CompiledTool[], baseProfile: string, converters: SchemaConverters = {}): ToolTokens {
  // A JSON Schema given as data is counted as given (titles and all), as its server lists it.
  const schemaOf = (schema: unknown): unknown => schema === undefined ? { type: 'object' } : isJsonSchemaDocument(schema) ? schema : toOriginalSchema(schema, 'input', converters).schema
  const [base] = compiled
  const original = definitionTokens({ name: base!.name, description: base!.description, inputSchema: schemaOf(definition.input) })
    + (definition.params === undefined ? 0 : tokensOf(JSON.stringify(schemaOf(definition.params))))
  return { original, profiles: Object.fromEntries(compiled.map(tool => [tool.profile ?? baseProfile, definitionTokens(tool)])) }
}
