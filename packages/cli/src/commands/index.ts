// The commands of `flatmcp`, in the order its help lists them.
import type { Command } from './command'
import { build } from './build'
import { inspect } from './inspect'
import { install } from './install'
import { probe } from './probe'
import { proxy } from './proxy'
import { snapshot } from './snapshot'

export type { Command } from './command'
export { flagsOf, helpText, UsageError } from './command'
export { exitCodeOf, saidInOneLine } from './said-errors'

export const COMMANDS: Readonly<Record<string, Command>> = { build, inspect, proxy, snapshot, probe, install }
