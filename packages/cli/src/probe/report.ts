import type { Check, ProbeReport } from './findings'
import path from 'node:path'
import { createStyle, widthOf, wrapLine } from '../style'

const CHECKS: [Check, string][] = [
  ['json-schema', 'compiles as JSON Schema (draft-07 and 2020-12)'],
  ['profile', 'keeps its profile\'s shape'],
  ['current', 'is current (matches its source compiled now)'],
  ['superset', 'accepts every value the original schemas accept, under ajv 2020 (with and without ajv-formats), ajv draft-07 and @cfworker/json-schema'],
  ['round-trip', 'round-trips in each target profile it ships (a model\'s answer, read back, parses to the same value)'],
  ['tokens', 'keeps to the token budgets'],
]

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * Values checked per tool, said once for the tools that share a count (`26 tools, 200 values
 * each`), and by name for the others and for any the sampler could not aim for everywhere.
 */
function countsText(sampled: { tool: string, checked: number, unmet?: string[] }[], what: string): string {
  const counts = new Map<number, number>()
  for (const t of sampled)
    counts.set(t.checked, (counts.get(t.checked) ?? 0) + 1)
  const usual = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
  const plain = sampled.filter(t => t.checked === usual && (t.unmet ?? []).length === 0)
  const named = sampled.filter(t => !plain.includes(t)).map(t => `${t.tool}: ${plural(t.checked, 'value')}${(t.unmet ?? []).length > 0 ? `, not aimed for: ${t.unmet!.join(', ')}` : ''}`)
  return [plain.length > 0 ? `${plural(plain.length, what)}, ${plural(usual!, 'value')}${plain.length === 1 ? '' : ' each'}` : '', ...named].filter(Boolean).join('; ')
}

/** The superset check's values: the tools' inputs, then their output schemas. */
function sampledText(sampled: ProbeReport['artifacts'][number]['sampled']): string {
  return [countsText(sampled.filter(t => !t.output), 'tool'), countsText(sampled.filter(t => t.output), 'output schema')].filter(Boolean).join('; ')
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
    return ` (${[...new Set(artifact.roundTrips.map(t => t.profile))].join(', ')}: ${countsText(artifact.roundTrips, 'tool form')})`
  if (check === 'tokens')
    return ` (o200k_base, ${[report.budgets.maxTokens === undefined ? '' : `at most ${report.budgets.maxTokens} per tool`, report.budgets.maxModuleTokens === undefined ? '' : `${report.budgets.maxModuleTokens} per module`].filter(Boolean).join(', ')}; all tools: ${tokensText(artifact.tokens)})`
  return ''
}

/** What the anthropic-strict tools spend of the grammar budget, together and each (a line per tool, the most first). */
function grammarLines(grammar: NonNullable<ProbeReport['strictGrammar']>): string[] {
  const percent = (share: number | undefined): string => share === undefined ? '' : `, ${Math.round(share * 100)}%`
  const over = grammar.spent > grammar.budget
  const head = `${grammar.profile} grammar: the ${plural(grammar.tools.length, 'strict tool')} spend ${grammar.spent} of a budget of ${grammar.budget} points${grammar.budget > 0 ? ` (${Math.round(grammar.spent / grammar.budget * 100)}%)` : ''}${over ? ', over it' : ''}${grammar.notStrict.length > 0 ? `; ${grammar.notStrict.length} served non-strict there` : ''}`
  return [head, ...grammar.tools.map(tool => `  ${tool.name}: ${plural(tool.points, 'point')}${percent(tool.share)}${tool.kept ? '' : ', served in its base form to keep within the budget'}`)]
}

/** The probe's report for a person: one block per artifact, each check passed or its findings. */
export function renderReport(report: ProbeReport, root: string, stream?: { isTTY?: boolean, columns?: number }): string {
  const s = createStyle(stream)
  const lines: string[] = []
  const width = widthOf(stream)
  // Wrapped to the terminal; details (diffs, counterexamples) are kept as they are.
  const push = (...added: string[]): number => lines.push(...added.map(line => wrapLine(line, width)))
  const indent = (text: string, by = '      '): string => text.split('\n').map(line => `${by}${line}`).join('\n')
  for (const artifact of report.artifacts) {
    // No file: a source without an artifact, or what the artifacts hold together (Anthropic's budget).
    const name = artifact.file ? path.relative(root, artifact.file) : artifact.module ? '(missing artifact)' : '(all artifacts together)'
    push(s.bold(`${name}`) + (artifact.module ? s.dim(`  from ${artifact.module}, ${plural(artifact.tools.length, 'tool')}`) : ''))
    if (artifact.file)
      push(`  ${s.green('✓')} well-formed`)
    for (const [check, label] of CHECKS) {
      const findings = artifact.findings.filter(f => f.check === check)
      if (findings.length === 0) {
        const why = skipped(check, artifact, report)
        if (artifact.file)
          push(why === undefined ? `  ${s.green('✓')} ${label}${s.dim(ranText(check, artifact, report))}` : `  ${s.dim('–')} ${label}: ${s.yellow('skipped')}${s.dim(`, ${why}`)}`)
        continue
      }
      // Warnings only: listed, not failing the probe.
      push(`  ${findings.some(f => f.severity === 'error') ? s.red('✗') : s.yellow('!')} ${label}`)
      for (const finding of findings) {
        push(`    ${finding.tool ? `${s.cyan(finding.tool)}: ` : ''}${finding.message}`)
        if (finding.detail)
          lines.push(indent(finding.detail))
      }
    }
    const untyped = artifact.findings.filter(f => f.check === 'untyped')
    push(`  untyped leaves: ${untyped.length === 0 ? 'none' : ''}`)
    for (const finding of untyped)
      push(`    ${s.yellow('!')} ${finding.tool}: ${finding.message}`)
  }
  if (report.strictGrammar)
    push('', ...grammarLines(report.strictGrammar))
  const errors = report.artifacts.flatMap(a => a.findings).filter(f => f.severity === 'error').length
  // What the artifacts hold together is a block of its own, not an artifact.
  const files = report.artifacts.filter(a => a.file || a.module).length
  push('', errors === 0
    ? s.green(`clean: ${plural(files, 'artifact')}, seed ${report.seed}, ${report.samples} samples per tool`)
    : s.red(`${plural(errors, 'finding')} in ${plural(files, 'artifact')} (seed ${report.seed}, ${report.samples} samples per tool)`))
  return lines.join('\n')
}
