// The checks the probe makes of what ships, each tool in each profile it ships: valid JSON Schema
// (draft-07 and 2020-12), the profile's rules, untyped leaves, the superset of the original on
// generated values, each target profile's round trip, the token budgets per tool, per module and
// per request.
import type { JsonSchema, ProfileName } from '@flatmcp/core'
import type { FreshModule, ProfiledForm } from 'unplugin-flatmcp/internal'
import type { Artifact, ListedTool } from './artifact-files'
import type { ArtifactReport, Budget, Finding, GrammarShare, Sampling } from './findings'
import { clientRuleViolations, profileViolations, resolveTarget, TARGET_NAMES } from '@flatmcp/core'
import { checkOutputs, checkRoundTrip, checkSuperset, definitionTokens, locateTool, modulePath, ParserThrew, toolParts } from 'unplugin-flatmcp/internal'
import { ajvCompile } from 'unplugin-flatmcp/internal/shared'
import { refusedInputRoot } from '@flatmcp/runtime/artifact'
import { isObject } from '../util'
import { grammarShare, strictBudgetOf } from './strict-grammar'

export function compileErrors(schema: JsonSchema): string[] {
  const errors: string[] = []
  for (const [draft, setup] of [['draft-07', 'ajv draft-07'], ['2020-12', 'ajv 2020']] as const) {
    try {
      ajvCompile(setup, schema as object)
    }
    catch (error) {
      errors.push(`${draft}: ${(error as Error).message}`)
    }
  }
  return errors
}

/** A schema the artifact recorded as JSON, usable where a schema object is expected. */
export function jsonStandardSchema(json: unknown): unknown {
  return { '~standard': { version: 1, vendor: 'json', validate: (value: unknown) => ({ value }), jsonSchema: { input: () => json, output: () => json } } }
}

export interface ToolSchemas { params?: unknown, input: unknown, output?: unknown }

/** One tool's superset finding from the shared check: a counterexample, or no value checked at all. */
export async function supersetOf(tool: ListedTool, schemas: ToolSchemas, fresh: Source, sampling: Sampling): Promise<{ checked: number, unmet: string[], finding?: Finding }> {
  const parts = toolParts(schemas, fresh.extendSchema)
  const { checked, unmet, counterexample } = await checkSuperset(tool.inputSchema, parts, { ...sampling, converters: fresh.converters, preset: fresh.preset })
  if (counterexample) {
    const validate = ajvCompile('ajv 2020', tool.inputSchema as object)
    const reasons = validate(counterexample.value) ? `rejected by ${counterexample.rejectedBy.join(', ')}` : (validate.errors ?? []).map(e => `${e.instancePath || '/'} ${e.message}`).join('; ')
    return {
      checked,
      unmet,
      finding: { check: 'superset', severity: 'error', tool: tool.name, message: `the advertised schema rejects a value the original schema accepts (${reasons}) under ${counterexample.rejectedBy.join(', ')}`, detail: `counterexample: ${JSON.stringify(counterexample.value)}` },
    }
  }
  if (checked === 0) {
    const why = unmet.length > 0 ? `the sampler could not aim for ${unmet.join(', ')}` : 'its values all missed what the original checks'
    return { checked, unmet, finding: { check: 'superset', severity: 'error', tool: tool.name, message: `none of ${sampling.samples} generated values passed the original schema (${why}), so nothing was checked; test this tool's superset yourself or raise --samples` } }
  }
  return { checked, unmet }
}

export function untypedLeaves(schema: unknown, pointer = ''): string[] {
  if (!isObject(schema))
    return []
  // A strict profile's nested `anyOf` and Anthropic's enums without `type` are typed by their branches and values.
  const typed = Array.isArray(schema.anyOf) || Array.isArray(schema.enum)
  const own = (schema.type === undefined && !typed) || (Array.isArray(schema.type) && schema.type.length >= 6) ? [pointer || '/'] : []
  const children = [
    ...Object.entries(isObject(schema.properties) ? schema.properties : {}).map(([key, child]) => untypedLeaves(child, `${pointer}/properties/${key}`)),
    // The items of an "any" leaf are the rest of its own typed shape: one leaf, listed once.
    own.length > 0 ? [] : untypedLeaves(schema.items, `${pointer}/items`),
    untypedLeaves(schema.additionalProperties, `${pointer}/additionalProperties`),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf.map((branch, i) => untypedLeaves(branch, `${pointer}/anyOf/${i}`)) : []),
  ]
  return [...own, ...children.flat()]
}

/** Where a schema says `nullable: true` (OpenAPI's null, which 2020-12 validators do not read). */
function nullablePlaces(schema: unknown, pointer = ''): string[] {
  if (!isObject(schema))
    return []
  return [
    ...(schema.nullable === true ? [pointer || '/'] : []),
    ...Object.entries(isObject(schema.properties) ? schema.properties : {}).flatMap(([key, child]) => nullablePlaces(child, `${pointer}/properties/${key}`)),
    ...nullablePlaces(schema.items, `${pointer}/items`),
  ]
}

/** Each profile's tokens per tool, and the budget findings (per tool, and for the module's tools together). */
function tokenBudget(artifact: Artifact, maxTokens: number | undefined, maxModuleTokens: number | undefined): { tokens: Record<string, Record<string, number>>, findings: Finding[] } {
  const tokens: Record<string, Record<string, number>> = {}
  for (const tool of artifact.tools) {
    const forms: [string, JsonSchema][] = [[artifact.options.profile, tool.inputSchema], ...Object.entries(artifact.runtime[tool.name]?.profiles ?? {}).map(([name, data]) => [name, data.inputSchema] as [string, JsonSchema])]
    for (const [profile, inputSchema] of forms)
      (tokens[profile] ??= {})[tool.name] = definitionTokens({ name: tool.name, description: tool.description, inputSchema })
  }
  const findings: Finding[] = []
  for (const [profile, byTool] of Object.entries(tokens)) {
    for (const [tool, count] of Object.entries(byTool)) {
      if (maxTokens !== undefined && count > maxTokens)
        findings.push({ check: 'tokens', severity: 'error', tool, message: `${profile}: ${count} tokens (o200k_base), over the budget of ${maxTokens} per tool (--max-tokens)` })
    }
    const total = Object.values(byTool).reduce((sum, count) => sum + count, 0)
    if (maxModuleTokens !== undefined && total > maxModuleTokens)
      findings.push({ check: 'tokens', severity: 'error', message: `${profile}: the module's ${Object.keys(byTool).length} tools take ${total} tokens (o200k_base), over the budget of ${maxModuleTokens} per module (--max-module-tokens)` })
  }
  return { tokens, findings }
}

/** Each tool in each other profile an artifact ships, under a name that says which: `send (gemini)`. A strict tool that fell back is checked as the portable tool it is. */
export function profiledForms(artifact: Artifact): { tool: ListedTool, base: string, data: NonNullable<Artifact['runtime'][string]['profiles']>[string], profile: ProfileName }[] {
  return artifact.tools.flatMap(tool => Object.entries(artifact.runtime[tool.name]!.profiles ?? {}).map(([name, data]) => ({
    tool: { name: `${tool.name} (${name})`, inputSchema: data.inputSchema } as ListedTool,
    base: tool.name,
    data,
    profile: (data.strict === false ? 'portable' : name) as ProfileName,
  })))
}

/**
 * What every schema an artifact ships must be, in every profile: valid JSON Schema (draft-07 and
 * 2020-12), within its profile's rules, typed (untyped leaves listed), read alike by the validators
 * clients run. Says which did not compile: those are left out of the superset check.
 */
export function shapeChecks(artifact: Artifact, flats: { tool: ListedTool, profile: ProfileName }[], add: (finding: Finding) => void): { profiled: ReturnType<typeof profiledForms>, uncompiled: Set<string> } {
  const profiled = profiledForms(artifact)
  const uncompiled = new Set<string>()
  for (const tool of [...artifact.tools, ...flats.map(f => f.tool), ...profiled.map(p => p.tool)]) {
    for (const error of [...compileErrors(tool.inputSchema), ...(tool.outputSchema ? compileErrors(tool.outputSchema) : [])]) {
      add({ check: 'json-schema', severity: 'error', tool: tool.name, message: `does not compile as JSON Schema ${error}` })
      uncompiled.add(tool.name)
    }
    const profile = flats.find(f => f.tool === tool)?.profile ?? profiled.find(p => p.tool === tool)?.profile ?? artifact.options.profile
    for (const violation of profileViolations(tool.inputSchema, profile))
      add({ check: 'profile', severity: 'error', tool: tool.name, message: `breaks the ${profile} profile at ${violation}` })
    for (const leaf of untypedLeaves(tool.inputSchema))
      add({ check: 'untyped', severity: 'warning', tool: tool.name, message: `untyped leaf at ${leaf} (any JSON value)` })
    // Claude Code drops a whole server for one tool without an object root (issue 67); what is wrong
    // below the root (a null `required`, a boolean bound) the profile check names.
    const root = refusedInputRoot(tool.inputSchema)
    if (root !== undefined)
      add({ check: 'clients', severity: 'error', tool: tool.name, message: `no client may take its input schema at /: ${root} (Claude Code drops the whole server; docs/clients.md)` })
    for (const broken of clientRuleViolations(tool.name.replace(/ \(.*\)$/, ''), tool.inputSchema))
      add({ check: 'clients', severity: 'warning', tool: tool.name, message: `${broken.client} refuses it: ${broken.message} (docs/clients.md)` })
    const target = resolveTarget(profile).profile
    const nullable = target?.nullable === 'openapi' ? nullablePlaces(tool.inputSchema) : []
    if (nullable.length > 0)
      add({ check: 'profile', severity: 'warning', tool: tool.name, message: `${profile}: null is OpenAPI's "nullable" at ${nullable.join(', ')}, which @cfworker/json-schema (LangChain's MCP adapters) does not read: it refuses a null there. Serve ${profile} only behind ${target!.vendor}'s own routes; give such clients portable` })
  }
  return { profiled, uncompiled }
}

/** What the superset and round-trip checks need of where a tool came from. */
export type Source = Pick<FreshModule, 'converters' | 'extendSchema' | 'preset'>

/** Where a module's tool is declared: its file (absolute), the project root, its export. */
export interface ToolSource { file: string, root: string, exportName: string }

/** `src/odd.tools.ts:7:22, export "boom"`: the tool's input where the source shows it, else its module. */
async function placeOf({ file, root, exportName }: ToolSource): Promise<string> {
  const found = await locateTool(file, exportName, 'input')
  return `${modulePath(root, file)}${found ? `:${found.line}:${found.column}` : ''}, export "${exportName}"`
}

/**
 * The superset invariant on the schema that ships (values the original accepts must pass it), and
 * for each target profile it ships, the model's form of such values read back to the same output.
 */
export async function soundness(tool: ListedTool, definition: ToolSchemas, source: Source, forms: ReturnType<typeof profiledForms>, sampling: Sampling, report: ArtifactReport, outputWrap?: string, place?: ToolSource): Promise<void> {
  sampling.onTool?.(tool.name)
  try {
    await checkedSoundness(tool, definition, source, forms, sampling, report, outputWrap)
  }
  catch (error) {
    if (!(error instanceof ParserThrew))
      throw error
    // The author's code, not flatmcp's: a finding for this tool at its place, and the probe goes on with the others.
    const at = place ? ` (${await placeOf(place)})` : report.module === undefined ? '' : ` (${report.module})`
    report.findings.push({ check: 'superset', severity: 'error', tool: tool.name, message: `${error.message}${at}; the server answers such a call with an error rather than the schema's issues. Make the check return false (or add an issue) instead of throwing`, detail: `the value: ${JSON.stringify(error.value)?.slice(0, 500)}` })
  }
}

async function checkedSoundness(tool: ListedTool, definition: ToolSchemas, source: Source, forms: ReturnType<typeof profiledForms>, sampling: Sampling, report: ArtifactReport, outputWrap?: string): Promise<void> {
  const { checked, unmet, finding } = await supersetOf(tool, definition, source, sampling)
  report.samplesChecked += checked
  report.sampled.push({ tool: tool.name, checked, unmet })
  if (finding)
    report.findings.push(finding)
  // Every output the original accepts, as the server sends it, passes the advertised output schema.
  if (definition.output !== undefined && tool.outputSchema !== undefined) {
    const outputs = await checkOutputs(tool.outputSchema, definition.output, outputWrap, { ...sampling, converters: source.converters, preset: source.preset })
    report.samplesChecked += outputs.checked
    report.sampled.push({ tool: `${tool.name} (output)`, checked: outputs.checked, unmet: outputs.unmet, output: true })
    if (outputs.counterexample)
      report.findings.push({ check: 'superset', severity: 'error', tool: `${tool.name} (output)`, message: `the advertised output schema rejects an output the original accepts, as the server sends it (under ${outputs.counterexample.rejectedBy.join(', ')})`, detail: `counterexample: ${JSON.stringify(outputs.counterexample.value)}` })
  }
  // Each target profile it ships (one that fell back is the portable tool, checked above).
  for (const entry of forms.filter(p => p.profile !== 'portable')) {
    const result = await checkRoundTrip(entry.data as ProfiledForm, entry.profile, toolParts(definition, source.extendSchema), { ...sampling, converters: source.converters, preset: source.preset })
    report.roundTrips.push({ tool: entry.tool.name, profile: entry.profile, checked: result.checked })
    const example = result.counterexample
    if (example) {
      const detail = [`value: ${JSON.stringify(example.value)}`, `the model writes: ${JSON.stringify(example.written)}`, ...(example.back === undefined ? [] : [`read back: ${JSON.stringify(example.back)}`])].join('\n')
      report.findings.push({ check: 'round-trip', severity: 'error', tool: entry.tool.name, message: example.reason, detail })
    }
  }
}

/** An artifact's report, begun with its token counts and what goes over the budgets. */
export function startReport(file: string, artifact: Artifact, budget: Budget): { report: ArtifactReport, add: (finding: Finding) => void } {
  const report: ArtifactReport = { file, module: artifact.module, tools: artifact.tools.map(t => t.name), samplesChecked: 0, sampled: [], roundTrips: [], findings: [] }
  const add = (finding: Finding): void => {
    report.findings.push(finding)
  }
  const { tokens, findings: overBudget } = tokenBudget(artifact, budget.maxTokens, budget.maxModuleTokens)
  report.tokens = tokens
  overBudget.forEach(add)
  return { report, add }
}

/**
 * A target that takes a budget per request (Anthropic: few strict parameters, across every strict
 * tool): the artifacts probed together are one server's tools. Over a limit is a warning naming it
 * (serve fewer tools that way), and so is Anthropic's combined strict grammar past the strict budget.
 * One report for what the artifacts hold together, where any is over, and what their strict tools spend of the grammar.
 */
export function requestBudgets(read: Artifact[], strictBudget?: number): { report?: ArtifactReport, strictGrammar?: GrammarShare } {
  const tools = new Set<string>()
  const findings: Finding[] = []
  const grammar = grammarShare(read, strictBudgetOf(read, strictBudget))
  if (grammar.finding) {
    findings.push(grammar.finding)
    grammar.share!.tools.forEach(tool => tools.add(tool.name))
  }
  for (const name of TARGET_NAMES) {
    const target = resolveTarget(name).profile!
    const budget = target.requestBudget
    if (!budget)
      continue
    const strict = read.flatMap(artifact => artifact.tools.flatMap((tool) => {
      const data = artifact.runtime[tool.name]!.profiles?.[name]
      return data && data.strict !== false ? [{ name: tool.name, cost: budget.cost(data.inputSchema) }] : []
    }))
    const over = Object.keys(budget.limits).map(limit => ({ limit, total: strict.reduce((sum, tool) => sum + (tool.cost[limit] ?? 0), 0) })).filter(({ limit, total }) => total > budget.limits[limit]!)
    if (over.length > 0)
      strict.forEach(tool => tools.add(tool.name))
    for (const { limit, total } of over)
      findings.push({ check: 'profile', severity: 'warning', message: `${name}: ${limit === 'tools' ? `these artifacts hold ${total} strict tools` : `the ${strict.length} strict tools these artifacts hold have ${total} ${budget.words[limit]}`}; ${target.vendor} takes ${budget.limits[limit]} per request, so a client sending them all as strict fails. Serve fewer tools to ${target.vendor}, or leave some out of the profile.` })
  }
  return {
    ...(findings.length === 0 ? {} : { report: { file: '', tools: [...tools], samplesChecked: 0, sampled: [], roundTrips: [], findings } }),
    ...(grammar.share ? { strictGrammar: grammar.share } : {}),
  }
}
