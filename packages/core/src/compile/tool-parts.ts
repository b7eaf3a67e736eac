// A tool's schemas (the shared `extend` fields, `params`, `input`, `output`) each read by its front end
// and flattened for the profile, with what the rest of the compile needs to know of their originals.
import type { JsonSchema, JsonSchemaObject, PresetName } from '../types'
import type { OriginalSchema } from '../frontend/original-schema'
import type { JsonSchemaOriginal } from '../frontend/json-schema'
import type { ResolvedProfile } from '../profiles/registry'
import type { ArgumentsReading } from './arguments-root'
import type { CompileOptions, ToolDefinition, ToolDiagnostic, ToolSchemaPart } from './tool-types'
import { isJsonSchemaDocument } from '../frontend/json-schema'
import { toOriginalSchema, UnrepresentableError } from '../frontend/original-schema'
import { presetReason } from '../frontend/presets'
import { tagOf } from '../flatten/hints'
import { isSchemaObject } from '../json'
import { withoutRootConditions } from './arguments-root'
import { flattenSchema } from './flatten-schema'
import { mergeParts, objectRoot } from './merge-parts'
import { CompileError } from './tool-types'

/** The diagnostic each kind of reading of a front end is said as. */
const READING_CODES = { cut: 'generator-noise', read: 'generator-preset', default: 'default-left-out' } as const

const EMPTY_OBJECT: JsonSchemaObject = { type: 'object', properties: {} }

/** What reading the argument parts learnt of their originals. */
export interface PartsRead {
  /** The argument parts' originals (not the output's), in the order read. */
  originals: OriginalSchema[]
  /** Each argument part's original as read, kept (before the flattening may rewrite it) where examples are made. */
  partOriginals: Map<ToolSchemaPart, JsonSchema>
  discriminator?: string
  presetName?: PresetName
  /** What the argument originals cost in JSON characters, as their server or library writes them. */
  originalSize: number
  /** Whether an original says a shape once and uses it by `$ref` (the flattening writes it out at each use). */
  referenced: boolean
}

/** Reads a part of `tool` into a flat schema, its diagnostics pushed onto `diagnostics` in the order met. */
export type PartFlattener = (part: ToolSchemaPart, schema: unknown) => JsonSchemaObject

/** A reader of `tool`'s parts for `target`, and what it has learnt of the argument parts so far. */
export function partReader(tool: ToolDefinition, options: CompileOptions, target: ResolvedProfile, diagnostics: ToolDiagnostic[]): { read: PartsRead, flat: PartFlattener } {
  const read: PartsRead = { originals: [], partOriginals: new Map(), originalSize: 0, referenced: false }
  const flatPart: PartFlattener = (part, schema) => {
    const original = originalOf(tool.name, part, schema, options)
    if (part !== 'output') {
      const text = JSON.stringify(isJsonSchemaDocument(schema) ? schema : original.schema)
      read.originalSize += text.length
      read.referenced ||= text.includes('"$ref"')
    }
    // MCP reads a tool schema without `$schema` as 2020-12; the tag only breaks draft-07 validators (VS Code's).
    delete original.schema.$schema
    const result = flattenSchema(original.schema, { profile: target.flatten, notes: original.notes, semantics: original.semantics })
    diagnostics.push(...result.diagnostics.map(d => ({ ...d, tool: tool.name, schema: part })))
    if (part !== 'output') {
      read.originals.push(original)
      if (options.examples !== false)
        read.partOriginals.set(part, structuredClone(original.schema))
    }
    if (part === 'input') {
      read.discriminator = rootDiscriminator(original)
      read.presetName = presetOf(tool.name, original, diagnostics)
    }
    for (const reading of (original as Partial<JsonSchemaOriginal>).readings ?? [])
      diagnostics.push({ tool: tool.name, schema: part, code: READING_CODES[reading.kind], severity: reading.kind === 'default' ? 'warning' : 'info', path: reading.path, message: reading.message })
    // An output of another root is advertised wrapped (`outputWrap`), not refused.
    return part === 'output' ? result.schema as JsonSchemaObject : objectRoot(tool.name, part, result.schema, diagnostics)
  }
  // Clients refuse a root condition (Claude Code drops the tool): one the flattening kept or folded up goes, which only widens.
  const flat: PartFlattener = (part, schema) => {
    const flattened = flatPart(part, schema)
    if (part === 'output' || !isSchemaObject(flattened))
      return flattened
    const readings: ArgumentsReading[] = []
    const plain = withoutRootConditions(flattened, readings)
    diagnostics.push(...readings.map(reading => ({ tool: tool.name, schema: part, code: 'generator-preset' as const, severity: 'info' as const, path: '', message: reading.message })))
    return readings.length === 0 ? flattened : plain
  }
  return { read, flat }
}

/** The argument parts in the order they merge (shared fields, `params`, `input`), each flat. */
export function argumentParts(tool: ToolDefinition, options: CompileOptions, flat: PartFlattener): [ToolSchemaPart, JsonSchemaObject][] {
  const parts: [ToolSchemaPart, JsonSchemaObject][] = []
  if (options.extend !== undefined)
    parts.push(['extend', flat('extend', options.extend.schema)])
  if (tool.params !== undefined)
    parts.push(['params', flat('params', tool.params)])
  parts.push(['input', tool.input === undefined ? EMPTY_OBJECT : flat('input', tool.input)])
  return parts
}

/** The argument parts as the one input object clients are sent. */
export function mergedInput(tool: string, parts: [ToolSchemaPart, JsonSchemaObject][]): JsonSchemaObject {
  return parts.length === 1 ? parts[0]![1] : mergeParts(tool, parts)
}

/** A part's schema read by its front end; what it cannot say is a `CompileError` naming the part. */
function originalOf(tool: string, part: ToolSchemaPart, schema: unknown, options: CompileOptions): OriginalSchema {
  try {
    return toOriginalSchema(schema, part === 'output' ? 'output' : 'input', options.converters, { preset: options.preset })
  }
  catch (error) {
    if (error instanceof UnrepresentableError)
      throw new CompileError(tool, part, error.path, error.reason)
    throw new CompileError(tool, part, '', (error as Error).message)
  }
}

/** The preset a JSON Schema input was read with, said as a diagnostic. */
function presetOf(tool: string, original: OriginalSchema, diagnostics: ToolDiagnostic[]): PresetName | undefined {
  if (!('preset' in original))
    return undefined
  const reading = (original as JsonSchemaOriginal).preset
  diagnostics.push({ tool, schema: 'input', code: 'generator-preset', severity: 'info', path: '', message: `read with the "${reading.preset.name}" preset, for ${reading.preset.generators}: ${presetReason(reading)}` })
  return reading.preset.name
}

/** The discriminator of a root union of objects, as declared or as found. */
function rootDiscriminator(original: OriginalSchema): string | undefined {
  const branches = [original.schema.anyOf, original.schema.oneOf].find(Array.isArray)
  if (!branches || !branches.every(isSchemaObject))
    return undefined
  return tagOf(branches, original.notes['']?.discriminator)?.key
}
