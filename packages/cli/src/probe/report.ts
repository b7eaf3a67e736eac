import type { Check, ProbeReport } from './findings'
import path from 'node:path'
import { createStyle } from '../style'

const CHECKS: [Check, string][] = [
  ['json-schema', 'compiles as JSON Schema (draft-07 and 2020-12)'],
  ['profile', 'keeps its profile\'s shape'],
  ['current', 'is current (matches its source compiled now)'],
  ['superset', 'accepts every value the original schemas accept, under ajv 2020 (with and without ajv-formats), ajv draft-07 and @cfworker/json-schema'],
  ['round-trip', 'round-trips in each target profile it ships (a model\'s answer, read back, parses to the same value)'],
  ['tokens', 'keeps to the token budgets'],
]

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/** Values checked per tool, with what the sampler could not aim for. */
function sampledText(sampled: ProbeReport['artifacts'][number]['sampled']): string {
  return sampled.map(t => `${t.tool}: ${t.checked} values${t.unmet.length > 0 ? `, not aimed for: ${t.unmet.join(', ')}` : ''}`).join('; ')
}

/** Each profile's tokens for the module's tools together. */
function tokensText(tokens: ProbeReport['artifacts'][number]['tokens']): string {
  return Object.entries(tokens ?? {}).map(([profile, byTool]) => `${profile} ${Object.values(byTool).reduce((sum, n) => sum + n, 0)}`).join(', ')
}

/** Why a check that found nothing did nothing either; undefined when it ran. */
function skipped(check: Check, artifact: ProbeReport['artifacts'][number], report: ProbeReport): string | undefined {
  if (artifact.stale && (check === 'superset' || check === 'round-trip'))
    return 'waits until it is current (it compares what ships with what its source compiles to)'
  if (check === 'round-trip' && artifact.roundTrips.length === 0)
    return 'no target profile built (build with --profile openai-strict, anthropic-strict or gemini to ship one)'
  if (check === 'tokens' && report.budgets.maxTokens === undefined && report.budgets.maxModuleTokens === undefined)
    return `no budget given (--max-tokens, --max-module-tokens); all tools: ${tokensText(artifact.tokens)} (o200k_base)`
  if (check === 'superset' && artifact.sampled.length === 0)
    return 'no tool to sample'
  return undefined
}

/** What a check that ran went over, shown after its label. */
function ranText(check: Check, artifact: ProbeReport['artifacts'][number], report: ProbeReport): string {
  if (check === 'superset')
    return ` (${sampledText(artifact.sampled)})`
  if (check === 'round-trip')
    return ` (${artifact.roundTrips.map(t => `${t.tool}: ${t.checked} values`).join('; ')})`
  if (check === 'tokens')
    return ` (o200k_base, ${[report.budgets.maxTokens === undefined ? '' : `at most ${report.budgets.maxTokens} per tool`, report.budgets.maxModuleTokens === undefined ? '' : `${report.budgets.maxModuleTokens} per module`].filter(Boolean).join(', ')}; all tools: ${tokensText(artifact.tokens)})`
  return ''
}

/** The probe's report for a person: one block per artifact, each check passed or its findings. */
export function renderReport(report: ProbeReport, root: string, stream?: { isTTY?: boolean }): string {
  const s = createStyle(stream)
  const lines: string[] = []
  const indent = (text: string, by = '      '): string => text.split('\n').map(line => `${by}${line}`).join('\n')
  for (const artifact of report.artifacts) {
    // No file: a source without an artifact, or what the artifacts hold together (Anthropic's budget).
    const name = artifact.file ? path.relative(root, artifact.file) : artifact.module ? '(missing artifact)' : '(all artifacts together)'
    lines.push(s.bold(`${name}`) + (artifact.module ? s.dim(`  from ${artifact.module}, ${plural(artifact.tools.length, 'tool')}`) : ''))
    if (artifact.file)
      lines.push(`  ${s.green('✓')} well-formed`)
    for (const [check, label] of CHECKS) {
      const findings = artifact.findings.filter(f => f.check === check)
      if (findings.length === 0) {
        const why = skipped(check, artifact, report)
        if (artifact.file)
          lines.push(why === undefined ? `  ${s.green('✓')} ${label}${s.dim(ranText(check, artifact, report))}` : `  ${s.dim('–')} ${label}: ${s.yellow('skipped')}${s.dim(`, ${why}`)}`)
        continue
      }
      // Warnings only: listed, not failing the probe.
      lines.push(`  ${findings.some(f => f.severity === 'error') ? s.red('✗') : s.yellow('!')} ${label}`)
      for (const finding of findings) {
        lines.push(`    ${finding.tool ? `${s.cyan(finding.tool)}: ` : ''}${finding.message}`)
        if (finding.detail)
          lines.push(indent(finding.detail))
      }
    }
    const untyped = artifact.findings.filter(f => f.check === 'untyped')
    lines.push(`  untyped leaves: ${untyped.length === 0 ? 'none' : ''}`)
    for (const finding of untyped)
      lines.push(`    ${s.yellow('!')} ${finding.tool}: ${finding.message}`)
  }
  const errors = report.artifacts.flatMap(a => a.findings).filter(f => f.severity === 'error').length
  // What the artifacts hold together is a block of its own, not an artifact.
  const files = report.artifacts.filter(a => a.file || a.module).length
  lines.push('', errors === 0
    ? s.green(`clean: ${plural(files, 'artifact')}, seed ${report.seed}, ${report.samples} samples per tool`)
    : s.red(`${plural(errors, 'finding')} in ${plural(files, 'artifact')} (seed ${report.seed}, ${report.samples} samples per tool)`))
  return lines.join('\n')
}
