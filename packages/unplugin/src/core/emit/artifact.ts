import type { CompiledTool } from '@flatmcp/core'
import type { ModuleFlat, ModuleForm, ModuleTool } from '../compile/compile-module'

/** The options a module was compiled with: what the probe needs to re-derive its artifact exactly. */
export interface ArtifactOptions {
  profile: string
  /** The profiles built besides the base one (absent when none). */
  profiles?: string[]
  /** The preset JSON Schema inputs were read with, where not detected (absent: `auto`). */
  preset?: string
  coercion: boolean
  /** The shared fields: where they came from, and their JSON Schema. */
  extend: null | { module?: string, export?: string, schema: unknown }
}

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
 * what the runtime and the probe need. Keys in a fixed order, no timestamps, a final newline: the
 * same input gives the same bytes in every bundler.
 */
export function artifactText(input: ArtifactInput): string {
  const artifact = {
    generator: `${input.generator.name}@${input.generator.version}`,
    module: input.module,
    hash: input.hash,
    files: input.files,
    options: input.options,
    tools: input.tools.map(t => t.precomputed.tool),
    runtime: Object.fromEntries(input.tools.map(({ exportName, precomputed }) => [precomputed.tool.name, {
      export: exportName,
      coercion: precomputed.coercion,
      ...(precomputed.discriminator === undefined ? {} : { discriminator: precomputed.discriminator }),
      ...(precomputed.slices === undefined ? {} : { slices: precomputed.slices }),
      ...(precomputed.profiles === undefined ? {} : { profiles: precomputed.profiles }),
      ...(precomputed.outputWrap === undefined ? {} : { outputWrap: precomputed.outputWrap }),
    }])),
    // Tokens (o200k_base) of each tool's definition: the original's, and each profile's.
    tokens: Object.fromEntries(input.tools.map(({ precomputed, tokens }) => [precomputed.tool.name, { original: tokens.original, ...tokens.profiles }])),
    ...(input.flats.length === 0 ? {} : { flat: input.flats.map(({ exportName, name, profile, data }) => ({ export: exportName, name, profile, ...data })) }),
    ...(input.forms.length === 0 ? {} : { forms: input.forms.map(({ exportName, name, form }) => ({ export: exportName, name, form })) }),
    diagnostics: input.tools.flatMap(t => [t.compiled, ...t.others].flatMap(compiled => ownDiagnostics(compiled, t.compiled).map(({ tool, schema, code, severity, path, flatPath, message }) => ({ tool, ...(compiled.profile === undefined ? {} : { profile: compiled.profile }), schema, code, severity, path, ...(flatPath === undefined ? {} : { flatPath }), message })))),
  }
  return `${JSON.stringify(artifact, null, 2)}\n`
}
