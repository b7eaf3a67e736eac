// What the probe is asked and what it reports: checks, findings, one report per artifact, and the
// error that stops it (an artifact or a source that cannot be read at all).
import type { UpstreamTarget } from '@flatmcp/runtime/proxy'

export type Check = 'well-formed' | 'json-schema' | 'profile' | 'current' | 'superset' | 'round-trip' | 'untyped' | 'tokens' | 'clients'

export interface Finding {
  check: Check
  /** `error` fails the probe; `warning` is listed only. */
  severity: 'error' | 'warning'
  tool?: string
  message: string
  /** A diff (drift) or a minimised counterexample. */
  detail?: string
}

export interface ArtifactReport {
  file: string
  module?: string
  tools: string[]
  /** Values checked against the advertised schemas. */
  samplesChecked: number
  /** Per tool (and flat() schema): values checked, and what the sampler could not aim for. */
  sampled: { tool: string, checked: number, unmet: string[], output?: true }[]
  /** Per tool in each target profile it ships (`send (gemini)`): values written as its model would and read back. */
  roundTrips: { tool: string, profile: string, checked: number }[]
  /** Per profile the artifact ships: o200k_base tokens of each tool's definition as advertised. */
  tokens?: Record<string, Record<string, number>>
  /** Not current: the checks that compare it with its source wait until it is (they would report the staleness again, as unsoundness). */
  stale?: true
  findings: Finding[]
}

/** What the anthropic-strict tools of the artifacts probed together spend of Anthropic's combined strict grammar. */
export interface GrammarShare {
  profile: 'anthropic-strict'
  /** Points the strict tools may spend together: `--strict-budget`, else a snapshot's, else `DEFAULT_STRICT_BUDGET`. */
  budget: number
  /** Points the strict tools spend together. */
  spent: number
  /** Each strict tool's points (`grammarCost`), its share of the budget (a fraction; none where the budget is 0), and whether a flatmcp server keeps it strict within the budget (`chooseStrict`), the most points first. */
  tools: { name: string, points: number, share?: number, kept: boolean }[]
  /** The tools served non-strict there (a fallback, or the budget). */
  notStrict: string[]
}

export interface ProbeReport {
  ok: boolean
  seed: number
  samples: number
  /** The token budgets the probe held the tools to (none given: the tokens check was skipped). */
  budgets: { maxTokens?: number, maxModuleTokens?: number }
  artifacts: ArtifactReport[]
  /** Where an artifact ships anthropic-strict: what its strict tools spend of the grammar budget. */
  strictGrammar?: GrammarShare
}

export interface ProbeOptions {
  /** Artifact files or folders to search for `*.mcp.json` (node_modules skipped). Default: the root. */
  paths?: string[]
  /** The project root the artifacts' module paths are relative to. Default: `process.cwd()`. */
  root?: string
  /** Tool modules that must each have an artifact among those probed. */
  sources?: string[]
  /** Values generated per tool for the superset check. Default: 200. */
  samples?: number
  /** Seed of the value generator. Default: 1. */
  seed?: number
  /** Called before each artifact is probed. */
  onProgress?: (done: number, total: number, file: string) => void
  /** Called as each tool's sampling begins (the longest work: seconds per tool). */
  onTool?: (tool: string) => void
  /** A tool whose definition, in any profile it ships, takes more o200k_base tokens fails the probe. */
  maxTokens?: number
  /** A module whose tools together, in any profile they ship, take more tokens fails the probe. */
  maxModuleTokens?: number
  /** Points of Anthropic's combined strict grammar the anthropic-strict tools may spend together. Default: a snapshot's own, else `DEFAULT_STRICT_BUDGET` (48). */
  strictBudget?: number
  /** The live upstream of the snapshots probed: each must hold exactly the definitions it lists now. */
  upstream?: UpstreamTarget
  /** How long sampling one tool may take, in milliseconds (each check: the superset, each round trip). Default: 30,000. */
  timeBudgetMs?: number
}

/** How values are drawn: how many per tool, from which seed, within how long. */
export interface Sampling { samples: number, seed: number, timeBudgetMs?: number, onTool?: (tool: string) => void }

/** An artifact or a source cannot be read at all: the probe stops (exit code 2). */
export class ProbeLoadError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProbeLoadError'
  }
}

/** The token budgets a probe holds the tools to. */
export type Budget = Pick<ProbeOptions, 'maxTokens' | 'maxModuleTokens'>
