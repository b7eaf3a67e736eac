// One upstream tool list compiled as a build compiles a module's tools: the JSON Schema front end, the
// preset its fingerprints name (over the whole list), every profile asked for. Pure data in and out,
// so it runs in a worker as well as in place; a tool it cannot improve is served as it came.
import type * as Compiler from '@flatmcp/core'
import type { CompiledUpstream, UpstreamTool } from '../../artifact/format'
import { toPrecomputed } from '../../artifact/precomputed'
import { listedForm } from '@flatmcp/core'
import { refusedInputRoot } from '../../artifact/tool-shape'

export type { CompiledUpstream } from '../../artifact/format'

/** What one compile of an upstream list is asked for: plain data, for it may go to a thread. */
export interface CompileRequest {
  tools: UpstreamTool[]
  /** Each tool's digest, in the same order. */
  digests: string[]
  /** The preset to read every schema with, or `auto`: told over the whole list (by its fingerprints). */
  preset: Compiler.PresetName | 'auto'
  /** The target profiles compiled besides `portable`. */
  profiles: Compiler.ProfileName[]
  /** A schema (the upstream's, or a compiled form) whose JSON text is longer is served as it came. */
  maxSchemaBytes: number
  /** Tools compiled before, by `compiledKey`: not compiled again (their result is `null`). */
  known: string[]
}

/**
 * What a compiled tool is known by: the preset it was read with, its name and its definition's
 * digest (a snapshot's entry renamed by hand, its digest kept, matches no live tool).
 */
export function compiledKey(preset: Compiler.PresetName, name: string, digest: string): string {
  return `${preset}\u0000${name}\u0000${digest}`
}

/** The preset the list is read with: the one asked for, else the one its fingerprints name (a schema too long to compile is not read). */
export function listPreset(compiler: typeof Compiler, request: Pick<CompileRequest, 'tools' | 'preset' | 'maxSchemaBytes'>): Compiler.PresetName {
  if (request.preset !== 'auto')
    return request.preset
  const schemas = request.tools.filter(tool => JSON.stringify(tool.inputSchema).length <= request.maxSchemaBytes).map(tool => tool.inputSchema as Compiler.JsonSchemaObject)
  return compiler.detectPreset(schemas).preset.name
}

/** Each tool of the request from `from` on, compiled with `preset` (`null` for one compiled before); `begin` is told first. */
export function* compileRequested(compiler: typeof Compiler, request: CompileRequest, preset: Compiler.PresetName, from = 0, begin?: (index: number) => void): Generator<{ index: number, result: CompiledUpstream | null }> {
  const known = new Set(request.known)
  for (let index = from; index < request.tools.length; index++) {
    begin?.(index)
    yield { index, result: known.has(compiledKey(preset, request.tools[index]!.name, request.digests[index]!)) ? null : compileUpstreamTool(compiler, request.tools[index]!, preset, request) }
  }
}

/**
 * The tool served as the upstream listed it, without compiling (too large or too slow for that): its
 * root read as arguments and its draft-04 forms as 2020-12 in one bounded walk (`listedForm`), no
 * flat form, no repair beyond the whole-arguments string. One that walk cannot make a schema every
 * client takes is `refused` (left out, never passed through); an output schema so is left out.
 */
export function servedAsIs(tool: UpstreamTool, reason: string): CompiledUpstream {
  const { outputSchema, inputSchema, ...rest } = tool
  const input = listedForm(inputSchema)
  const output = outputSchema === undefined ? undefined : listedForm(outputSchema)
  const served = { ...rest, inputSchema: 'schema' in input ? input.schema : inputSchema, ...(output !== undefined && 'schema' in output ? { outputSchema: output.schema } : {}) } as UpstreamTool
  const read = 'schema' in input && input.read > 0
    ? [{ tool: tool.name, schema: 'input' as const, code: 'generator-preset' as const, severity: 'info' as const, path: '', message: `${input.read} node${input.read === 1 ? '' : 's'} of its input schema written in a draft older than 2020-12 read as 2020-12` }]
    : []
  return { name: tool.name, served: 'as-is', reason, ...('refused' in input ? { refused: input.refused } : {}), precomputed: { tool: served, coercion: {} }, diagnostics: read }
}

/**
 * One tool compiled in the base profile and each of `profiles`: its input, and its output schema
 * with the output rules (a root object, no combinator, `$ref` or `$schema`; a root of another kind
 * wrapped as `{ result: … }`). The served tool is the upstream's whole definition (icons, `_meta`…)
 * with the compiler's schemas and text. An output schema the compiler cannot read is left out (a
 * client then checks no result against it), said in the tool's diagnostics.
 */
export function compileUpstreamTool(compiler: typeof Compiler, tool: UpstreamTool, preset: Compiler.PresetName, request: Pick<CompileRequest, 'profiles' | 'maxSchemaBytes'>): CompiledUpstream {
  const size = JSON.stringify(tool.inputSchema).length + (tool.outputSchema === undefined ? 0 : JSON.stringify(tool.outputSchema).length)
  if (size > request.maxSchemaBytes)
    return servedAsIs(tool, `its ${tool.outputSchema === undefined ? 'input schema is' : 'input and output schemas are'} ${kib(size)}, over the ${kib(request.maxSchemaBytes)} the proxy compiles`)
  try {
    // A client's arguments are one object: the root is read so (a root union of type-less branches, a root `if`…).
    const read = compiler.argumentsRoot(tool.inputSchema as Compiler.JsonSchemaObject)
    const definition = {
      name: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      input: read.schema,
      ...(tool.outputSchema === undefined ? {} : { output: tool.outputSchema }),
    }
    let outputLeftOut: string | undefined
    const forms = ((): ReturnType<typeof compiler.compileInProfiles> => {
      try {
        return compiler.compileInProfiles(definition, request.profiles, { preset })
      }
      catch (error) {
        if ((error as { schema?: unknown }).schema !== 'output')
          throw error
        outputLeftOut = (error as Error).message
        const { output: _output, ...inputOnly } = definition
        return compiler.compileInProfiles(inputOnly, request.profiles, { preset })
      }
    })()
    const [base, ...others] = forms
    for (const form of forms) {
      // Never a form a client refuses (one the compiler reported and kept, as a root that takes no object).
      const refused = refusedInputRoot(form.inputSchema)
      if (refused !== undefined)
        return servedAsIs(tool, `its ${form.profile ?? 'portable'} form cannot be served: ${refused}`)
      const flat = JSON.stringify(form.inputSchema).length + JSON.stringify(form.outputSchema ?? {}).length
      if (flat > request.maxSchemaBytes)
        return servedAsIs(tool, `its ${form.profile ?? 'portable'} form is ${kib(flat)}, over the ${kib(request.maxSchemaBytes)} the proxy serves`)
    }
    const precomputed = toPrecomputed(base, others)
    // What the compiler does not make (icons, `_meta`) is the upstream's own.
    const { inputSchema: _input, outputSchema: _output, ...rest } = tool
    precomputed.tool = { ...rest, ...precomputed.tool }
    // The base profile's word, each strict profile's fallback, and an output schema left out.
    const diagnostics = [
      ...read.readings.map(reading => ({ tool: tool.name, schema: 'input' as const, code: 'generator-preset' as const, severity: 'info' as const, path: reading.path, message: reading.message })),
      ...base.diagnostics,
      ...others.flatMap(other => other.diagnostics.filter(d => d.code === 'strict-fallback')),
      ...(outputLeftOut === undefined ? [] : [{ tool: tool.name, schema: 'output' as const, code: 'output-left-out' as const, severity: 'warning' as const, path: '', message: `its output schema is not listed, so no client checks a result against it: ${outputLeftOut}` }]),
    ]
    return { name: tool.name, served: 'compiled', precomputed, diagnostics }
  }
  catch (error) {
    return servedAsIs(tool, error instanceof Error ? error.message : String(error))
  }
}

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KiB`
}
