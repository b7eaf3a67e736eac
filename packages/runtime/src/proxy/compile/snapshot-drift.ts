// A snapshot: an upstream's tool list compiled ahead of time, as an `*.mcp.json` artifact (its format,
// writer and reader are the artifact's, in `artifact/`). Its `tools` are served as they are, its
// `runtime` holds each tool's plans and, under `upstream`, the digest and input schema of the
// definition it was compiled from: a live tool with the same digest is served from the snapshot
// without compiling, and the probe re-derives the snapshot from those schemas.
import type * as Compiler from '@flatmcp/core'
import type { ProxiedTool, Snapshot } from '../../artifact/format'
import type { Recorded } from '../upstream/ahead'
import { ArtifactError, isSnapshot, readSnapshotArtifact } from '../../artifact/read'
import { shown } from '../../util/log'
import { isObject } from '../../util/object'

/**
 * A parsed snapshot, checked: anything off is a TypeError naming the field (a file of another shape,
 * or one edited by hand, is refused before anything is served from it).
 */
export function readSnapshot(value: unknown): { snapshot: Snapshot, tools: ProxiedTool[] } {
  if (typeof value === 'object' && value !== null && 'module' in value && !isSnapshot(value))
    throw new ArtifactError('not a flatmcp snapshot: "upstream" needs the server\'s name and version (this is a module\'s artifact)')
  const read = readSnapshotArtifact(value)
  return { snapshot: read.snapshot, tools: read.tools }
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

/** A snapshot, checked against what a proxy is asked to serve from it: the preset given, and every profile. */
export function snapshotFor(value: unknown, preset: Compiler.PresetName | undefined, profiles: readonly Compiler.ProfileName[]): { snapshot: Snapshot, tools: ProxiedTool[] } {
  const read = readSnapshot(value)
  const made = read.snapshot.options
  if (preset !== undefined && preset !== made.preset)
    throw new TypeError(`the snapshot was compiled with preset ${made.preset}, not ${preset}: snapshot the upstream again with that preset, or leave the preset out`)
  const missing = profiles.filter(profile => profile !== 'portable' && !made.profiles.includes(profile))
  if (missing.length > 0)
    throw new TypeError(`the snapshot holds no ${missing.join(', ')} profile (it has ${['portable', ...made.profiles].join(', ')}): snapshot the upstream again with --profile ${missing[0]}`)
  return read
}

/** The upstream's handshake as a snapshot recorded it (its name, capabilities and instructions); none where it recorded none. */
export function recordedHandshake(snapshot: unknown): Recorded | undefined {
  if (!isObject(snapshot) || !isObject(snapshot.handshake) || !isObject(snapshot.upstream))
    return undefined
  const { name, version } = snapshot.upstream
  const { capabilities, instructions } = snapshot.handshake
  if (typeof name !== 'string' || typeof version !== 'string' || !isObject(capabilities))
    return undefined
  return { info: { name, version }, capabilities, ...(typeof instructions === 'string' ? { instructions } : {}) }
}

/** Whether two lists serve the same tools: the same names, definitions and ways, in the same order. */
export function sameList(a: readonly ProxiedTool[], b: readonly ProxiedTool[]): boolean {
  return a.length === b.length && a.every((tool, i) => tool.name === b[i]!.name && tool.upstream.digest === b[i]!.upstream.digest && tool.served === b[i]!.served)
}
