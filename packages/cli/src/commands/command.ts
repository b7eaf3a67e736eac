// What every command of `flatmcp` is: its usage and how it runs, and what they share in reading
// their arguments. A command loads what it needs when it runs, so each starts without the others'
// modules (the proxy without the build pipeline).
import type { PresetName, ProfileName } from '@flatmcp/core'
import { PRESET_NAMES, PROFILE_NAMES } from '@flatmcp/core/names'
import { wrapWords } from '../style'

export interface Command {
  /** What it does, in a line: `flatmcp --help` lists it under its usage. */
  summary: string
  /** The command lines it takes, each `  flatmcp <command> …`. */
  usage: string
  /** What it does, more fully: a paragraph of `flatmcp <command> --help`. */
  about: string
  /** Each option (with its value's name) and what it does; the first option of a group starts it (`['', 'heading']` heads one). */
  options: readonly (readonly [string, string])[]
  /** Command lines to copy, each with what it does. */
  examples: readonly (readonly [string, string])[]
  /** Runs the command on its arguments: resolves with the exit code (a serving command never resolves). */
  run: (args: string[]) => Promise<number>
}

/**
 * `flatmcp <command> --help`: its usage, what it does, a table of its options and examples, wrapped
 * to `width` columns (a table's descriptions beside their options, as wide as the rest leaves).
 */
export function helpText(command: Command, width: number): string {
  const column = 2 + Math.min(32, Math.max(...command.options.map(([flag]) => flag.length)) + 2)
  const pad = ' '.repeat(column)
  const wrapped = (text: string, indent: string): string[] => wrapWords(text, Math.max(30, width - indent.length), '').map(line => `${indent}${line}`)
  const table = command.options.flatMap(([flag, what], n) => {
    if (flag === '')
      return [...(n === 0 ? [] : ['']), `  ${what}:`]
    const [first, ...rest] = wrapped(what, pad).map(line => line.slice(column))
    const head = flag.length + 4 <= column ? `  ${flag.padEnd(column - 2)}${first}` : `  ${flag}\n${pad}${first}`
    return [head, ...rest.map(line => `${pad}${line}`)]
  })
  const examples = command.examples.flatMap(([line, what]) => [...wrapped(`# ${what}`, '  '), `  ${line}`])
  return ['usage:', command.usage, '', ...wrapped(command.about, ''), '', 'options:', ...table, '', 'examples:', ...examples].join('\n')
}

/** Each `--flag` a command takes, as its help names them: what a mistyped one is matched against. */
export const flagsOf = (command: Command): Set<string> => new Set([command.usage, ...command.options.map(([flag]) => flag)].join(' ').match(/--[a-z][a-z-]*/g) ?? [])

/** A command line that cannot run: said in a line or two with where the usage is, exit 2. */
export class UsageError extends Error {}

/**
 * With FLATMCP_PARSE_ONLY=1 a command stops once its command line is read and checked, before it
 * loads, starts or writes anything: how the suite runs the command lines the docs show.
 */
export const parseOnly = (): boolean => process.env.FLATMCP_PARSE_ONLY === '1'

export function profileOf(value: string): ProfileName {
  if (!(PROFILE_NAMES as string[]).includes(value))
    throw new UsageError(`--profile must be one of ${PROFILE_NAMES.join(', ')}, not "${value}"`)
  return value as ProfileName
}

/** Each `--profile`, a list of names or one per flag. */
export function profilesOf(values: string[] | undefined): ProfileName[] | undefined {
  return values?.flatMap(value => value.split(',')).map(profileOf)
}

export function presetOf(value: string | undefined): PresetName | 'auto' | undefined {
  if (value !== undefined && value !== 'auto' && !(PRESET_NAMES as string[]).includes(value))
    throw new UsageError(`--preset must be auto or one of ${PRESET_NAMES.join(', ')}, not "${value}"`)
  return value as PresetName | 'auto' | undefined
}

export function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined)
    return undefined
  // Digits only: Number() reads '' and ' ' as 0 (`--http=` listened on any free port) and `0x1f90` or `1e3` as numbers too.
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(n))
    throw new UsageError(`${flag} takes a whole number, not "${value}"`)
  return n
}

/** The longest time a timer holds (about 24.8 days); a longer one fires at once. */
const LONGEST_MS = 2 ** 31 - 1

/** A time limit in milliseconds: a whole number a timer can hold. */
export function duration(value: string | undefined, flag: string): number | undefined {
  const n = count(value, flag)
  if (n !== undefined && n > LONGEST_MS)
    throw new UsageError(`${flag} takes at most ${LONGEST_MS} ms (about 24 days), not ${value}`)
  return n
}

/** One of the words a flag takes, or a usage error naming them. */
export function oneOf<T extends string>(value: string | undefined, flag: string, words: readonly T[]): T | undefined {
  if (value !== undefined && !(words as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be ${words.slice(0, -1).join(', ')} or ${words.at(-1)}, not "${value}"`)
  return value as T | undefined
}
