// The one targets table `npm run bench` ends with: each target's name, its figure, its goal and
// met or MISSED, under a header saying the machine and its load, so a figure is read beside how busy
// the machine was. Pure: the run hands it what it recorded.
export interface TargetRow {
  section: string
  /** The target as its section says it, goal included (e.g. "coercer ≤ 2 KB min+gzip"). */
  what: string
  met: boolean
  figure: string
}

export interface Machine { cores: number, cpu: string, node: string, load: { start: number[], end: number[] } }

/** Where a target's goal begins: its comparison (≤, ≥, <, >) or the words that say one. */
const GOAL = /\s(?=[≤≥<>]\s|(?:within|no (?:slower|heavier|larger|more)|never larger|at (?:most|least)|well under|costs no more|faster than)\s)/

/** A target's name and its goal, split where the goal's comparison begins; the whole is the name where none does. */
export function splitGoal(what: string): { name: string, goal: string } {
  const at = GOAL.exec(what)
  if (!at)
    return { name: what, goal: '(as named)' }
  return { name: what.slice(0, at.index), goal: what.slice(at.index + 1) }
}

const loads = (load: number[]): string => load.map(value => value.toFixed(2)).join(' ')

/** The table's header: the machine, and the load average (1, 5 and 15 minutes) at the run's start and end. */
export function targetsHeader(machine: Machine): string {
  return `targets — ${machine.cores} × ${machine.cpu}, node ${machine.node}; load average ${loads(machine.load.start)} at the start, ${loads(machine.load.end)} at the end (the ratios are measured side by side; the times are as busy as the machine)`
}

/** One row per target: name, figure, goal, verdict; and per section whose setup was off, a row saying so. */
export function targetRows(targets: readonly TargetRow[], off: readonly string[]): string[][] {
  return [
    ...targets.map((row) => {
      const { name, goal } = splitGoal(row.what)
      return [name, row.figure, goal, row.met ? 'met' : 'MISSED']
    }),
    ...off.map(line => [line, '', '', 'SETUP OFF']),
  ]
}

/** Rows as columns all aligned left (figures and goals are words as much as numbers), two spaces apart. */
export function leftAligned(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, at) => Math.max(...rows.map(row => row[at]!.length)))
  return rows.map(row => row.map((cell, at) => at === row.length - 1 ? cell : cell.padEnd(widths[at]!)).join('  ').trimEnd())
}

/** The closing line: how many targets were met, and whether the run fails. */
export function targetsSummary(targets: readonly TargetRow[], off: readonly string[]): string {
  const met = targets.filter(row => row.met).length
  return `${met} of ${targets.length} targets met${off.length > 0 ? `; ${off.length} setup check${off.length === 1 ? '' : 's'} off: the run fails` : ''}`
}
