// The `*.mcp.json` format, one home for it: what a module's artifact and an upstream's snapshot hold.
// `tools` are MCP `Tool` objects exactly as `tools/list` returns them; `runtime` holds, per tool, what
// `tools/call` needs; the rest says what made the file and from what, for the probe.
import type { CoercionPlan, ElicitationForm, ProfileName, PresetName, ToolDiagnostic } from '@flatmcp/core'

/** A tool as `tools/list` returns it. */
export interface McpTool {
  name: string
  title?: string
  description?: string
  inputSchema: { type: 'object', [key: string]: unknown }
  outputSchema?: { type: 'object', [key: string]: unknown }
  annotations?: Record<string, unknown>
  _meta?: Record<string, unknown>
}

/** A tool in one target profile: its advertised input and the inverse map back to the original's. */
export interface ProfiledTool {
  inputSchema: McpTool['inputSchema']
  coercion: CoercionPlan
  /** Places advertised as JSON text, parsed back before `coercion`. */
  decode?: CoercionPlan
  /** For a strict profile: false when the tool could not meet it (its schema is then the base one). */
  strict?: boolean
}

/** What the build precomputes for a tool: its MCP description and what `tools/call` needs. */
export interface PrecomputedTool {
  tool: McpTool
  coercion: CoercionPlan
  discriminator?: string
  slices?: { params?: string[], extend?: string[] }
  /** The tool in the other profiles the build asked for, by profile name (the base is `tool`). */
  profiles?: Record<string, ProfiledTool>
  /** A non-object output goes as `structuredContent: { result: … }`, as its `outputSchema` says. */
  outputWrap?: 'result'
}

/** What `tools/call` needs of a tool, as a `runtime` entry holds it (a `PrecomputedTool` less its `tool`). */
export type RuntimeData = Omit<PrecomputedTool, 'tool'>

/** The options a module was compiled with: what the probe needs to re-derive its artifact exactly. */
export interface ArtifactOptions {
  profile: string
  /** The profiles built besides the base one (absent when none). */
  profiles?: string[]
  /** The preset JSON Schema inputs were read with, where not detected (absent: `auto`). */
  preset?: string
  coercion: boolean
  /** Built without examples per variant (absent: with them). */
  examples?: false
  /** The shared fields: where they came from, and their JSON Schema. */
  extend: null | { module?: string, export?: string, schema: unknown }
}

/** A tool's `runtime` entry in a module's artifact: where the module exports it, and its data. */
export type ModuleRuntimeEntry = { export: string } & RuntimeData

/** A `flat()` schema a module exports, as its artifact lists it. */
export interface FlatEntry {
  export: string
  name: string
  profile: ProfileName
  inputSchema: Record<string, unknown>
  coercion: CoercionPlan
  decode?: CoercionPlan
  discriminator?: string
  outputSchema?: Record<string, unknown>
}

/** An `elicitForm()` schema a module exports, as its forms. */
export interface FormEntry {
  export: string
  name: string
  form: ElicitationForm
}

/** What the compiler said of a tool, as an artifact records it. */
export type ArtifactDiagnostic = Pick<ToolDiagnostic, 'tool' | 'schema' | 'code' | 'severity' | 'path' | 'flatPath' | 'message'> & { profile?: string }

/** A module's artifact, as the plugin and `flatmcp build` write it. */
export interface ModuleArtifact {
  /** `name@version` of what wrote it. */
  generator: string
  /** The tool module, relative to the project root, with `/` separators. */
  module: string
  /** `sha256:` and a content hash of the module and every project file it imports (`contentHash`). */
  hash: string
  /** The files `hash` covers, in its order, relative to the root. */
  files: string[]
  options: ArtifactOptions
  tools: McpTool[]
  runtime: Record<string, ModuleRuntimeEntry>
  /** o200k_base tokens of each tool's definition: the original's, and each profile's. */
  tokens: Record<string, Record<string, number>>
  flat?: FlatEntry[]
  forms?: FormEntry[]
  diagnostics: ArtifactDiagnostic[]
}

/** What a snapshot keeps of the upstream definition a tool was compiled from. */
export interface UpstreamRecord {
  /** `sha256:` and the hex SHA-256 of the definition's canonical JSON (`digestOf`). */
  digest: string
  /** The upstream's own definition: its input schema picks the reading of a call, and the probe re-derives the snapshot from it. */
  tool: UpstreamTool
}

/** A tool as an upstream lists it: an MCP `Tool`, with whatever fields the upstream's protocol adds. */
export interface UpstreamTool extends McpTool {
  [field: string]: unknown
}

/** A tool's `runtime` entry in a snapshot: its data, whether it is served as it came, its upstream definition, and (a gateway) which member it is. */
export type SnapshotRuntimeEntry = RuntimeData & { served?: 'as-is', reason?: string, upstream: UpstreamRecord, origin?: ToolOrigin, schemaHash?: SchemaHashes }

/**
 * Where a tool of many servers served as one (`--config`) comes from: its server's entry name and the
 * tool's own name there; for replicas folded into one, the group's name and each replica's entry,
 * the one `target` names taking the call.
 */
export interface ToolOrigin {
  server: string
  name: string
  replicas?: string[]
}

/** A tool's `schemaHash` in each profile it is listed in (the base is `portable`): the lowercase hex SHA-256 of its canonical JSON as listed. */
export type SchemaHashes = Record<string, string>

/** What an upstream says of itself in its handshake, besides its name and version. */
export interface UpstreamHandshake {
  capabilities: Record<string, unknown>
  instructions?: string
}

/** A snapshot as `flatmcp snapshot` writes it: an artifact whose source is a server, not a module. */
export interface Snapshot {
  generator: string
  /** The upstream server, as it named itself. */
  upstream: { name: string, version: string }
  /**
   * What the upstream said in its handshake besides its name: a proxy given the snapshot answers a
   * client's `initialize` and first `tools/list` from it while the upstream is still starting.
   */
  handshake?: UpstreamHandshake
  /** How it was compiled; `strictBudget` where the operator gave one (`--strict-budget`), so the list re-derives alike. */
  options: { profile: 'portable', profiles: ProfileName[], preset: PresetName, coercion: true, extend: null, strictBudget?: number }
  tools: McpTool[]
  runtime: Record<string, SnapshotRuntimeEntry>
  /** What the compiler said of each tool (`schema` where it is not the input: `output`), strict fallbacks in every profile among it. */
  diagnostics: { tool: string, schema?: string, code: string, severity: string, path: string, message: string }[]
  /**
   * The operator's overrides the tools were read with (`flatmcp snapshot --overrides`): `file` as
   * given, and each fixed parameter's value with the upstream's schema of its key (the probe checks
   * one against the other; the fetch handler sets the values on every call).
   */
  overrides?: { file: unknown, fixed: Record<string, Record<string, { value: unknown, schema: unknown }>> }
}

/** One tool of an upstream's list, compiled (or why not): what the proxy serves and a snapshot holds. */
export interface CompiledUpstream {
  name: string
  served: 'compiled' | 'as-is'
  /** Why the tool is served as it came. */
  reason?: string
  /** Why no client can be served it as it came either (it is then left out): not kept in a snapshot, which holds no such tool. */
  refused?: string
  precomputed: PrecomputedTool
  diagnostics: ToolDiagnostic[]
}

/** One tool of a snapshot, as the proxy serves it. */
export interface ProxiedTool extends CompiledUpstream {
  upstream: UpstreamRecord
  /** The tool's `schemaHash` as each profile lists it (tools/catalog gives it; a snapshot records it). */
  schemaHash?: SchemaHashes
  /** Where it comes from, where many servers are served as one. */
  origin?: ToolOrigin
}
