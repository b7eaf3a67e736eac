// The one writer of `*.mcp.json` files, module artifacts and snapshots alike: keys in a fixed order,
// no timestamps, two-space JSON and a final newline, so the same input gives the same bytes in every
// bundler and on every machine.
import type { ArtifactDiagnostic, ArtifactOptions, FlatEntry, FormEntry, ModuleArtifact, PrecomputedTool, ProxiedTool, RuntimeData, Snapshot, ToolOrigin, UpstreamHandshake } from './format'
import type { PresetName, ProfileName } from '@flatmcp/core'

/** A tool's `runtime` data, in the order artifacts write it. */
export function runtimeData(precomputed: PrecomputedTool): RuntimeData {
  return {
    coercion: precomputed.coercion,
    ...(precomputed.discriminator === undefined ? {} : { discriminator: precomputed.discriminator }),
    ...(precomputed.slices === undefined ? {} : { slices: precomputed.slices }),
    ...(precomputed.profiles === undefined ? {} : { profiles: precomputed.profiles }),
    ...(precomputed.outputWrap === undefined ? {} : { outputWrap: precomputed.outputWrap }),
  }
}

/** What a module's artifact is made of. */
export interface ModuleArtifactInput {
  generator: { name: string, version: string }
  module: string
  hash: string
  files: string[]
  options: ArtifactOptions
  /** Each tool: where the module exports it, its precomputed data, its tokens (`original` and per profile). */
  tools: { export: string, precomputed: PrecomputedTool, tokens: Record<string, number> }[]
  flats: FlatEntry[]
  forms: FormEntry[]
  diagnostics: ArtifactDiagnostic[]
}

/** A module's artifact, its keys in the order the file has them. */
export function moduleArtifact(input: ModuleArtifactInput): ModuleArtifact {
  return {
    generator: `${input.generator.name}@${input.generator.version}`,
    module: input.module,
    hash: input.hash,
    files: input.files,
    options: input.options,
    tools: input.tools.map(t => t.precomputed.tool),
    runtime: Object.fromEntries(input.tools.map(t => [t.precomputed.tool.name, { export: t.export, ...runtimeData(t.precomputed) }])),
    tokens: Object.fromEntries(input.tools.map(t => [t.precomputed.tool.name, t.tokens])),
    ...(input.flats.length === 0 ? {} : { flat: input.flats }),
    ...(input.forms.length === 0 ? {} : { forms: input.forms }),
    diagnostics: input.diagnostics,
  }
}

/** What a snapshot says of where it came from. */
export interface SnapshotAbout {
  generator: string
  upstream: { name: string, version: string }
  /** What the upstream said in its handshake: recorded, so a proxy can answer before the upstream is up. */
  handshake?: UpstreamHandshake
  preset: PresetName
  profiles: readonly ProfileName[]
  /** The anthropic-strict budget the list was chosen within, where the operator gave one (`--strict-budget`). */
  strictBudget?: number
  /** The operator's overrides the list was read with, and each tool's fixed parameters. */
  overrides?: unknown
  fixed?: ReadonlyMap<string, Record<string, { value: unknown, schema: unknown }>>
  /** A gateway: where each served tool comes from (what a fetch handler in front of them routes by). */
  origins?: ReadonlyMap<string, ToolOrigin>
}

/** A copy of an origin for the snapshot: the origins a proxy keeps name the server of its later calls, and a snapshot is its caller's to edit. */
const ownOrigin = (origin: ToolOrigin): ToolOrigin => ({ ...origin, ...(origin.replicas === undefined ? {} : { replicas: [...origin.replicas] }) })

/** The snapshot of a compiled list: deterministic (the list's order, no timestamps). */
export function toSnapshot(tools: readonly ProxiedTool[], about: SnapshotAbout): Snapshot {
  return {
    generator: about.generator,
    upstream: { name: about.upstream.name, version: about.upstream.version },
    ...(about.handshake === undefined ? {} : { handshake: recordedHandshake(about.handshake) }),
    options: { profile: 'portable', profiles: about.profiles.filter(profile => profile !== 'portable'), preset: about.preset, coercion: true, extend: null, ...(about.strictBudget === undefined ? {} : { strictBudget: about.strictBudget }) },
    tools: tools.map(tool => tool.precomputed.tool),
    runtime: Object.fromEntries(tools.map(tool => [tool.name, {
      ...runtimeData(tool.precomputed),
      ...(tool.served === 'as-is' ? { served: 'as-is' as const, reason: tool.reason! } : {}),
      upstream: tool.upstream,
      ...(about.origins?.has(tool.name) ? { origin: ownOrigin(about.origins.get(tool.name)!) } : {}),
      ...(tool.schemaHash === undefined ? {} : { schemaHash: tool.schemaHash }),
    }])),
    diagnostics: tools.flatMap(tool => tool.diagnostics.map(({ tool: name, schema, code, severity, path, message }) => ({ tool: name, ...(schema === 'input' ? {} : { schema }), code, severity, path, message }))),
    ...(about.overrides === undefined ? {} : { overrides: { file: about.overrides, fixed: Object.fromEntries(about.fixed ?? []) } }),
  }
}

/** A handshake as a snapshot records it: the capabilities, and the instructions where there are some. */
function recordedHandshake(handshake: UpstreamHandshake): UpstreamHandshake {
  return { capabilities: handshake.capabilities, ...(typeof handshake.instructions === 'string' && handshake.instructions !== '' ? { instructions: handshake.instructions } : {}) }
}

/** An artifact's text, a module's or a snapshot: two-space JSON and a final newline. */
export function artifactText(artifact: ModuleArtifact | Snapshot): string {
  return `${JSON.stringify(artifact, null, 2)}\n`
}
