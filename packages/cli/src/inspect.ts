import type { PresetName, ProfileName } from '@flatmcp/core'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { isJsonSchemaDocument, PROFILE_NAMES, toOriginalSchema } from '@flatmcp/core'
import { createModuleCompiler, describeFailure, resolveOptions } from 'unplugin-flatmcp/internal'
import { createStyle } from './style'
import { BuildError } from './build'

export interface InspectOptions {
  file: string
  tool?: string
  profile?: ProfileName
  /** The preset JSON Schema inputs are read with (default: `auto`). */
  preset?: PresetName | 'auto'
  root?: string
  /** Evaluate a module not named like a tool module too (it may be a program that starts a server). */
  run?: boolean
  /** Terminal width; two columns from 100 up. Default: the output stream's, else 80. */
  width?: number
  stream?: { isTTY?: boolean, columns?: number }
}

function sideBySide(left: string[], right: string[], width: number): string[] {
  const column = Math.floor((width - 3) / 2)
  const cut = (line: string): string => line.length > column ? `${line.slice(0, column - 1)}…` : line
  return Array.from({ length: Math.max(left.length, right.length) }, (_, i) => `${cut(left[i] ?? '').padEnd(column)} │ ${cut(right[i] ?? '')}`.trimEnd())
}

/** What the compiler did to each tool of a module: original vs advertised schema, diagnostics, coercion plan. */
export async function inspectModule(options: InspectOptions): Promise<string> {
  // Every profile, so the tokens line can compare them; the one asked for is shown.
  const resolved = resolveOptions({ root: options.root, preset: options.preset, profiles: options.profile === 'minimal' ? ['minimal'] : [...PROFILE_NAMES.filter(name => name !== 'minimal')], failOn: 'never' })
  const shown = options.profile ?? resolved.profile
  const file = path.resolve(resolved.root, options.file)
  if (!existsSync(file))
    throw new BuildError(`${options.file}: no such file`)
  // Inspecting evaluates the module: a server entry would start serving on this terminal.
  if (!options.run && !/\.tools\.(?:ts|mts|js|mjs)$/.test(file))
    throw new BuildError(`${options.file} is not named like a tool module (*.tools.ts): inspect evaluates the module it is given, and this one may be a program that starts a server. Give the tool module it imports, or pass --run to evaluate it anyway.`)
  let fresh
  try {
    fresh = await createModuleCompiler(resolved).compileFresh(file)
  }
  catch (error) {
    throw new BuildError(await describeFailure(error, file, resolved.root))
  }
  const tools = fresh.tools.filter(t => !options.tool || t.compiled.name === options.tool)
  if (tools.length === 0)
    throw new BuildError(options.tool ? `${options.file}: no tool named "${options.tool}" (tools: ${fresh.tools.map(t => t.compiled.name).join(', ') || 'none'})` : `${options.file}: exports no tools`)
  const s = createStyle(options.stream)
  const width = options.width ?? options.stream?.columns ?? 80
  const out: string[] = []
  for (const { exportName, compiled: base, others, definition, tokens } of tools) {
    const compiled = others.find(other => other.profile === shown) ?? base
    // A JSON Schema given as data is shown as given: what reading it cut is listed below.
    const originalOf = (schema: unknown): unknown => isJsonSchemaDocument(schema) ? schema : toOriginalSchema(schema, 'input', fresh.converters, { preset: resolved.preset }).schema
    const original = JSON.stringify({
      ...(definition.params ? { params: originalOf(definition.params) } : {}),
      input: definition.input === undefined ? {} : originalOf(definition.input),
    }, null, 2).split('\n')
    const source = isJsonSchemaDocument(definition.input) ? `JSON Schema as given${compiled.preset ? `, read for ${compiled.preset}` : ''}` : 'schema library → JSON Schema'
    const advertised = JSON.stringify(compiled.inputSchema, null, 2).split('\n')
    out.push(s.bold(`── ${compiled.name}`) + s.dim(`  (export ${exportName}, ${shown} profile${compiled.strict === false ? ', served as portable: not strict' : ''})`))
    if (width >= 100) {
      out.push(...sideBySide([s.cyan(`original (${source})`)], [s.cyan('advertised inputSchema')], width + 10))
      out.push(...sideBySide(original, advertised, width))
    }
    else {
      out.push(s.cyan(`original (${source}):`), ...original, s.cyan('advertised inputSchema:'), ...advertised)
    }
    const ratio = (n: number): string => tokens.original === 0 ? '' : ` (${(n / tokens.original).toFixed(2)}×)`
    out.push(`${s.cyan('tokens (o200k_base, name + description + schema):')} original ${tokens.original} → ${Object.entries(tokens.profiles).map(([name, n]) => `${name === shown ? s.bold(name) : name} ${n}${ratio(n)}`).join(', ')}`)
    const cut = compiled.diagnostics.filter(d => d.code === 'generator-noise')
    if (cut.length > 0)
      out.push(`${s.cyan('cut:')} ${cut.map(d => d.message).join('; ')}`)
    const listed = compiled.diagnostics.filter(d => d.code !== 'generator-noise')
    out.push(s.cyan('diagnostics:') + (listed.length === 0 ? ' none' : ''))
    for (const d of listed) {
      const mark = d.severity === 'error' ? s.red('error') : d.severity === 'warning' ? s.yellow('warning') : s.dim('info')
      const flat = d.flatPath !== undefined && d.flatPath !== d.path ? ` (advertised ${d.flatPath || '/'})` : ''
      out.push(`  ${mark} ${d.code} ${d.schema}${d.path || '/'}${flat}: ${d.message}`)
    }
    if (compiled.decode)
      out.push(`${s.cyan('JSON text parsed back:')} ${JSON.stringify(compiled.decode)}`)
    out.push(`${s.cyan(compiled.profile ? 'coercion plan and inverse map:' : 'coercion plan:')} ${JSON.stringify(compiled.coercion)}`, '')
  }
  return out.join('\n')
}
