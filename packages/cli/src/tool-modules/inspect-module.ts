import type { CompiledTool, PresetName, ProfileName } from '@flatmcp/core'
import type { ToolTokens } from 'unplugin-flatmcp/internal'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { isJsonSchemaDocument, PROFILE_NAMES, toOriginalSchema } from '@flatmcp/core'
import { fallbacksOf, readSnapshot } from '@flatmcp/runtime/proxy'
import { createModuleCompiler, describeFailure, loadTokenizer, resolveOptions, tokensOf } from 'unplugin-flatmcp/internal'
import { createStyle, wrapWords } from '../style'
import { BuildError } from './build-artifacts'

export interface InspectOptions {
  file: string
  tool?: string
  profile?: ProfileName
  /** The preset JSON Schema inputs are read with (default: `auto`). */
  preset?: PresetName | 'auto'
  root?: string
  /** Evaluate a module not named like a tool module too (it may be a program that starts a server). */
  run?: boolean
  /** One line per tool (what changed, tokens before and after) and the list's total, instead of the schemas. */
  summary?: boolean
  /** Terminal width; two columns from 100 up. Default: the output stream's, else 80. */
  width?: number
  stream?: { isTTY?: boolean, columns?: number }
}

/** Diagnostics by what they say the compiler did, for the summary line. */
const WIDENED = new Set(['union-widened', 'untyped-leaf', 'invisible-constraint', 'keyword-rewritten', 'ref-unresolved', 'recursion-truncated', 'depth-limit', 'size-limit'])
const MOVED = new Set(['keyword-dropped', 'format-moved', 'description-cut', 'encoded-as-json'])

/** `oneOf` and `anyOf` lists anywhere in a schema. */
function unionCount(schema: unknown): number {
  if (typeof schema !== 'object' || schema === null)
    return 0
  const own = Array.isArray(schema) ? 0 : ['oneOf', 'anyOf'].filter(key => Array.isArray((schema as Record<string, unknown>)[key])).length
  return own + Object.values(schema).reduce((n: number, child) => n + unionCount(child), 0)
}

/** The one line that says what the compiler did to a tool: unions joined, places widened, keywords moved (or dropped), tokens. */
function changeSummary(original: unknown, compiled: Pick<CompiledTool, 'inputSchema' | 'diagnostics'>, tokens: { from: number, to: number }): string {
  const joined = Math.max(0, unionCount(original) - unionCount(compiled.inputSchema))
  const widened = compiled.diagnostics.filter(d => WIDENED.has(d.code)).length
  const moved = compiled.diagnostics.filter(d => MOVED.has(d.code)).length
  const ratio = tokens.from === 0 ? '' : ` (${(tokens.to / tokens.from).toFixed(2)}×)`
  return `${joined} ${joined === 1 ? 'union' : 'unions'} joined, ${widened} widened, ${moved} ${moved === 1 ? 'keyword' : 'keywords'} moved, tokens ${tokens.from} → ${tokens.to}${ratio}`
}

function sideBySide(left: string[], right: string[], width: number): string[] {
  const column = Math.floor((width - 3) / 2)
  const cut = (line: string): string => line.length > column ? `${line.slice(0, column - 1)}…` : line
  return Array.from({ length: Math.max(left.length, right.length) }, (_, i) => `${cut(left[i] ?? '').padEnd(column)} │ ${cut(right[i] ?? '')}`.trimEnd())
}

/** One tool as inspect shows it, whatever it came from: a module's export or a snapshot's upstream tool. */
interface Shown {
  name: string
  /** Where it came from and how it is served, in the heading's parentheses. */
  about: string
  /** The original schemas, as given or as the library writes them, and what made them. */
  originals: Record<string, unknown>
  source: string
  compiled: Pick<CompiledTool, 'inputSchema' | 'diagnostics' | 'decode' | 'coercion' | 'profile'>
  /** The compiled output schema, where one is listed. */
  output?: unknown
  tokens: ToolTokens
  /** What it falls back to (a proxied tool), a sentence each. */
  fallbacks?: string[]
}

/** `--summary`: a line per tool, what the compiler did and its tokens, then the whole list's tokens in the profile shown. */
function renderSummary(tools: Shown[], shown: string, s: ReturnType<typeof createStyle>): string[] {
  const pad = Math.max(...tools.map(tool => tool.name.length))
  const after = (tool: Shown): number => tool.tokens.profiles[shown] ?? 0
  const lines = tools.map((tool) => {
    const fallbacks = tool.fallbacks?.length ? s.yellow(`; ${tool.fallbacks.join('; ')}`) : ''
    return `${s.bold(tool.name.padEnd(pad))}  ${changeSummary(tool.originals, tool.compiled, { from: tool.tokens.original, to: after(tool) })}${fallbacks}`
  })
  const from = tools.reduce((sum, tool) => sum + tool.tokens.original, 0)
  const to = tools.reduce((sum, tool) => sum + after(tool), 0)
  return [...lines, `${tools.length} tool${tools.length === 1 ? '' : 's'} in ${shown}: tokens ${from} → ${to}${from === 0 ? '' : ` (${(to / from).toFixed(2)}×)`}`]
}

/** One tool's lines: heading, what changed, original beside advertised, tokens, what was cut, diagnostics, plans. */
function renderTool(tool: Shown, shown: string, width: number, s: ReturnType<typeof createStyle>): string[] {
  const { compiled, tokens } = tool
  const out: string[] = []
  const original = JSON.stringify(tool.originals, null, 2).split('\n')
  const advertised = JSON.stringify(compiled.inputSchema, null, 2).split('\n')
  out.push(s.bold(`── ${tool.name}`) + s.dim(`  (${tool.about})`))
  out.push(...wrapWords(`${s.cyan('changed:')} ${changeSummary(tool.originals, compiled, { from: tokens.original, to: tokens.profiles[shown] ?? 0 })}`, width))
  if (width >= 100) {
    out.push(...sideBySide([s.cyan(`original (${tool.source})`)], [s.cyan('advertised inputSchema')], width + 10))
    out.push(...sideBySide(original, advertised, width))
  }
  else {
    out.push(s.cyan(`original (${tool.source}):`), ...original, s.cyan('advertised inputSchema:'), ...advertised)
  }
  if (tool.output !== undefined)
    out.push(s.cyan('advertised outputSchema:'), ...JSON.stringify(tool.output, null, 2).split('\n'))
  const ratio = (n: number): string => tokens.original === 0 ? '' : ` (${(n / tokens.original).toFixed(2)}×)`
  // Each profile's figure stays on one line: the words inside it are joined by no-break spaces until wrapped.
  const figures = Object.entries(tokens.profiles).map(([name, n]) => `${name === shown ? s.bold(name) : name}\u00A0${n}${ratio(n).replace(' ', '\u00A0')}`)
  out.push(...wrapWords(`${s.cyan('tokens (o200k_base, name + description + schema):')} original\u00A0${tokens.original} → ${figures.join(', ')}`, width).map(line => line.replace(/\u00A0/g, ' ')))
  for (const fallback of tool.fallbacks ?? [])
    out.push(...wrapWords(`${s.yellow('fallback:')} ${fallback}`, width))
  const cut = compiled.diagnostics.filter(d => d.code === 'generator-noise')
  if (cut.length > 0)
    out.push(...wrapWords(`${s.cyan('cut:')} ${cut.map(d => d.message).join('; ')}`, width))
  const listed = compiled.diagnostics.filter(d => d.code !== 'generator-noise')
  out.push(s.cyan('diagnostics:') + (listed.length === 0 ? ' none' : ''))
  for (const d of listed) {
    const mark = d.severity === 'error' ? s.red('error') : d.severity === 'warning' ? s.yellow('warning') : s.dim('info')
    const flat = d.flatPath !== undefined && d.flatPath !== d.path ? ` (advertised ${d.flatPath || '/'})` : ''
    out.push(...wrapWords(`  ${mark} ${d.code} ${d.schema}${d.path || '/'}${flat}: ${d.message}`, width, '    '))
  }
  if (compiled.decode)
    out.push(`${s.cyan('JSON text parsed back:')} ${JSON.stringify(compiled.decode)}`)
  out.push(`${s.cyan(compiled.profile ? 'coercion plan and inverse map:' : 'coercion plan:')} ${JSON.stringify(compiled.coercion)}`, '')
  return out
}

/** What the compiler did to each tool of a module, or of a snapshot (`*.mcp.json`): original vs advertised schema, diagnostics, plans. */
export async function inspectModule(options: InspectOptions): Promise<string> {
  // Every profile, so the tokens line can compare them; the one asked for is shown.
  const resolved = resolveOptions({ root: options.root, preset: options.preset, profiles: options.profile === 'minimal' ? ['minimal'] : [...PROFILE_NAMES.filter(name => name !== 'minimal')], failOn: 'never' })
  const file = path.resolve(resolved.root, options.file)
  if (!existsSync(file))
    throw new BuildError(`${options.file}: no such file`)
  const s = createStyle(options.stream)
  const width = options.width ?? options.stream?.columns ?? 80
  const render = (tools: Shown[], shown: string): string => (options.summary ? renderSummary(tools, shown, s) : tools.flatMap(tool => renderTool(tool, shown, width, s))).join('\n')
  if (file.endsWith('.mcp.json'))
    return render(await inspectSnapshot(file, options), options.profile ?? 'portable')
  const shown = options.profile ?? resolved.profile
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
  return render(tools.map(({ exportName, compiled: base, others, definition, tokens }) => {
    const compiled = others.find(other => other.profile === shown) ?? base
    // A JSON Schema given as data is shown as given: what reading it cut is listed below.
    const originalOf = (schema: unknown): unknown => isJsonSchemaDocument(schema) ? schema : toOriginalSchema(schema, 'input', fresh.converters, { preset: resolved.preset }).schema
    const originals = {
      ...(definition.params ? { params: originalOf(definition.params) } : {}),
      input: definition.input === undefined ? {} : originalOf(definition.input),
    }
    const source = isJsonSchemaDocument(definition.input) ? `JSON Schema as given${compiled.preset ? `, read for ${compiled.preset}` : ''}` : 'schema library → JSON Schema'
    return { name: compiled.name, about: `export ${exportName}, ${shown} profile${compiled.strict === false ? ', served as portable: not strict' : ''}`, originals, source, compiled, tokens }
  }), shown)
}

/** A snapshot's tools as inspect shows them: each upstream definition beside what the proxy serves in the profile asked for. */
async function inspectSnapshot(file: string, options: InspectOptions): Promise<Shown[]> {
  let read
  try {
    read = readSnapshot(JSON.parse(readFileSync(file, 'utf8')))
  }
  catch (error) {
    throw new BuildError(`${options.file}: ${(error as Error).message}`)
  }
  const { snapshot } = read
  const shown = options.profile ?? 'portable'
  if (shown !== 'portable' && !snapshot.options.profiles.includes(shown))
    throw new BuildError(`${options.file} holds no ${shown} profile (it has ${['portable', ...snapshot.options.profiles].join(', ')})`)
  const tools = read.tools.filter(tool => !options.tool || tool.name === options.tool)
  if (tools.length === 0)
    throw new BuildError(options.tool ? `${options.file}: no tool named "${options.tool}" (tools: ${read.tools.map(t => t.name).join(', ') || 'none'})` : `${options.file}: holds no tools`)
  await loadTokenizer()
  const costOf = (tool: { name: string, description?: string, inputSchema: unknown }): number => tokensOf(JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }))
  return tools.map((tool) => {
    const listed = tool.precomputed.tool
    const profiled = shown === 'portable' ? undefined : tool.precomputed.profiles?.[shown]
    const upstream = tool.upstream.tool
    return {
      name: tool.name,
      about: `upstream ${snapshot.upstream.name} ${snapshot.upstream.version}, ${shown} profile${tool.served === 'as-is' ? ', served as it came' : profiled?.strict === false ? ', served as portable: not strict' : ''}`,
      originals: { input: upstream.inputSchema, ...(upstream.outputSchema === undefined ? {} : { output: upstream.outputSchema }) },
      source: `the upstream's JSON Schema, read for ${snapshot.options.preset}`,
      compiled: {
        inputSchema: (profiled?.inputSchema ?? listed.inputSchema) as CompiledTool['inputSchema'],
        diagnostics: tool.diagnostics,
        coercion: profiled?.coercion ?? tool.precomputed.coercion,
        ...(profiled?.decode ? { decode: profiled.decode } : {}),
        ...(profiled ? { profile: shown } : {}),
      },
      ...(listed.outputSchema === undefined ? {} : { output: listed.outputSchema }),
      tokens: {
        original: costOf(upstream),
        profiles: Object.fromEntries([['portable', costOf(listed)], ...Object.entries(tool.precomputed.profiles ?? {}).map(([name, data]) => [name, costOf({ ...listed, inputSchema: data.inputSchema })])]),
      },
      fallbacks: fallbacksOf(tool),
    }
  })
}
