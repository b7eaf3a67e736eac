// The flatmcp command's dispatcher (cli.ts loads it): it finds the command named and runs it (commands/: each its usage, options and
// run). Exit codes: 0 clean, 1 findings (the probe's; a build's diagnostic at --fail-on), 2 usage or
// load errors. Each command loads what it needs when it runs: the proxy starts without the build
// pipeline.
import { closestName } from '@flatmcp/runtime'
import { COMMANDS, flagsOf, helpText, saidInOneLine, UsageError } from './commands'
import { cliVersion } from './version'

const EXIT_CODES = 'exit codes: 0 clean, 1 findings (probe; build: a tool that cannot be served, a diagnostic at --fail-on), 2 usage errors or modules that cannot load'

const HELP = `flatmcp — sound flat schemas for MCP tools

usage:
${Object.values(COMMANDS).map(command => `${command.usage}\n      ${command.summary}`).join('\n')}
  flatmcp <command> --help      its options, with examples
  flatmcp --version

${EXIT_CODES}`

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(HELP)
    return name === undefined ? 2 : 0
  }
  if (name === '--version' || name === '-v') {
    console.log(cliVersion())
    return 0
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (command && rest.some(arg => arg === '--help' || arg === '-h')) {
    // Help is read by a person: wrapped to the terminal, or to 100 columns when paged or piped.
    console.log(`${helpText(command, Math.min(process.stdout.columns || 100, 120))}\n\n${EXIT_CODES}`)
    return 0
  }
  if (rest.includes('--version')) {
    console.log(cliVersion())
    return 0
  }
  if (!command)
    throw new UsageError(`unknown command "${name}"`)
  return command.run(rest)
}

/**
 * Ends the process once what it wrote has reached its reader: to a pipe, stdout is written
 * asynchronously, and exiting at once cut a probe's JSON report at 64 KiB.
 */
function exitWhenWritten(code: number): void {
  process.exitCode = code
  let pending = 2
  const done = (): void => {
    if (--pending === 0)
      process.exit(code)
  }
  process.stdout.write('', done)
  process.stderr.write('', done)
}

/**
 * A usage error in a line or two: what is wrong, the option meant where one was mistyped (Node's
 * parseArgs says only that it is unknown), and where the usage is. Not the whole help.
 */
function usageMessage(error: Error, command: string | undefined): string {
  const known = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined
  const usage = known ? `flatmcp ${command} --help` : 'flatmcp --help'
  const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(error.message)?.[1]
  if (unknown === undefined)
    return `flatmcp: ${error.message}\n(${usage} shows the usage)`
  const best = known === undefined ? undefined : closestName(unknown, flagsOf(known))
  const meant = best === undefined ? '' : ` (did you mean ${best}?)`
  return `flatmcp: unknown option ${unknown}${meant}\n(${usage} shows the usage)`
}

/** Runs the command line `argv` (the words after `flatmcp`) and ends the process with its exit code. */
export function runCommandLine(argv: string[]): void {
  main(argv).then(exitWhenWritten, async (error: unknown) => {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')))
      console.error(usageMessage(error, argv[0]))
    else if (await saidInOneLine(error))
      console.error(`flatmcp: ${(error as Error).message}`)
    else
      console.error(`flatmcp: ${error instanceof Error ? error.stack : String(error)}`)
    exitWhenWritten(error instanceof Error && (error as { exitCode?: unknown }).exitCode === 1 ? 1 : 2)
  })
}
