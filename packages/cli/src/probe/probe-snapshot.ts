// A snapshot, probed as an artifact whose source is its upstream: compiled again from the definitions
// it records (by the runtime's list compiler, as flatmcp snapshot compiles it), and, given the live
// upstream, held to what it lists now.
import type { UpstreamTarget } from '@flatmcp/runtime/proxy'
import type { Artifact } from './artifact-files'
import type { ArtifactReport, Budget, Sampling } from './findings'
import type { Source } from './checks'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { PRESET_NAMES, PROFILE_NAMES } from '@flatmcp/core'
import { applyOverrides, compileUpstreamList, connectUpstream, driftOf, fallbacksOf, readOverrides, readSnapshot, rejectedFixed, readUpstream, readUpstreamList, withFittedNames } from '@flatmcp/runtime/proxy'
import { artifactText, toSnapshot } from '@flatmcp/runtime/artifact'
import { snapshotCommand } from '../proxy/run-snapshot'
import { ajvValidator } from '../proxy/validator'
import { snapshotGenerator } from '../version'
import { shapeChecks, soundness, startReport } from './checks'
import { lineDiff } from './diff'
import { ProbeLoadError } from './findings'

/** The live upstream's tools, by name, with the digest of each definition, and where it is. */
export interface LiveList { tools: ReadonlyMap<string, string>, target: UpstreamTarget, /** The definitions as listed, which a snapshot's overrides are applied to. */ listed: unknown[] }

/**
 * A snapshot, probed as an artifact whose source is the upstream definitions it records: its shape in
 * every profile, current (compiled again from those definitions, and, given the live upstream, the
 * same definitions as it lists now), and sound (values those schemas accept pass what ships).
 */
export async function probeSnapshot(file: string, parsed: unknown, sampling: Sampling, budget: Budget, live: LiveList | undefined): Promise<{ report: ArtifactReport, artifact: Artifact }> {
  let read: ReturnType<typeof readSnapshot>
  try {
    read = readSnapshot(parsed)
  }
  catch (error) {
    throw new ProbeLoadError(`${file}: ${(error as Error).message}`)
  }
  const { snapshot, tools } = read
  const unknownProfile = snapshot.options.profiles.find(name => !(PROFILE_NAMES as string[]).includes(name))
  if (unknownProfile !== undefined || !(PRESET_NAMES as string[]).includes(snapshot.options.preset))
    throw new ProbeLoadError(`${file}: not a flatmcp snapshot: options name ${unknownProfile === undefined ? `the preset "${snapshot.options.preset}"` : `the profile "${unknownProfile}"`}, which this flatmcp does not know`)
  const artifact = { ...snapshot, module: `upstream ${snapshot.upstream.name}`, hash: '' } as unknown as Artifact
  const { report, add } = startReport(file, artifact, budget)
  const { profiled, uncompiled } = shapeChecks(artifact, [], add)
  // Each fallback it records: served as it came, portable in a strict profile, an output left out.
  for (const tool of tools) {
    for (const fallback of fallbacksOf(tool))
      add({ check: 'profile', severity: 'warning', tool: tool.name, message: fallback })
  }

  // Compiled again from the definitions it records, with the options it records.
  const text = readFileSync(file, 'utf8')
  const strictBudget = snapshot.options.strictBudget === undefined ? {} : { strictBudget: snapshot.options.strictBudget }
  const origins = new Map(tools.flatMap(tool => tool.origin ? [[tool.name, tool.origin] as const] : []))
  const list = await compileUpstreamList(await readUpstreamList(tools.map(tool => tool.upstream.tool), () => {}), { preset: snapshot.options.preset, profiles: snapshot.options.profiles, ...strictBudget, originOf: name => origins.get(name) })
  const recorded = snapshot.overrides
  const again = artifactText(toSnapshot(list.tools, { generator: snapshotGenerator(), upstream: snapshot.upstream, ...(snapshot.handshake ? { handshake: snapshot.handshake } : {}), preset: list.preset, profiles: snapshot.options.profiles, ...strictBudget, origins, ...(recorded ? { overrides: recorded.file, fixed: new Map(Object.entries(recorded.fixed)) } : {}) }))
  const out = path.relative(process.cwd(), file) || file
  const command = live ? snapshotCommand(live.target, out, snapshot.options) : `${snapshotCommand({ command: [] }, out, snapshot.options)} <the upstream's command>`
  if (again !== text)
    add({ check: 'current', severity: 'error', message: `the snapshot differs from what its upstream definitions compile to now (a flatmcp of another version made it); refresh it`, detail: `${lineDiff(text, again, path.basename(file), 'compiled now')}\nrefresh it: ${command}` })
  // Each fixed value, against the upstream's schema of its key: one it rejects fails every call.
  for (const { tool, key, message, default: isDefault } of rejectedFixed(Object.entries(recorded?.fixed ?? {}), ajvValidator()))
    add({ check: 'superset', severity: 'error', tool, message: isDefault ? `the overrides give ${JSON.stringify(key)} a default: ${message}, so every call that leaves it out would fail; give it a value it takes` : `the overrides fix ${JSON.stringify(key)}: ${message}, so every call would fail; fix it to a value it takes` })
  if (live) {
    // The live list as the snapshot's overrides change it, so a hidden tool or a fixed parameter is no drift.
    const liveTools = recorded ? new Map((await readUpstreamList(applyOverrides(live.listed, readOverrides(recorded.file), () => {}).tools, () => {})).map(entry => [entry.tool.name, entry.digest])) : live.tools
    const drift = driftOf(tools, liveTools)
    const refresh = `refresh it: ${command}`
    for (const name of drift.changed)
      add({ check: 'current', severity: 'error', tool: name, message: `the live upstream lists "${name}" with another definition than the snapshot's; ${refresh}` })
    for (const name of drift.added)
      add({ check: 'current', severity: 'error', tool: name, message: `the live upstream lists "${name}", which the snapshot does not hold; ${refresh}` })
    for (const name of drift.removed)
      add({ check: 'current', severity: 'error', tool: name, message: `the live upstream no longer lists "${name}"; ${refresh}` })
  }

  // Sound: values the upstream's schemas accept (as the recorded preset reads them) pass what ships,
  // inputs and outputs alike.
  const source: Source = { converters: undefined as never, extendSchema: undefined, preset: snapshot.options.preset }
  for (const tool of artifact.tools.filter(t => !uncompiled.has(t.name))) {
    const proxied = tools.find(t => t.name === tool.name)!
    if (proxied.served === 'as-is')
      continue
    const output = tool.outputSchema === undefined ? undefined : proxied.upstream.tool.outputSchema
    await soundness(tool, { input: proxied.upstream.tool.inputSchema, ...(output === undefined ? {} : { output }) }, source, profiled.filter(p => p.base === tool.name && !uncompiled.has(p.tool.name)), sampling, report, proxied.precomputed.outputWrap)
  }
  return { report, artifact }
}

/** The live upstream's well-formed tools and their digests; an upstream that cannot be reached is a load error. */
export async function liveList(target: UpstreamTarget): Promise<LiveList> {
  const upstream = await connectUpstream(target, { asks: false }).catch((error: Error) => {
    throw new ProbeLoadError(error.message)
  })
  try {
    // Read as the proxy reads it: a name some clients refuse, fitted as the snapshot recorded it.
    const { entries } = await readUpstream(withFittedNames(upstream.client, () => {}))
    return { tools: new Map(entries.map(entry => [entry.tool.name, entry.digest])), target, listed: entries.map(entry => entry.tool) }
  }
  finally {
    await upstream.close().catch(() => {})
  }
}
