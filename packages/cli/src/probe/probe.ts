// The ship-time probe: every artifact under the paths given checked as what ships (its shape in every
// profile, current with its source, sound on generated values, within its budgets), and the report.
import type { FreshModule } from 'unplugin-flatmcp/internal'
import type { Artifact, ListedTool } from './artifact-files'
import type { ArtifactReport, Budget, Finding, ProbeOptions, ProbeReport, Sampling } from './findings'
import type { ToolSchemas } from './checks'
import type { LiveList } from './probe-snapshot'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { isSnapshot } from '@flatmcp/runtime/artifact'
import { createModuleCompiler, defaultArtifactName, describeFailure, loadTokenizer, modulePath, resolveOptions } from 'unplugin-flatmcp/internal'
import { findArtifacts, readModuleArtifact, safeParse } from './artifact-files'
import { jsonStandardSchema, requestBudgets, shapeChecks, soundness, startReport, supersetOf } from './checks'
import { lineDiff } from './diff'
import { ProbeLoadError } from './findings'
import { liveList, probeSnapshot } from './probe-snapshot'

export { ProbeLoadError } from './findings'
export type { ArtifactReport, Check, Finding, GrammarShare, ProbeOptions, ProbeReport } from './findings'

/** The `flatmcp build` command that writes this artifact again, where it is, with the options it records (`extend`, `coercion: false` and `examples: false` are the plugin's alone). */
function buildCommand(file: string, root: string, artifact: Artifact): string {
  const where = path.relative(root, file).split(path.sep).join('/')
  const named = defaultArtifactName(artifact.module)
  const out = where.endsWith(named) ? where.slice(0, -named.length).replace(/\/$/, '') || '.' : undefined
  const profiles = [artifact.options.profile, ...(artifact.options.profiles ?? [])].filter((name, n, all) => all.indexOf(name) === n)
  const cwd = path.relative(process.cwd(), root)
  return `${cwd ? `(in ${cwd}) ` : ''}npx flatmcp build ${artifact.module}${out === undefined ? ' --out <its folder>' : out === 'dist' ? '' : ` --out ${out}`}${profiles.length > 1 || profiles[0] !== 'portable' ? ` --profile ${profiles.join(',')}` : ''}${artifact.options.preset ? ` --preset ${artifact.options.preset}` : ''}`
}

async function probeArtifact(file: string, root: string, sampling: Sampling, budget: Budget = {}, live?: LiveList): Promise<{ report: ArtifactReport, artifact: Artifact }> {
  const peeked = safeParse(file)
  if (isSnapshot(peeked))
    return probeSnapshot(file, peeked, sampling, budget, live)
  if (live)
    throw new ProbeLoadError(`${file}: a live upstream is checked against a snapshot (flatmcp snapshot's artifact), and this is a module's artifact`)
  const { text, artifact } = readModuleArtifact(file)
  const { report, add } = startReport(file, artifact, budget)

  // flat() schemas are checked like tools, under a name that says which export they are.
  const flats = (artifact.flat ?? []).map(entry => ({ ...entry, tool: { name: `flat() ${entry.export}`, inputSchema: entry.inputSchema } as ListedTool }))
  const { profiled, uncompiled } = shapeChecks(artifact, flats, add)

  // Re-derive the artifact from its source, with the options it records; never from outside the root.
  const source = path.resolve(root, artifact.module)
  const inside = path.relative(root, source)
  if (inside.startsWith('..') || path.isAbsolute(inside))
    throw new ProbeLoadError(`${file}: its source ${artifact.module} is outside ${root}; the probe evaluates sources under its root only (give --root)`)
  if (!existsSync(source))
    throw new ProbeLoadError(`${file}: its source ${artifact.module} does not exist under ${root} (give --root)`)
  const extend = artifact.options.extend
  const options = resolveOptions({
    root,
    profile: artifact.options.profile,
    profiles: artifact.options.profiles,
    coercion: artifact.options.coercion,
    examples: artifact.options.examples !== false,
    preset: artifact.options.preset,
    failOn: 'never',
    extend: extend === null ? undefined : extend.module ? { module: extend.module, export: extend.export } : { schema: jsonStandardSchema(extend.schema) },
  })
  const compiler = createModuleCompiler(options)
  let fresh: FreshModule
  try {
    fresh = await compiler.compileFresh(source)
  }
  catch (error) {
    throw new ProbeLoadError(await describeFailure(error, source, root))
  }
  if (fresh.result.artifact !== text) {
    add(await notCurrent(text, fresh, () => compiler.compileFresh(source, { again: true }), file, root, artifact))
    // Its source changed since: one finding (sampling it against the changed source would say the same
    // again, as unsoundness). Where the source is as it was, the file itself was edited: every check runs.
    if ((JSON.parse(fresh.result.artifact) as { hash?: unknown }).hash !== artifact.hash) {
      report.stale = true
      return { report, artifact }
    }
  }

  // The superset invariant, on the advertised schemas that ship (this file, not the fresh ones).
  for (const tool of artifact.tools.filter(t => !uncompiled.has(t.name))) {
    const exportName = artifact.runtime[tool.name]!.export
    const definition = fresh.tools.find(t => t.compiled.name === tool.name)?.definition as ToolSchemas | undefined
    if (!definition) {
      add({ check: 'current', severity: 'error', tool: tool.name, message: `${artifact.module} no longer exports tool "${tool.name}" (it was export "${exportName}")` })
      continue
    }
    await soundness(tool, definition, fresh, profiled.filter(p => p.base === tool.name && !uncompiled.has(p.tool.name)), sampling, report, artifact.runtime[tool.name]!.outputWrap, { file: source, root, exportName })
  }
  for (const entry of flats.filter(f => !uncompiled.has(f.tool.name))) {
    const compiled = fresh.flats.find(f => f.exportName === entry.export)
    if (!compiled) {
      add({ check: 'current', severity: 'error', tool: entry.tool.name, message: `${artifact.module} no longer exports a flat() schema as "${entry.export}"` })
      continue
    }
    const { checked, unmet, finding } = await supersetOf(entry.tool, { input: compiled.schema }, { ...fresh, extendSchema: undefined }, sampling)
    report.samplesChecked += checked
    report.sampled.push({ tool: entry.tool.name, checked, unmet })
    if (finding)
      add(finding)
  }
  return { report, artifact }
}

/**
 * The artifact is not what its source compiles to now. Evaluated once more: a module whose artifact
 * differs each time is not stale but not deterministic, and no build mends it.
 */
async function notCurrent(text: string, fresh: FreshModule, evaluateAgain: () => Promise<FreshModule>, file: string, root: string, artifact: Artifact): Promise<Finding> {
  const again = (await evaluateAgain()).result.artifact
  if (again !== fresh.result.artifact) {
    return {
      check: 'current',
      severity: 'error',
      message: `not deterministic: ${artifact.module} compiles to a different artifact each time it is evaluated (twice now, and they differ), so no build makes this one current. A value computed at import (a time, a random number, a variable of the environment) reaches a schema: make it a constant, or compute it in the handler`,
      detail: lineDiff(fresh.result.artifact, again, `${artifact.module} (evaluated once)`, `${artifact.module} (evaluated again)`),
    }
  }
  const command = artifact.options.extend === null && artifact.options.coercion && artifact.options.examples !== false ? `, or ${buildCommand(file, root, artifact)}` : ''
  return {
    check: 'current',
    severity: 'error',
    message: `the artifact differs from what ${artifact.module} compiles to now`,
    detail: `${lineDiff(text, fresh.result.artifact, path.relative(root, file), `${artifact.module} (compiled now)`)}\nrefresh it: run your build${command}`,
  }
}

/**
 * Checks what is about to ship: each artifact is well-formed, compiles as JSON Schema (draft-07 and
 * 2020-12), keeps its profile's shape, matches what its source compiles to now, and accepts values the
 * original schemas accept (seeded, so a failure reproduces). Untyped leaves are listed.
 */
export async function probe(options: ProbeOptions = {}): Promise<ProbeReport> {
  const root = path.resolve(options.root ?? process.cwd())
  const samples = options.samples ?? 200
  const seed = options.seed ?? 1
  const files = await findArtifacts(options.paths?.length ? options.paths : ['.'], root)
  if (files.length === 0)
    throw new ProbeLoadError(`no *.mcp.json artifacts under ${(options.paths ?? ['.']).join(', ')}`)
  await loadTokenizer()
  const live = options.upstream ? await liveList(options.upstream) : undefined
  const artifacts: ArtifactReport[] = []
  const read: Artifact[] = []
  for (const [n, file] of files.entries()) {
    options.onProgress?.(n, files.length, file)
    const { report, artifact } = await probeArtifact(file, root, { samples, seed, ...(options.timeBudgetMs === undefined ? {} : { timeBudgetMs: options.timeBudgetMs }), ...(options.onTool ? { onTool: options.onTool } : {}) }, options, live)
    artifacts.push(report)
    read.push(artifact)
  }
  const { report: together, strictGrammar } = requestBudgets(read, options.strictBudget)
  if (together)
    artifacts.push(together)
  for (const source of options.sources ?? []) {
    const module = modulePath(root, source)
    if (!artifacts.some(a => a.module === module))
      artifacts.push({ file: '', module, tools: [], samplesChecked: 0, sampled: [], roundTrips: [], findings: [{ check: 'current', severity: 'error', message: `no artifact for ${module}` }] })
  }
  const budgets = { ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }), ...(options.maxModuleTokens === undefined ? {} : { maxModuleTokens: options.maxModuleTokens }) }
  return { ok: artifacts.every(a => a.findings.every(f => f.severity !== 'error')), seed, samples, budgets, artifacts, ...(strictGrammar ? { strictGrammar } : {}) }
}
