// A compiled module as its `*.mcp.json` artifact, through the runtime's one writer: what of the
// module's tools, `flat()` schemas and forms goes in, and which diagnostics (a profile's own only).
import type { ArtifactOptions, PrecomputedTool } from '@flatmcp/runtime/artifact'
import type { CompiledTool } from '@flatmcp/core'
import type { ModuleFlat, ModuleForm, ModuleTool } from '../compile/compile-module'
import { artifactText as writeArtifact, moduleArtifact } from '@flatmcp/runtime/artifact'

export type { ArtifactOptions } from '@flatmcp/runtime/artifact'

export interface ArtifactInput {
  generator: { name: string, version: string }
  /** The tool module, relative to the project root, with `/` separators. */
  module: string
  /** A content hash of the module and every project file it imports. */
  hash: string
  /** The files `hash` covers, in its order, relative to the root: the runtime checks them in development. */
  files: string[]
  options: ArtifactOptions
  tools: ModuleTool[]
  flats: ModuleFlat[]
  forms: ModuleForm[]
}

/** A profile's diagnostics that the base profile's do not already say (the flattening's are shared). */
function ownDiagnostics(compiled: CompiledTool, base: CompiledTool): CompiledTool['diagnostics'] {
  if (compiled === base)
    return compiled.diagnostics
  const said = new Set(base.diagnostics.map(d => `${d.code}\u0000${d.path}\u0000${d.message}`))
  return compiled.diagnostics.filter(d => !said.has(`${d.code}\u0000${d.path}\u0000${d.message}`))
}

/**
 * The `*.mcp.json` text of a module: its tools exactly as `tools/list` returns them, and beside them
 * what the runtime and the probe need. The same input gives the same bytes in every bundler.
 */
export function artifactText(input: ArtifactInput): string {
  return writeArtifact(moduleArtifact({
    generator: input.generator,
    module: input.module,
    hash: input.hash,
    files: input.files,
    options: input.options,
    tools: input.tools.map(({ exportName, precomputed, tokens }): { export: string, precomputed: PrecomputedTool, tokens: Record<string, number> } => ({ export: exportName, precomputed, tokens: { original: tokens.original, ...tokens.profiles } })),
    flats: input.flats.map(({ exportName, name, profile, data }) => ({ export: exportName, name, profile, ...data })),
    forms: input.forms.map(({ exportName, name, form }) => ({ export: exportName, name, form })),
    diagnostics: input.tools.flatMap(t => [t.compiled, ...t.others].flatMap(compiled => ownDiagnostics(compiled, t.compiled).map(({ tool, schema, code, severity, path, flatPath, message }) => ({ tool, ...(compiled.profile === undefined ? {} : { profile: compiled.profile }), schema, code, severity, path, ...(flatPath === undefined ? {} : { flatPath }), message })))),
  }))
}
