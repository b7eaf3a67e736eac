// The flatmcp command line, run: the command named, with its arguments, resolving with the exit code
// (0 clean, 1 findings, 2 usage or load errors) once what it says is said. The bin (cli.ts) ends the
// process with it; a test runs a command line in process through it, its output captured.
import { COMMANDS, exitCodeOf, flagsOf, helpText, saidInOneLine, UsageError } from './commands'
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
 * A usage error in a line or two: what is wrong, the option meant where one was mistyped (Node's
 * parseArgs says only that it is unknown), and where the usage is. Not the whole help.
 */
async function usageMessage(error: Error, command: string | undefined): Promise<string> {
  const known = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined
  const usage = known ? `flatmcp ${command} --help` : 'flatmcp --help'
  const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(error.message)?.[1]
  if (unknown === undefined)
    return `flatmcp: ${error.message}\n(${usage} shows the usage)`
  // The runtime's entry (about 40 ms to load) only for a mistyped option: every command's start goes without it.
  const best = known === undefined ? undefined : (await import('@flatmcp/runtime')).closestName(unknown, flagsOf(known))
  const meant = best === undefined ? '' : ` (did you mean ${best}?)`
  return `flatmcp: unknown option ${unknown}${meant}\n(${usage} shows the usage)`
}

/**
 * Runs a command line: an error is said in a line (a usage error with where the usage is, a known
 * error by its message, anything else with its stack) and is exit code 1 if it is a finding, else 2.
 */
export async function runCommandLine(argv: string[]): Promise<number> {
  try {
    return await main(argv)
  }
  catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')))
      console.error(await usageMessage(error, argv[0]))
    else if (await saidInOneLine(error))
      console.error(`flatmcp: ${(error as Error).message}`)
    else
      console.error(`flatmcp: ${error instanceof Error ? error.stack : String(error)}`)
    return exitCodeOf(error)
  }
}
