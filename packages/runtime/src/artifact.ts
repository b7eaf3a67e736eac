// The `*.mcp.json` format, for your own tests and tools: `readArtifact` checks a module's artifact or a
// snapshot as the runtime, the proxy and the probe read it; `contentHash` takes an artifact's hash
// again (pass it file access and a SHA-256). No MCP SDK, no compiler, no Node built-in is loaded.
export type { ArtifactDiagnostic, ArtifactOptions, CompiledUpstream, FlatEntry, FormEntry, McpTool, ModuleArtifact, ModuleRuntimeEntry, PrecomputedTool, ProfiledTool, ProxiedTool, RuntimeData, Snapshot, SnapshotRuntimeEntry, ToolOrigin, UpstreamHandshake, UpstreamRecord, UpstreamTool } from './artifact/format'
export { contentHash } from './artifact/hash'
export type { HashAccess } from './artifact/hash'
export { toPrecomputed } from './artifact/precomputed'
export { ArtifactError, checkProvenance, isSnapshot, readArtifact, readModuleArtifact, readSnapshotArtifact } from './artifact/read'
export type { ArtifactContents, ReadArtifactOptions } from './artifact/read'
export { artifactIsStale } from './artifact/stale'
export { malformedSchema, malformedTool, refusedInputRoot } from './artifact/tool-shape'
export { artifactText, moduleArtifact, runtimeData, toSnapshot } from './artifact/write'
export type { ModuleArtifactInput, SnapshotAbout } from './artifact/write'
