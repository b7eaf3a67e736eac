import type { CachedModule } from '../load/module-cache'

const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/**
 * One line per build: the modules, tools and artifacts, what the tools cost a model per profile
 * beside the originals (o200k_base tokens, as the artifacts record them), and how many warnings.
 */
export function buildSummary(modules: readonly CachedModule[], artifacts: number, warnings: number): string {
  const tokens = new Map<string, number>()
  for (const module of modules) {
    let recorded: Record<string, Record<string, number>> = {}
    try {
      recorded = (JSON.parse(module.artifact) as { tokens?: typeof recorded }).tokens ?? {}
    }
    catch {
      // An artifact is text this build wrote; one that does not parse adds no tokens.
    }
    for (const perProfile of Object.values(recorded)) {
      for (const [profile, n] of Object.entries(perProfile))
        tokens.set(profile, (tokens.get(profile) ?? 0) + n)
    }
  }
  const tools = modules.reduce((n, module) => n + module.tools.length, 0)
  const flats = modules.reduce((n, module) => n + module.flats.length, 0)
  const forms = modules.reduce((n, module) => n + module.forms.length, 0)
  const original = tokens.get('original')
  tokens.delete('original')
  const parts = [
    [count(modules.length, 'module'), count(tools, 'tool'), ...(flats > 0 ? [count(flats, 'flat() schema')] : []), ...(forms > 0 ? [count(forms, 'form')] : []), count(artifacts, 'artifact')].join(', '),
    ...(original === undefined ? [] : [`tokens ${[...tokens].map(([profile, n]) => `${profile} ${n.toLocaleString('en-US')}`).join(', ')} (original ${original.toLocaleString('en-US')})`]),
    count(warnings, 'warning'),
  ]
  return `flatmcp: ${parts.join('; ')}`
}
