// The proxy's start-up check: once the upstream's first list is read and compiled (the one it then
// serves: no second read), the operator's files are checked against it before anything is served.
// Each file is one entry of `startupChecks`; a problem stops the proxy with the file, the JSON path
// and what is wrong (exit 2).
import type { CallerRules, Overrides, Proxy, StartupCheck } from '@flatmcp/runtime/proxy'
import { checkRules, overridesProblems, OverridesError, ProxySetupError, startupProblems } from '@flatmcp/runtime/proxy'

/** The files the proxy reads, by what it calls them: the overrides (`--overrides`, else the snapshot that recorded them), the callers' rules (`--callers`) with the overrides' views. */
export interface CheckedFiles {
  overrides?: { file: string, overrides: Overrides }
  rules?: { file: string, rules: CallerRules, views: readonly string[] }
}

/** The checks of the files given, over the list served: one entry a file. */
export function startupChecks(files: CheckedFiles): StartupCheck[] {
  return [
    ...(files.overrides ? [{ file: files.overrides.file, root: 'overrides', problems: overridesProblems(files.overrides.overrides) }] : []),
    // A rule's exact name that no tool served has is fatal; a pattern that matches none yet is said once served (run-proxy.ts).
    ...(files.rules ? [{ file: `--callers ${files.rules.file}`, root: '', problems: rulesCheck(files.rules) }] : []),
  ]
}

/** The callers' rules against the names served: the fatal problems (a name under a gateway server down at start is not its file's fault). */
function rulesCheck({ rules, views }: NonNullable<CheckedFiles['rules']>): StartupCheck['problems'] {
  const named = Object.values(rules.callers).flatMap(row => [...(row.allow ?? []), ...(row.deny ?? [])])
  return served => checkRules(rules, [...served.names, ...named.filter(name => served.down(name))], views).filter(problem => problem.fatal)
}

/** A start-up that stopped: each line one problem, said as the proxy's own. */
export class StartupCheckError extends ProxySetupError {
  constructor(readonly lines: readonly string[]) {
    super(lines.join('\n'))
    this.name = 'ProxySetupError'
  }
}

/**
 * The proxy once its first list is compiled and the files hold against it: each problem the checks
 * find is a line of the error thrown; the proxy is closed where it cannot serve.
 */
export async function checkedAtStart(proxy: Proxy, files: CheckedFiles): Promise<Proxy> {
  await proxy.ready
  const problems = startupProblems(proxy.served(), startupChecks(files))
  if (problems.length === 0)
    return proxy
  void proxy.close().catch(() => {})
  throw new StartupCheckError(problems)
}

/**
 * What a failed start-up says, each line led by `flatmcp:`: the checks' problems; an overrides file
 * the list refused (a parameter a tool lacks, a fixed value its schema does not take) with its file.
 */
export function startupLines(error: unknown, files: CheckedFiles): string[] {
  if (error instanceof StartupCheckError)
    return error.lines.map(line => `flatmcp: ${line}`)
  const cause = (error as Error).cause
  if (cause instanceof OverridesError && files.overrides)
    return [`flatmcp: ${files.overrides.file}: ${cause.message}`]
  return [`flatmcp: ${error instanceof ProxySetupError ? error.message : (error as Error).stack ?? String(error)}`]
}
