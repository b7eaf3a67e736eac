// What every command of `flatmcp` is: its usage and how it runs, and what they share in reading
// their arguments. A command loads what it needs when it runs, so each starts without the others'
// modules (the proxy without the build pipeline).
import type { PresetName, ProfileName } from '@flatmcp/core'
import { PRESET_NAMES, PROFILE_NAMES } from '@flatmcp/core/names'

export interface Command {
  /** As `flatmcp <command> --help` prints it. */
  usage: string
  /** Runs the command on its arguments: resolves with the exit code (a serving command never resolves). */
  run: (args: string[]) => Promise<number>
}

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
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0)
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
