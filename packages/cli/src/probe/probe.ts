import type { JsonSchema, PresetName, ProfileName } from '@flatmcp/core'
import type { FreshModule } from 'unplugin-flatmcp/internal'
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { PRESET_NAMES, PROFILE_NAMES, profileViolations, resolveTarget, TARGET_NAMES } from '@flatmcp/core'
import type { ArtifactContents, ArtifactOptions, ModuleArtifact } from '@flatmcp/runtime/artifact'
import type { UpstreamTarget } from '@flatmcp/runtime/proxy'
import { isSnapshot, readArtifact } from '@flatmcp/runtime/artifact'
import { compileUpstreamList, connectUpstream, driftOf, readSnapshot, readUpstream, readUpstreamList, snapshotText, toSnapshot } from '@flatmcp/runtime/proxy'
import { Ajv } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { glob } from 'tinyglobby'
import type { ProfiledForm } from 'unplugin-flatmcp/internal'
import { checkOutputs, checkRoundTrip, checkSuperset, createModuleCompiler, defaultArtifactName, definitionTokens, describeFailure, loadTokenizer, modulePath, resolveOptions, toolParts } from 'unplugin-flatmcp/internal'
import { isObject } from '../util'
import { lineDiff } from './diff'
import { snapshotGenerator } from '../version'

export type Check = 'well-formed' | 'json-schema' | 'profile' | 'current' | 'superset' | 'round-trip' | 'untyped' | 'tokens'

export interface Finding {
  check: Check
  /** `error` fails the probe; `warning` is listed only. */
  severity: 'error' | 'warning'
  tool?: string
  message: string
  /** A diff (drift) or a minimised counterexample. */
  detail?: string
}

export interface ArtifactReport {
  file: string
  module?: string
  tools: string[]
  /** Values checked against the advertised schemas. */
  samplesChecked: number
  /** Per tool (and flat() schema): values checked, and what the sampler could not aim for. */
  sampled: { tool: string, checked: number, unmet: string[] }[]
  /** Per tool in each target profile it ships (`send (gemini)`): values written as its model would and read back. */
  roundTrips: { tool: string, checked: number }[]
  /** Per profile the artifact ships: o200k_base tokens of each tool's definition as advertised. */
  tokens?: Record<string, Record<string, number>>
  findings: Finding[]
}

export interface ProbeReport {
  ok: boolean
  seed: number
  samples: number
  /** The token budgets the probe held the tools to (none given: the tokens check was skipped). */
  budgets: { maxTokens?: number, maxModuleTokens?: number }
  artifacts: ArtifactReport[]
}

export interface ProbeOptions {
  /** Artifact files or folders to search for `*.mcp.json` (node_modules skipped). Default: the root. */
  paths?: string[]
  /** The project root the artifacts' module paths are relative to. Default: `process.cwd()`. */
  root?: string
  /** Tool modules that must each have an artifact among those probed. */
  sources?: string[]
  /** Values generated per tool for the superset check. Default: 200. */
  samples?: number
  /** Seed of the value generator. Default: 1. */
  seed?: number
  /** Called before each artifact is probed. */
  onProgress?: (done: number, total: number, file: string) => void
  /** A tool whose definition, in any profile it ships, takes more o200k_base tokens fails the probe. */
  maxTokens?: number
  /** A module whose tools together, in any profile they ship, take more tokens fails the probe. */
  maxModuleTokens?: number
  /** The live upstream of the snapshots probed: each must hold exactly the definitions it lists now. */
  upstream?: UpstreamTarget
  /** How long sampling one tool may take, in milliseconds (each check: the superset, each round trip). Default: 30,000. */
  timeBudgetMs?: number
}

/** How values are drawn: how many per tool, from which seed, within how long. */
interface Sampling { samples: number, seed: number, timeBudgetMs?: number }

/** An artifact or a source cannot be read at all: the probe stops (exit code 2). */
export class ProbeLoadError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProbeLoadError'
  }
}

/** A module's artifact as the probe reads it, its profiles checked built-in (a snapshot is read as one whose source is its upstream). */
type Artifact = Omit<ModuleArtifact, 'options'> & {
  options: Omit<ArtifactOptions, 'profile' | 'profiles' | 'preset'> & { profile: 'portable' | 'minimal', profiles?: ProfileName[], preset?: PresetName }
}

/** A tool as an artifact lists it, its schemas as JSON Schema. */
type ListedTool = { name: string, description?: string, inputSchema: JsonSchema, outputSchema?: JsonSchema }


/** What the probe re-derives: built-in profiles only (a profile of one's own is checked by one's own tests). */
function unknownProfiles(artifact: ModuleArtifact): string | undefined {
  const known = PROFILE_NAMES as string[]
  const ownOnly = 'the probe re-derives built-in profiles only, and a profile of your own is checked by your tests'
  if (!known.includes(artifact.options.profile))
    return `not a flatmcp artifact: "options.profile" is ${JSON.stringify(artifact.options.profile)}, not one of ${PROFILE_NAMES.join(', ')}`
  if (artifact.options.profiles !== undefined && !artifact.options.profiles.every(name => known.includes(name)))
    return `not a flatmcp artifact: "options.profiles" is ${JSON.stringify(artifact.options.profiles)}: ${ownOnly}`
  const flat = (artifact.flat ?? []).findIndex(entry => !known.includes(entry.profile))
  if (flat !== -1)
    return `not a flatmcp artifact: flat[${flat}] is in profile ${JSON.stringify(artifact.flat![flat]!.profile)}, not one of ${PROFILE_NAMES.join(', ')}`
  for (const [tool, entry] of Object.entries(artifact.runtime)) {
    const unknown = Object.keys(entry.profiles ?? {}).find(name => !known.includes(name))
    if (unknown !== undefined)
      return `runtime["${tool}"].profiles has "${unknown}", which is not a built-in profile (${PROFILE_NAMES.join(', ')}); ${ownOnly}`
  }
  return undefined
}

/** Reads and checks an artifact's shape (the runtime's reader, provenance too); anything off is a load error naming the file and the field. */
function readModuleArtifact(file: string): { text: string, artifact: Artifact } {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  }
  catch (error) {
    throw new ProbeLoadError(`${file}: cannot read it (${(error as Error).message})`)
  }
  let read: ArtifactContents
  try {
    read = readArtifact(text, { provenance: true })
  }
  catch (error) {
    throw new ProbeLoadError(`${file}: ${(error as Error).message}`)
  }
  const artifact = (read as Extract<ArtifactContents, { kind: 'module' }>).artifact
  const unknown = unknownProfiles(artifact)
  if (unknown !== undefined)
    throw new ProbeLoadError(`${file}: ${unknown}`)
  return { text, artifact: artifact as Artifact }
}

async function findArtifacts(paths: string[], root: string): Promise<string[]> {
  const files: string[] = []
  for (const given of paths) {
    const absolute = path.resolve(root, given)
    if (!existsSync(absolute))
      throw new ProbeLoadError(`${given}: no such file or folder`)
    if (statSync(absolute).isDirectory())
      files.push(...(await glob('**/*.mcp.json', { cwd: absolute, absolute: true, ignore: ['**/node_modules/**'] })).sort())
    else
      files.push(absolute)
  }
  return [...new Set(files)]
}

const ajv7 = new Ajv({ strict: false, allowUnionTypes: true, validateFormats: false })
const ajv2020 = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false })

function compileErrors(schema: JsonSchema): string[] {
  const errors: string[] = []
  for (const [draft, ajv] of [['draft-07', ajv7], ['2020-12', ajv2020]] as const) {
    try {
      ajv.compile(schema as object)
    }
    catch (error) {
      errors.push(`${draft}: ${(error as Error).message}`)
    }
  }
  return errors
}

/** A schema the artifact recorded as JSON, usable where a schema object is expected. */
function jsonStandardSchema(json: unknown): unknown {
  return { '~standard': { version: 1, vendor: 'json', validate: (value: unknown) => ({ value }), jsonSchema: { input: () => json, output: () => json } } }
}

interface ToolSchemas { params?: unknown, input: unknown, output?: unknown }

/** One tool's superset finding from the shared check: a counterexample, or no value checked at all. */
async function supersetOf(tool: ListedTool, schemas: ToolSchemas, fresh: Source, sampling: Sampling): Promise<{ checked: number, unmet: string[], finding?: Finding }> {
  const parts = toolParts(schemas, fresh.extendSchema)
  const { checked, unmet, counterexample } = await checkSuperset(tool.inputSchema, parts, { ...sampling, converters: fresh.converters, preset: fresh.preset })
  if (counterexample) {
    const validate = ajv2020.compile(tool.inputSchema as object)
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

function untypedLeaves(schema: unknown, pointer = ''): string[] {
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
function profiledForms(artifact: Artifact): { tool: ListedTool, base: string, data: NonNullable<Artifact['runtime'][string]['profiles']>[string], profile: ProfileName }[] {
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
function shapeChecks(artifact: Artifact, flats: { tool: ListedTool, profile: ProfileName }[], add: (finding: Finding) => void): { profiled: ReturnType<typeof profiledForms>, uncompiled: Set<string> } {
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
    const target = resolveTarget(profile).profile
    const nullable = target?.nullable === 'openapi' ? nullablePlaces(tool.inputSchema) : []
    if (nullable.length > 0)
      add({ check: 'profile', severity: 'warning', tool: tool.name, message: `${profile}: null is OpenAPI's "nullable" at ${nullable.join(', ')}, which @cfworker/json-schema (LangChain's MCP adapters) does not read: it refuses a null there. Serve ${profile} only behind ${target!.vendor}'s own routes; give such clients portable` })
  }
  return { profiled, uncompiled }
}

/** What the superset and round-trip checks need of where a tool came from. */
type Source = Pick<FreshModule, 'converters' | 'extendSchema' | 'preset'>

/**
 * The superset invariant on the schema that ships (values the original accepts must pass it), and
 * for each target profile it ships, the model's form of such values read back to the same output.
 */
async function soundness(tool: ListedTool, definition: ToolSchemas, source: Source, forms: ReturnType<typeof profiledForms>, sampling: Sampling, report: ArtifactReport, outputWrap?: string): Promise<void> {
  const { checked, unmet, finding } = await supersetOf(tool, definition, source, sampling)
  report.samplesChecked += checked
  report.sampled.push({ tool: tool.name, checked, unmet })
  if (finding)
    report.findings.push(finding)
  // Every output the original accepts, as the server sends it, passes the advertised output schema.
  if (definition.output !== undefined && tool.outputSchema !== undefined) {
    const outputs = await checkOutputs(tool.outputSchema, definition.output, outputWrap, { ...sampling, converters: source.converters, preset: source.preset })
    report.samplesChecked += outputs.checked
    report.sampled.push({ tool: `${tool.name} (output)`, checked: outputs.checked, unmet: outputs.unmet })
    if (outputs.counterexample)
      report.findings.push({ check: 'superset', severity: 'error', tool: `${tool.name} (output)`, message: `the advertised output schema rejects an output the original accepts, as the server sends it (under ${outputs.counterexample.rejectedBy.join(', ')})`, detail: `counterexample: ${JSON.stringify(outputs.counterexample.value)}` })
  }
  // Each target profile it ships (one that fell back is the portable tool, checked above).
  for (const entry of forms.filter(p => p.profile !== 'portable')) {
    const result = await checkRoundTrip(entry.data as ProfiledForm, entry.profile, toolParts(definition, source.extendSchema), { ...sampling, converters: source.converters, preset: source.preset })
    report.roundTrips.push({ tool: entry.tool.name, checked: result.checked })
    const example = result.counterexample
    if (example) {
      const detail = [`value: ${JSON.stringify(example.value)}`, `the model writes: ${JSON.stringify(example.written)}`, ...(example.back === undefined ? [] : [`read back: ${JSON.stringify(example.back)}`])].join('\n')
      report.findings.push({ check: 'round-trip', severity: 'error', tool: entry.tool.name, message: example.reason, detail })
    }
  }
}

/** An artifact's report, begun with its token counts and what goes over the budgets. */
function startReport(file: string, artifact: Artifact, budget: Pick<ProbeOptions, 'maxTokens' | 'maxModuleTokens'>): { report: ArtifactReport, add: (finding: Finding) => void } {
  const report: ArtifactReport = { file, module: artifact.module, tools: artifact.tools.map(t => t.name), samplesChecked: 0, sampled: [], roundTrips: [], findings: [] }
  const add = (finding: Finding): void => {
    report.findings.push(finding)
  }
  const { tokens, findings: overBudget } = tokenBudget(artifact, budget.maxTokens, budget.maxModuleTokens)
  report.tokens = tokens
  overBudget.forEach(add)
  return { report, add }
}

/** The live upstream's tools, by name, with the digest of each definition. */
type LiveList = ReadonlyMap<string, string>

/** A file's JSON, or undefined (readArtifact says what is wrong with it). */
function safeParse(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  }
  catch {
    return undefined
  }
}

/**
 * A snapshot, probed as an artifact whose source is the upstream definitions it records: its shape in
 * every profile, current (compiled again from those definitions, and, given the live upstream, the
 * same definitions as it lists now), and sound (values those schemas accept pass what ships).
 */
async function probeSnapshot(file: string, parsed: unknown, sampling: Sampling, budget: Pick<ProbeOptions, 'maxTokens' | 'maxModuleTokens'>, live: LiveList | undefined): Promise<{ report: ArtifactReport, artifact: Artifact }> {
  let read: ReturnType<typeof readSnapshot>
  try {
    read = readSnapshot(parsed)
  }
  catch (error) {
    throw new ProbeLoadError(`${file}: ${(error as Error).message}`)
  }
  const { snapshot, tools } = read
  const unknownProfile = snapshot.options.profiles.find(name => !(PROFILE_NAMES as string[]).includes(name))
  if (unknownProfile !== undefined || !(PRESET_NAMES as string[]).includes(snapshot.options.preset))
    throw new ProbeLoadError(`${file}: not a flatmcp snapshot: options name ${unknownProfile === undefined ? `the preset "${snapshot.options.preset}"` : `the profile "${unknownProfile}"`}, which this flatmcp does not know`)
  const artifact = { ...snapshot, module: `upstream ${snapshot.upstream.name}`, hash: '' } as unknown as Artifact
  const { report, add } = startReport(file, artifact, budget)
  const { profiled, uncompiled } = shapeChecks(artifact, [], add)

  // Compiled again from the definitions it records, with the options it records.
  const text = readFileSync(file, 'utf8')
  const list = await compileUpstreamList(await readUpstreamList(tools.map(tool => tool.upstream.tool), () => {}), { preset: snapshot.options.preset, profiles: snapshot.options.profiles })
  const again = snapshotText(toSnapshot(list.tools, { generator: snapshotGenerator(), upstream: snapshot.upstream, preset: list.preset, profiles: snapshot.options.profiles }))
  const command = `flatmcp snapshot --out ${path.relative(process.cwd(), file) || file}${snapshot.options.profiles.map(name => ` --profile ${name}`).join('')}${snapshot.options.preset === 'json-schema' ? '' : ` --preset ${snapshot.options.preset}`} -- <the upstream's command>`
  if (again !== text)
    add({ check: 'current', severity: 'error', message: `the snapshot differs from what its upstream definitions compile to now (a flatmcp of another version made it); refresh it`, detail: `${lineDiff(text, again, path.basename(file), 'compiled now')}\nrefresh it: ${command}` })
  if (live) {
    const drift = driftOf(tools, live)
    const refresh = `refresh it with flatmcp snapshot --out ${path.basename(file)}`
    for (const name of drift.changed)
      add({ check: 'current', severity: 'error', tool: name, message: `the live upstream lists "${name}" with another definition than the snapshot's; ${refresh}` })
    for (const name of drift.added)
      add({ check: 'current', severity: 'error', tool: name, message: `the live upstream lists "${name}", which the snapshot does not hold; ${refresh}` })
    for (const name of drift.removed)
      add({ check: 'current', severity: 'error', tool: name, message: `the live upstream no longer lists "${name}"; ${refresh}` })
  }

  // Sound: values the upstream's schemas accept (as the recorded preset reads them) pass what ships.
  const source: Source = { converters: undefined as never, extendSchema: undefined, preset: snapshot.options.preset }
  for (const tool of artifact.tools.filter(t => !uncompiled.has(t.name))) {
    const proxied = tools.find(t => t.name === tool.name)!
    if (proxied.served === 'as-is')
      continue
    await soundness(tool, { input: proxied.upstream.tool.inputSchema }, source, profiled.filter(p => p.base === tool.name && !uncompiled.has(p.tool.name)), sampling, report)
  }
  return { report, artifact }
}

/** The `flatmcp build` command that writes this artifact again, where it is, with the options it records (`extend` and `coercion: false` are the plugin's alone). */
function buildCommand(file: string, root: string, artifact: Artifact): string {
  const where = path.relative(root, file).split(path.sep).join('/')
  const named = defaultArtifactName(artifact.module)
  const out = where.endsWith(named) ? where.slice(0, -named.length).replace(/\/$/, '') || '.' : undefined
  const profiles = [artifact.options.profile, ...(artifact.options.profiles ?? [])].filter((name, n, all) => all.indexOf(name) === n)
  const cwd = path.relative(process.cwd(), root)
  return `${cwd ? `(in ${cwd}) ` : ''}npx flatmcp build ${artifact.module}${out === undefined ? ' --out <its folder>' : out === 'dist' ? '' : ` --out ${out}`}${profiles.length > 1 || profiles[0] !== 'portable' ? ` --profile ${profiles.join(',')}` : ''}${artifact.options.preset ? ` --preset ${artifact.options.preset}` : ''}`
}

async function probeArtifact(file: string, root: string, sampling: Sampling, budget: Pick<ProbeOptions, 'maxTokens' | 'maxModuleTokens'> = {}, live?: LiveList): Promise<{ report: ArtifactReport, artifact: Artifact }> {
  const peeked = safeParse(file)
  if (isSnapshot(peeked))
    return probeSnapshot(file, peeked, sampling, budget, live)
  if (live)
    throw new ProbeLoadError(`${file}: a live upstream is checked against a snapshot (flatmcp snapshot's artifact), and this is a module's artifact`)
  const { text, artifact } = readModuleArtifact(file)
  const { report, add } = startReport(file, artifact, budget)

  // flat() schemas are checked like tools, under a name that says which export they are.
  const flats = (artifact.flat ?? []).map(entry => ({ ...entry, tool: { name: `flat() ${entry.export}`, inputSchema: entry.inputSchema } as ListedTool }))
  const { profiled, uncompiled } = shapeChecks(artifact, flats, add)

  // Re-derive the artifact from its source, with the options it records; never from outside the root.
  const source = path.resolve(root, artifact.module)
  const inside = path.relative(root, source)
  if (inside.startsWith('..') || path.isAbsolute(inside))
    throw new ProbeLoadError(`${file}: its source ${artifact.module} is outside ${root}; the probe evaluates sources under its root only (give --root)`)
  if (!existsSync(source))
    throw new ProbeLoadError(`${file}: its source ${artifact.module} does not exist under ${root} (give --root)`)
  const extend = artifact.options.extend
  const options = resolveOptions({
    root,
    profile: artifact.options.profile,
    profiles: artifact.options.profiles,
    coercion: artifact.options.coercion,
    preset: artifact.options.preset,
    failOn: 'never',
    extend: extend === null ? undefined : extend.module ? { module: extend.module, export: extend.export } : { schema: jsonStandardSchema(extend.schema) },
  })
  let fresh: FreshModule
  try {
    fresh = await createModuleCompiler(options).compileFresh(source)
  }
  catch (error) {
    throw new ProbeLoadError(await describeFailure(error, source, root))
  }
  if (fresh.result.artifact !== text) {
    add({
      check: 'current',
      severity: 'error',
      message: `the artifact differs from what ${artifact.module} compiles to now`,
      detail: `${lineDiff(text, fresh.result.artifact, path.relative(root, file), `${artifact.module} (compiled now)`)}\nrefresh it: run your build${artifact.options.extend === null && artifact.options.coercion ? `, or ${buildCommand(file, root, artifact)}` : ''}`,
    })
  }

  // The superset invariant, on the advertised schemas that ship (this file, not the fresh ones).
  for (const tool of artifact.tools.filter(t => !uncompiled.has(t.name))) {
    const exportName = artifact.runtime[tool.name]!.export
    const definition = fresh.tools.find(t => t.compiled.name === tool.name)?.definition as ToolSchemas | undefined
    if (!definition) {
      add({ check: 'current', severity: 'error', tool: tool.name, message: `${artifact.module} no longer exports tool "${tool.name}" (it was export "${exportName}")` })
      continue
    }
    await soundness(tool, definition, fresh, profiled.filter(p => p.base === tool.name && !uncompiled.has(p.tool.name)), sampling, report, artifact.runtime[tool.name]!.outputWrap)
  }
  for (const entry of flats.filter(f => !uncompiled.has(f.tool.name))) {
    const compiled = fresh.flats.find(f => f.exportName === entry.export)
    if (!compiled) {
      add({ check: 'current', severity: 'error', tool: entry.tool.name, message: `${artifact.module} no longer exports a flat() schema as "${entry.export}"` })
      continue
    }
    const { checked, unmet, finding } = await supersetOf(entry.tool, { input: compiled.schema }, { ...fresh, extendSchema: undefined }, sampling)
    report.samplesChecked += checked
    report.sampled.push({ tool: entry.tool.name, checked, unmet })
    if (finding)
      add(finding)
  }
  return { report, artifact }
}

/**
 * A target that takes a budget per request (Anthropic: few strict parameters, across every strict
 * tool): the artifacts probed together are one server's tools. Over a limit is a warning naming it
 * (serve fewer tools that way). One report for what the artifacts hold together, where any is over.
 */
function requestBudgets(read: Artifact[]): ArtifactReport | undefined {
  const tools = new Set<string>()
  const findings: Finding[] = []
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
      findings.push({ check: 'profile', severity: 'warning', message: `${name}: these artifacts hold ${total} ${budget.words[limit]} across their strict tools; ${target.vendor} takes ${budget.limits[limit]} per request, so a client sending them all as strict fails. Serve fewer tools to ${target.vendor}, or leave some out of the profile.` })
  }
  return findings.length === 0 ? undefined : { file: '', tools: [...tools], samplesChecked: 0, sampled: [], roundTrips: [], findings }
}

/** The live upstream's well-formed tools and their digests; an upstream that cannot be reached is a load error. */
async function liveList(target: UpstreamTarget): Promise<LiveList> {
  const upstream = await connectUpstream(target, { asks: false }).catch((error: Error) => {
    throw new ProbeLoadError(error.message)
  })
  try {
    const { entries } = await readUpstream(upstream.client)
    return new Map(entries.map(entry => [entry.tool.name, entry.digest]))
  }
  finally {
    await upstream.close().catch(() => {})
  }
}

/**
 * Checks what is about to ship: each artifact is well-formed, compiles as JSON Schema (draft-07 and
 * 2020-12), keeps its profile's shape, matches what its source compiles to now, and accepts values the
 * original schemas accept (seeded, so a failure reproduces). Untyped leaves are listed.
 */
export async function probe(options: ProbeOptions = {}): Promise<ProbeReport> {
  const root = path.resolve(options.root ?? process.cwd())
  const samples = options.samples ?? 200
  const seed = options.seed ?? 1
  const files = await findArtifacts(options.paths?.length ? options.paths : ['.'], root)
  if (files.length === 0)
    throw new ProbeLoadError(`no *.mcp.json artifacts under ${(options.paths ?? ['.']).join(', ')}`)
  await loadTokenizer()
  const live = options.upstream ? await liveList(options.upstream) : undefined
  const artifacts: ArtifactReport[] = []
  const read: Artifact[] = []
  for (const [n, file] of files.entries()) {
    options.onProgress?.(n, files.length, file)
    const { report, artifact } = await probeArtifact(file, root, { samples, seed, ...(options.timeBudgetMs === undefined ? {} : { timeBudgetMs: options.timeBudgetMs }) }, options, live)
    artifacts.push(report)
    read.push(artifact)
  }
  const budget = requestBudgets(read)
  if (budget)
    artifacts.push(budget)
  for (const source of options.sources ?? []) {
    const module = modulePath(root, source)
    if (!artifacts.some(a => a.module === module))
      artifacts.push({ file: '', module, tools: [], samplesChecked: 0, sampled: [], roundTrips: [], findings: [{ check: 'current', severity: 'error', message: `no artifact for ${module}` }] })
  }
  const budgets = { ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }), ...(options.maxModuleTokens === undefined ? {} : { maxModuleTokens: options.maxModuleTokens }) }
  return { ok: artifacts.every(a => a.findings.every(f => f.severity !== 'error')), seed, samples, budgets, artifacts }
}
