// The operator's files checked against the list the proxy read at start, before it serves anything:
// each check reads one file and returns its problems, each at a JSON path, so a file that is off
// stops the proxy with the file, the path and what is wrong (exit 2) instead of serving a list it
// did not mean. A check is a function over what is served; adding one is one entry of the list
// the command passes (the overrides' here; a callers file's rules beside them).
import type { Overrides } from './overrides'
import { shown } from '../../util/log'
import { guessed } from './overrides'

/** What the first list served says, for the checks: the names served, and what the overrides name that it does not hold. */
export interface ServedAtStart {
  /** Every tool served, by the name clients call it (the overrides' hidden tools left out). */
  names: ReadonlySet<string>
  /** The tools the overrides name that the list does not hold. */
  unmatched: readonly string[]
  /** Behind a gateway: whether a name is under the prefix of a server not running at start (not its file's fault: said, not checked). */
  down: (name: string) => boolean
}

/** One thing off in a file: where (a JSON path from the file's root, `.tools["x"]`) and what. */
export interface StartupProblem { path: string, message: string }

/** A file checked at start: its name, what its paths are led by in a line (`overrides`), and its problems against what is served. */
export interface StartupCheck {
  file: string
  root: string
  problems: (served: ServedAtStart) => StartupProblem[]
}

/** Each problem of each check, as one line: the file, the JSON path and what is wrong. */
export function startupProblems(served: ServedAtStart, checks: readonly StartupCheck[]): string[] {
  return checks.flatMap(check => check.problems(served).map(problem => `${check.file}: ${check.root}${problem.path}: ${problem.message}`))
}

/**
 * The overrides against the list: a tool they name that it does not hold (a name misspelled, the
 * upstream's own name where the proxy serves another, a prefix left out), and a view's tool that is
 * not served. Either would serve what the file did not mean: a `hide` of a misspelled name leaves the
 * tool listed.
 */
export function overridesProblems(overrides: Overrides): (served: ServedAtStart) => StartupProblem[] {
  return (served) => {
    const names = [...served.names]
    const hidden = new Set(Object.entries(overrides.tools).filter(([name, tool]) => tool.hide === true && !served.unmatched.includes(name)).map(([name]) => name))
    const tools = served.unmatched.filter(name => Object.hasOwn(overrides.tools, name) && !served.down(name)).map(name => ({
      path: `.tools[${JSON.stringify(name)}]`,
      message: `the upstream lists no tool ${shown(name)}${guessed(name, names)}; the overrides name tools as the proxy serves them`,
    }))
    const views = Object.entries(overrides.views ?? {}).flatMap(([view, { tools: listed }]) => (listed ?? []).flatMap((name, index) => served.names.has(name) || served.down(name)
      ? []
      : [{
          path: `.views[${JSON.stringify(view)}].tools[${index}]`,
          message: hidden.has(name) ? `tool ${shown(name)} is hidden by the overrides, so the view cannot serve it` : `no tool ${shown(name)} is served${guessed(name, names)}`,
        }]))
    return [...tools, ...views]
  }
}
