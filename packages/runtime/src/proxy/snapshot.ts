// A snapshot: an upstream's tool list compiled ahead of time, as an `*.mcp.json` artifact. Its `tools`
// are served as they are, its `runtime` holds each tool's plans and, under `upstream`, the digest and
// input schema of the definition it was compiled from: a live tool with the same digest is served from
// the snapshot without compiling, and the probe re-derives the snapshot from those schemas.
import type * as Compiler from '@flatmcp/core'
import type { McpTool, PrecomputedTool, ProfiledTool } from '../serve/compiled'
import type { CompiledUpstream } from './compile-upstream'
import type { UpstreamTool } from './upstream'
import { shown } from './upstream'

/** What a snapshot keeps of the upstream definition a tool was compiled from. */
export interface UpstreamRecord {
  /** `sha256:` and the hex SHA-256 of the definition's canonical JSON (`digestOf`). */
  digest: string
  /** The upstream's own definition: its input schema picks the reading of a call, and the probe re-derives the snapshot from it. */
  tool: UpstreamTool
}

/** One tool of a snapshot, as the proxy serves it. */
export interface ProxiedTool extends CompiledUpstream {
  upstream: UpstreamRecord
}

interface RuntimeEntry {
  coercion: PrecomputedTool['coercion']
  discriminator?: string
  profiles?: Record<string, ProfiledTool>
  served?: 'as-is'
  reason?: string
  upstream: UpstreamRecord
}

/** A snapshot as `flatmcp snapshot` writes it: an artifact whose source is a server, not a module. */
export interface Snapshot {
  generator: string
  /** The upstream server, as it named itself. */
  upstream: { name: string, version: string }
  options: { profile: 'portable', profiles: Compiler.ProfileName[], preset: Compiler.PresetName, coercion: true, extend: null }
  tools: McpTool[]
  runtime: Record<string, RuntimeEntry>
  diagnostics: { tool: string, code: string, severity: string, path: string, message: string }[]
}

/** The snapshot of a compiled list: deterministic (the list's order, no timestamps). */
export function toSnapshot(tools: readonly ProxiedTool[], about: { generator: string, upstream: { name: string, version: string }, preset: Compiler.PresetName, profiles: readonly Compiler.ProfileName[] }): Snapshot {
  return {
    generator: about.generator,
    upstream: { name: about.upstream.name, version: about.upstream.version },
    options: { profile: 'portable', profiles: about.profiles.filter(profile => profile !== 'portable'), preset: about.preset, coercion: true, extend: null },
    tools: tools.map(tool => tool.precomputed.tool),
    runtime: Object.fromEntries(tools.map(tool => [tool.name, {
      coercion: tool.precomputed.coercion,
      ...(tool.precomputed.discriminator === undefined ? {} : { discriminator: tool.precomputed.discriminator }),
      ...(tool.precomputed.profiles === undefined ? {} : { profiles: tool.precomputed.profiles }),
      ...(tool.served === 'as-is' ? { served: 'as-is' as const, reason: tool.reason! } : {}),
      upstream: tool.upstream,
    }])),
    diagnostics: tools.flatMap(tool => tool.diagnostics.map(({ tool: name, code, severity, path, message }) => ({ tool: name, code, severity, path, message }))),
  }
}

/** The snapshot's text: two-space JSON and a final newline, as every artifact. */
export function snapshotText(snapshot: Snapshot): string {
  return `${JSON.stringify(snapshot, null, 2)}\n`
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether an artifact is a snapshot (its source is an upstream server) rather than a module's artifact. */
export function isSnapshot(value: unknown): boolean {
  return isObject(value) && isObject(value.upstream) && !('module' in value)
}

/**
 * A parsed snapshot, checked: anything off is a TypeError naming the field (a file of another shape,
 * or one edited by hand, is refused before anything is served from it).
 */
export function readSnapshot(value: unknown): { snapshot: Snapshot, tools: ProxiedTool[] } {
  const fail = (what: string): never => {
    throw new TypeError(`not a flatmcp snapshot: ${what}`)
  }
  if (!isObject(value))
    fail('the top level is not an object')
  const s = value as Record<string, unknown>
  if (!isObject(s.upstream) || typeof s.upstream.name !== 'string' || typeof s.upstream.version !== 'string')
    fail('"upstream" needs the server\'s name and version')
  const options = s.options as Record<string, unknown> | undefined
  if (!isObject(options) || typeof options.preset !== 'string' || !Array.isArray(options.profiles) || !options.profiles.every(profile => typeof profile === 'string'))
    fail('"options" needs a preset and a list of profiles')
  if (!Array.isArray(s.tools) || !isObject(s.runtime))
    fail('it needs "tools", a list, and "runtime", an object')
  const runtime = s.runtime as Record<string, unknown>
  const tools = (s.tools as unknown[]).map((tool, index): ProxiedTool => {
    const where = `tools[${index}]`
    if (!isObject(tool) || typeof tool.name !== 'string' || !isObject(tool.inputSchema) || tool.inputSchema.type !== 'object')
      fail(`${where} needs a name and an object inputSchema`)
    const name = (tool as { name: string }).name
    const entry = Object.prototype.hasOwnProperty.call(runtime, name) ? runtime[name] : undefined
    if (!isObject(entry) || !isObject(entry.coercion))
      fail(`runtime[${JSON.stringify(name)}] needs a coercion plan`)
    const e = entry as Record<string, unknown>
    if (!isObject(e.upstream) || typeof e.upstream.digest !== 'string' || !isObject(e.upstream.tool) || e.upstream.tool.name !== name || !isObject(e.upstream.tool.inputSchema))
      fail(`runtime[${JSON.stringify(name)}].upstream needs the digest of the upstream's definition and the definition itself`)
    if (e.profiles !== undefined && !(isObject(e.profiles) && Object.values(e.profiles).every(form => isObject(form) && isObject(form.inputSchema) && form.inputSchema.type === 'object' && isObject(form.coercion))))
      fail(`runtime[${JSON.stringify(name)}].profiles needs an object inputSchema and a coercion plan per profile`)
    const precomputed: PrecomputedTool = { tool: tool as unknown as McpTool, coercion: e.coercion as PrecomputedTool['coercion'] }
    if (typeof e.discriminator === 'string')
      precomputed.discriminator = e.discriminator
    if (e.profiles !== undefined)
      precomputed.profiles = e.profiles as Record<string, ProfiledTool>
    return {
      name,
      served: e.served === 'as-is' ? 'as-is' : 'compiled',
      ...(typeof e.reason === 'string' ? { reason: e.reason } : {}),
      precomputed,
      diagnostics: [],
      upstream: e.upstream as unknown as UpstreamRecord,
    }
  })
  return { snapshot: value as unknown as Snapshot, tools }
}

/** How a live list differs from a snapshot, by tool name. */
export interface Drift {
  /** Listed with another definition than the snapshot's. */
  changed: string[]
  /** Listed, and not in the snapshot. */
  added: string[]
  /** In the snapshot, and no longer listed. */
  removed: string[]
}

/** The drift between a snapshot's tools and the live list's digests (by name). */
export function driftOf(snapshot: readonly ProxiedTool[], live: ReadonlyMap<string, string>): Drift {
  const known = new Map(snapshot.map(tool => [tool.name, tool.upstream.digest]))
  return {
    changed: [...live].filter(([name, digest]) => known.has(name) && known.get(name) !== digest).map(([name]) => name),
    added: [...live.keys()].filter(name => !known.has(name)),
    removed: [...known.keys()].filter(name => !live.has(name)),
  }
}

/** A drift in one line; empty when there is none. */
export function describeDrift(drift: Drift): string {
  const parts = [
    drift.changed.length > 0 ? `changed: ${drift.changed.map(shown).join(', ')}` : '',
    drift.added.length > 0 ? `new: ${drift.added.map(shown).join(', ')}` : '',
    drift.removed.length > 0 ? `gone: ${drift.removed.map(shown).join(', ')}` : '',
  ].filter(Boolean)
  return parts.join('; ')
}
