import type { ProbeOptions, ProbeReport } from './probe/probe'
import { probe } from './probe/probe'
import { renderReport } from './probe/report'

export { BuildError, buildArtifacts } from './tool-modules/build-artifacts'
export type { BuildOptions } from './tool-modules/build-artifacts'
export { inspectModule } from './tool-modules/inspect-module'
export type { InspectOptions } from './tool-modules/inspect-module'
export { probe, ProbeLoadError } from './probe/probe'
export type { ArtifactReport, Check, Finding, GrammarShare, ProbeOptions, ProbeReport } from './probe/probe'
export { renderReport } from './probe/report'

/**
 * For a project's own test suite: probes the artifacts and throws, with the probe's report as the
 * message, when any is stale or unsound. `await assertProbe({ paths: ['dist'] })`.
 */
export async function assertProbe(options: ProbeOptions = {}): Promise<ProbeReport> {
  const report = await probe(options)
  if (!report.ok)
    throw new Error(`flatmcp probe found problems:\n${renderReport(report, options.root ?? process.cwd(), { isTTY: false })}`)
  return report
}
