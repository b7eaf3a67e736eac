import type { JsonSchema, JsonSchemaObject, ProfileName } from '../types'
import type { OriginalSchema } from '../frontend/original-schema'
import type { TargetProfile, TargetResult } from '../profiles/apply'
import type { ResolvedProfile } from '../profiles/registry'
import type { TargetRule } from '../profiles/rules'
import type { PartsRead } from './tool-parts'
import type { CompiledTool, CompileOptions, ToolDefinition, ToolDiagnostic, ToolSchemaPart } from './tool-types'
import { isSchemaObject } from '../json'
import { cutDescription, MAX_DESCRIPTION } from '../keywords'
import { keepDecodedNulls } from '../plan/decoded-nulls'
import { mergeObjectPlans, planCoercion } from '../plan/plan-coercion'
import { applyTarget } from '../profiles/apply'
import { resolveTarget } from '../profiles/registry'
import { omitAbsentNulls } from '../profiles/strict-objects'
import { boundedCopies } from './bounded-copies'
import { canonicalSchema } from './canonical'
import { hintsMeta } from './client-hints'
import { carryExamples, EXAMPLE_BOUNDS, toolExamples } from './examples'
import { checkHeaders } from './header-check'
import { largerThanOriginal } from './larger-than-original'
import { argumentParts, mergedInput, partReader } from './tool-parts'
import { CompileError } from './tool-types'

/**
 * Compiles one tool: its original schemas to JSON Schema, flattened for the profile, `params` and
 * `input` merged into one object. The result is plain JSON in a fixed key order.
 */
export function compileTool(tool: ToolDefinition, options: CompileOptions = {}): CompiledTool {
  if (!tool || typeof tool.name !== 'string' || tool.name === '')
    throw new CompileError(String(tool?.name ?? '?'), undefined, '', 'a tool needs a non-empty string name')
  const diagnostics: ToolDiagnostic[] = []
  const target = resolveTarget(options.profile ?? 'portable')
  const { read, flat } = partReader(tool, options, target, diagnostics)
  const parts = argumentParts(tool, options, flat)
  const inputSchema = mergedInput(tool.name, parts)
  const compiled: CompiledTool = { name: tool.name } as CompiledTool
  if (tool.title !== undefined)
    compiled.title = tool.title
  if (tool.description !== undefined)
    compiled.description = fitDescription(tool.description, 'the tool description', target, tool.name, diagnostics)
  if (typeof inputSchema.description === 'string')
    inputSchema.description = fitDescription(inputSchema.description, 'the merged input description', target, tool.name, diagnostics)
  const targeted = targetInput(inputSchema, read.originals, target, options)
  if (targeted)
    diagnostics.push(...targeted.diagnostics.map(d => ({ ...d, tool: tool.name, schema: 'input' as const })))
  compiled.inputSchema = canonicalSchema(targeted?.schema ?? inputSchema) as JsonSchemaObject
  // A target profile keeps only the keywords its target takes, so the header rule is the flattening's.
  if (!target.profile)
    diagnostics.push(...checkHeaders(tool.name, read.originals, compiled.inputSchema))
  if (tool.output !== undefined)
    Object.assign(compiled, advertisedOutput(canonicalSchema(flat('output', tool.output)) as JsonSchemaObject))
  if (options.examples !== false)
    compiled.inputSchema = withExamples(compiled.inputSchema, tool, options, parts, read, target, targeted, diagnostics)
  compiled.inputSchema = boundedCopies(compiled.inputSchema, target, targeted?.strict, read.referenced ? read.originalSize : 0, tool.name, diagnostics)
  if (tool.annotations !== undefined)
    compiled.annotations = tool.annotations
  // From the flat schema before any target's rewrites: every profile lists the same hints.
  const meta = hintsMeta(tool, tool.name, tool.description, inputSchema)
  if (meta !== undefined)
    compiled._meta = meta
  if (target.profile)
    compiled.profile = target.profile.name
  if (read.presetName !== undefined)
    compiled.preset = read.presetName
  if (targeted?.strict !== undefined)
    compiled.strict = targeted.strict
  const plans = read.originals.map(original => planCoercion(original.schema, { notes: original.notes, nullsMeanAbsent: targeted?.nullsMeanAbsent }))
  compiled.coercion = plans.length === 1 ? plans[0]! : mergeObjectPlans(plans)
  if (targeted?.decode) {
    compiled.decode = targeted.decode
    compiled.coercion = keepDecodedNulls(compiled.coercion, targeted.decode, targeted.restNamed)
  }
  if (read.discriminator !== undefined)
    compiled.discriminator = read.discriminator
  const slices = Object.fromEntries(parts.filter(([part]) => part !== 'input').map(([part, schema]) => [part, Object.keys(schema.properties ?? {})]))
  if (Object.keys(slices).length > 0)
    compiled.slices = slices
  const grown = largerThanOriginal(compiled.inputSchema, read.originalSize, compiled.profile ?? target.flatten, compiled.strict === true)
  if (grown)
    diagnostics.push({ tool: tool.name, schema: 'input', code: 'larger-than-original', severity: 'info', path: '', message: grown })
  compiled.diagnostics = diagnostics
  return compiled
}

/** The portable profile keeps every description within what clients take whole, and says when it cuts. */
function fitDescription(text: string, what: string, target: ResolvedProfile, tool: string, diagnostics: ToolDiagnostic[]): string {
  if (target.flatten !== 'portable' || text.length <= MAX_DESCRIPTION)
    return text
  diagnostics.push({ tool, schema: 'input', code: 'description-cut', severity: 'warning', path: '', message: `${what} of ${text.length} characters cut to ${MAX_DESCRIPTION} (OpenAI rejects a longer tool description); shorten it` })
  return cutDescription(text)
}

/** The merged input rewritten for a target profile (none for plain `portable`), as its originals' parsers read it. */
function targetInput(inputSchema: JsonSchemaObject, originals: OriginalSchema[], target: ResolvedProfile, options: CompileOptions): TargetResult | undefined {
  // Only where every part's parser reads a `null` like a left-out key may a strict profile say so plainly.
  const nullModes = new Set(originals.map(original => original.semantics.nullAsAbsent))
  const nullAsAbsent = nullModes.size === 1 ? [...nullModes][0]! : 'never'
  const profile = options.omitAbsentNulls ? withRules(target.profile, [omitAbsentNulls]) : target.profile
  // Where any part's parser keeps unknown keys, an object that says nothing of them is open.
  const unknownKeys = originals.some(original => original.semantics.unknownKeys === 'keep') ? 'keep' : 'strip'
  // A validator as the parser (the json-schema preset) reads a format as an annotation unless told otherwise.
  const formats = originals.some(original => original.semantics.trustedFormats === 'all') ? 'annotation' : 'asserted'
  return profile ? applyTarget(inputSchema, profile, { nullAsAbsent, unknownKeys, formats }) : undefined
}

/** A schema whose root is one object: `type: "object"` alone, with no combinator beside it. */
function isPlainObjectRoot(schema: JsonSchema): boolean {
  return isSchemaObject(schema) && schema.type === 'object' && !['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref'].some(keyword => keyword in schema)
}

/** Clients take a root object only (the SDK 2.x rewrites any other for 2025 clients, its results not always). */
function advertisedOutput(output: JsonSchemaObject): Pick<CompiledTool, 'outputSchema' | 'outputWrap'> {
  if (isPlainObjectRoot(output))
    return { outputSchema: output }
  // Definitions stay at the document's root, where its `$ref`s point.
  const { $defs, definitions, ...root } = isSchemaObject(output) ? output : { $defs: undefined, definitions: undefined }
  const result = isSchemaObject(output) ? root : output
  return { outputSchema: { type: 'object', properties: { result }, required: ['result'], ...($defs === undefined ? {} : { $defs }), ...(definitions === undefined ? {} : { definitions }) } as JsonSchemaObject, outputWrap: 'result' }
}

/** The advertised input with one example per variant of its root, made from the parts' originals. */
function withExamples(schema: JsonSchemaObject, tool: ToolDefinition, options: CompileOptions, parts: [ToolSchemaPart, JsonSchemaObject][], read: PartsRead, target: ResolvedProfile, targeted: TargetResult | undefined, diagnostics: ToolDiagnostic[]): JsonSchemaObject {
  const sources = parts.map(([part]) => ({ part, schema: read.partOriginals.get(part), parser: part === 'extend' ? options.extend!.schema : tool[part as 'params' | 'input'] }))
  const { examples, overBudget } = toolExamples(sources, options.examples === 'schema' ? 'schema' : 'parser')
  const carried = examples.length > 0 ? carryExamples(schema, examples, target.profile ? { decode: targeted?.decode, strict: targeted?.strict === true } : undefined) : schema
  if (overBudget > 0)
    diagnostics.push({ tool: tool.name, schema: 'input', code: 'example-too-large', severity: 'warning', path: '', message: `${overBudget} variant${overBudget === 1 ? '' : 's'} of the input got no example: the simplest value each takes is over ${EXAMPLE_BOUNDS.bytes} bytes (or ${EXAMPLE_BOUNDS.visits} schemas to visit)` })
  return carried
}

/** A profile with rules run before its own (a `portable` one when there is none). */
function withRules(profile: TargetProfile | undefined, rules: TargetRule[]): TargetProfile {
  return profile ? { ...profile, rules: [...rules, ...profile.rules] } : { name: 'portable', rules }
}

/**
 * A tool compiled in its base profile (`options.profile`, default `portable`) and in each of
 * `profiles` besides it, base first: what a build precomputes and a proxy serves, as
 * `toPrecomputed(base, others)` of the runtime takes them.
 */
export function compileInProfiles(tool: ToolDefinition, profiles: readonly (ProfileName | TargetProfile)[], options: CompileOptions = {}): [CompiledTool, ...CompiledTool[]] {
  const nameOf = (profile: ProfileName | TargetProfile): string => typeof profile === 'string' ? profile : profile.name
  const base = nameOf(options.profile ?? 'portable')
  const others = profiles.filter((profile, i) => nameOf(profile) !== base && profiles.findIndex(other => nameOf(other) === nameOf(profile)) === i)
  return [compileTool(tool, options), ...others.map(profile => compileTool(tool, { ...options, profile }))]
}
