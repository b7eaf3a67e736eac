// The one checked reader of `*.mcp.json` files, for the runtime (`registerArtifact`), the proxy and the
// fetch handler (snapshots), the probe and the command: anything off is an `ArtifactError` naming the
// field, before anything is served from the file. What serving needs is always checked; `provenance`
// also asks for what says where a module's artifact came from (the probe re-derives it from that).
import type { ModuleArtifact, PrecomputedTool, ProxiedTool, RuntimeData, Snapshot, SchemaHashes, ToolOrigin, UpstreamRecord } from './format'
import type { ToolDiagnostic } from '@flatmcp/core'
import { hasOwn, isObject } from '../util/object'
import { malformedSchema, malformedTool } from './tool-shape'

/** An artifact that is not one: the message names the field (the top level: "not a flatmcp artifact: …"; an entry: `tool "x": …`). */
export class ArtifactError extends TypeError {
  constructor(message: string) {
    super(message)
    this.name = 'ArtifactError'
  }
}

export type ArtifactContents =
  | { kind: 'module', artifact: ModuleArtifact, tools: PrecomputedTool[] }
  | { kind: 'snapshot', snapshot: Snapshot, tools: ProxiedTool[] }

export interface ReadArtifactOptions {
  /** Also check what a module's artifact says of where it came from (`generator`, `module`, `hash`, `options`). Default: false. */
  provenance?: boolean
}

/** Whether an artifact is a snapshot (its source is an upstream server) rather than a module's artifact. */
export function isSnapshot(value: unknown): boolean {
  return isObject(value) && isObject(value.upstream) && !('module' in value)
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(item => typeof item === 'string')

/**
 * A parsed artifact (or its text), checked: a module's artifact or a snapshot, with each tool's data as
 * the runtime serves it. Throws an `ArtifactError` naming what is wrong.
 */
export function readArtifact(value: unknown, options: ReadArtifactOptions = {}): ArtifactContents {
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    }
    catch (error) {
      throw new ArtifactError(`not valid JSON (${(error as Error).message})`)
    }
  }
  if (isSnapshot(value))
    return readSnapshotArtifact(value)
  if (options.provenance)
    checkProvenance(value)
  return readModuleArtifact(value)
}

function topLevel(what: 'artifact' | 'snapshot', rules: readonly [boolean, string][]): void {
  const broken = rules.find(([holds]) => !holds)
  if (broken)
    throw new ArtifactError(`not a flatmcp ${what}: ${broken[1]}`)
}

/** `tool "name"`, or `tools[3]` for an entry without a name. */
function named(tool: unknown, index: number): string {
  return isObject(tool) && typeof tool.name === 'string' ? `tool "${tool.name}"` : `tools[${index}]`
}

/** Each listed tool and its `runtime` entry, checked as the runtime will serve them: its MCP shape, its plans, every profile's schema. */
function entries(tools: unknown[], runtime: Record<string, unknown>): { tool: PrecomputedTool['tool'], entry: Record<string, unknown> }[] {
  return tools.map((tool, index) => {
    const name = named(tool, index)
    const wrong = malformedTool(tool)
    if (wrong !== undefined)
      throw new ArtifactError(`${name}: ${wrong}`)
    const listed = tool as PrecomputedTool['tool']
    const entry = hasOwn(runtime, listed.name) ? runtime[listed.name] : undefined
    if (!isObject(entry) || !isObject(entry.coercion))
      throw new ArtifactError(`${name} has no "runtime" entry with a "coercion" plan`)
    if (entry.profiles !== undefined && !isObject(entry.profiles))
      throw new ArtifactError(`${name}: its runtime "profiles" is not an object`)
    for (const [profile, form] of Object.entries(entry.profiles ?? {}) as [string, unknown][]) {
      const where = `${name}, profile "${profile}"`
      const schema = isObject(form) ? malformedSchema(form.inputSchema, 'inputSchema') : 'it is not an object'
      if (schema !== undefined)
        throw new ArtifactError(`${where}: ${schema}`)
      const plans = form as Record<string, unknown>
      if (!isObject(plans.coercion) || (plans.decode !== undefined && !isObject(plans.decode)))
        throw new ArtifactError(`${where}: its "coercion" (and "decode", where there is one) is not a plan`)
    }
    return { tool: listed, entry }
  })
}

/** A tool's precomputed data from its listing and `runtime` entry (the fields the runtime reads). */
function precomputed(tool: PrecomputedTool['tool'], entry: Record<string, unknown>): PrecomputedTool {
  const data = entry as unknown as RuntimeData
  return {
    tool,
    coercion: data.coercion,
    ...(typeof data.discriminator === 'string' ? { discriminator: data.discriminator } : {}),
    ...(data.slices === undefined ? {} : { slices: data.slices }),
    ...(data.profiles === undefined ? {} : { profiles: data.profiles }),
    ...(data.outputWrap === undefined ? {} : { outputWrap: data.outputWrap }),
  }
}

/**
 * What says where a module's artifact came from, checked (`generator`, `module`, `hash`, `options`):
 * what the probe needs to re-derive it. A server needs none of it.
 */
export function checkProvenance(value: unknown): void {
  const a = isObject(value) ? value : {}
  const o = isObject(a.options) ? a.options : undefined
  topLevel('artifact', [
    [isObject(value), 'the top level is not an object'],
    [typeof a.generator === 'string', '"generator" is missing'],
    [typeof a.module === 'string', '"module" is missing'],
    [typeof a.hash === 'string', '"hash" is missing'],
    [typeof o?.profile === 'string', '"options.profile" is missing'],
    [o?.profiles === undefined || isStringList(o.profiles), `"options.profiles" is ${JSON.stringify(o?.profiles)}, not a list of profile names`],
    [typeof o?.coercion === 'boolean', '"options.coercion" is missing'],
    [o?.extend === null || (isObject(o?.extend) && (typeof o.extend.module === 'string' || 'schema' in o.extend)), '"options.extend" is missing (null, or { module, export } or { schema })'],
  ])
}

/** A module's artifact (parsed), checked as a server serves it: its tools, plans and every profile's schema. */
export function readModuleArtifact(value: unknown): Extract<ArtifactContents, { kind: 'module' }> {
  const a = isObject(value) ? value : {}
  topLevel('artifact', [
    [isObject(value), 'the top level is not an object'],
    [Array.isArray(a.tools) && isObject(a.runtime), 'it needs "tools", a list, and "runtime", an object, as flatmcp build writes them'],
  ])
  const flat = a.flat
  const badFlat = Array.isArray(flat) ? flat.findIndex(entry => !isObject(entry) || typeof entry.export !== 'string' || typeof entry.name !== 'string' || typeof entry.profile !== 'string' || malformedSchema(entry.inputSchema, 'inputSchema') !== undefined) : flat === undefined ? -1 : 0
  if (badFlat !== -1)
    throw new ArtifactError(`not a flatmcp artifact: flat[${badFlat}] needs an export, a name, a profile and an object inputSchema`)
  const tools = entries(a.tools as unknown[], a.runtime as Record<string, unknown>).map(({ tool, entry }) => precomputed(tool, entry))
  return { kind: 'module', artifact: value as unknown as ModuleArtifact, tools }
}

/** A tool's recorded origin, checked: a server's name, the tool's own, and replicas' names where it has them. */
function originOf(name: string, origin: unknown): ToolOrigin {
  if (!isObject(origin) || typeof origin.server !== 'string' || typeof origin.name !== 'string' || (origin.replicas !== undefined && !isStringList(origin.replicas)))
    throw new ArtifactError(`runtime[${JSON.stringify(name)}].origin needs the server's name and the tool's own name (and, for folded replicas, their names)`)
  return origin as unknown as ToolOrigin
}

/** A snapshot (parsed), checked as a proxy serves it: its tools, plans, profiles and the upstream definitions they came from. */
export function readSnapshotArtifact(value: unknown): Extract<ArtifactContents, { kind: 'snapshot' }> {
  const s = isObject(value) ? value : {}
  const upstream = isObject(s.upstream) ? s.upstream : {}
  const o = isObject(s.options) ? s.options : undefined
  topLevel('snapshot', [
    [isObject(value), 'the top level is not an object'],
    [typeof upstream.name === 'string' && typeof upstream.version === 'string', '"upstream" needs the server\'s name and version'],
    [typeof o?.preset === 'string' && isStringList(o.profiles), '"options" needs a preset and a list of profiles'],
    [o?.strictBudget === undefined || (Number.isSafeInteger(o.strictBudget) && (o.strictBudget as number) >= 0), `"options.strictBudget" is ${JSON.stringify(o?.strictBudget)}, not a number of points`],
    [Array.isArray(s.tools) && isObject(s.runtime), 'it needs "tools", a list, and "runtime", an object'],
    [s.handshake === undefined || (isObject(s.handshake) && isObject(s.handshake.capabilities) && (s.handshake.instructions === undefined || typeof s.handshake.instructions === 'string')), '"handshake" needs the upstream\'s capabilities, an object, and its instructions, if any, a string'],
  ])
  // What the compiler said, by tool: what a proxy serving the snapshot says of its fallbacks, and writes again.
  const said = new Map<string, ToolDiagnostic[]>()
  for (const d of Array.isArray(s.diagnostics) ? s.diagnostics : []) {
    if (isObject(d) && typeof d.tool === 'string' && typeof d.code === 'string' && typeof d.message === 'string')
      said.set(d.tool, [...(said.get(d.tool) ?? []), { ...d, schema: d.schema === 'output' ? 'output' : 'input' } as ToolDiagnostic])
  }
  const tools = entries(s.tools as unknown[], s.runtime as Record<string, unknown>).map(({ tool, entry }): ProxiedTool => {
    const record = entry.upstream
    if (!isObject(record) || typeof record.digest !== 'string' || !isObject(record.tool) || record.tool.name !== tool.name || !isObject(record.tool.inputSchema))
      throw new ArtifactError(`runtime[${JSON.stringify(tool.name)}].upstream needs the digest of the upstream's definition and the definition itself`)
    return {
      name: tool.name,
      served: entry.served === 'as-is' ? 'as-is' : 'compiled',
      ...(typeof entry.reason === 'string' ? { reason: entry.reason } : {}),
      precomputed: precomputed(tool, entry),
      diagnostics: said.get(tool.name) ?? [],
      upstream: record as unknown as UpstreamRecord,
      ...(isObject(entry.schemaHash) && Object.values(entry.schemaHash).every(hash => typeof hash === 'string') ? { schemaHash: entry.schemaHash as SchemaHashes } : {}),
      ...(entry.origin === undefined ? {} : { origin: originOf(tool.name, entry.origin) }),
    }
  })
  return { kind: 'snapshot', snapshot: s as unknown as Snapshot, tools }
}
