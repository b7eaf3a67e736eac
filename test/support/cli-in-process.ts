// A command of the CLI run in the test's own process, for a check that reads only what it said and
// wrote (the exit codes through the real binary stay covered by runs of it): its run given the
// arguments, what it writes to stdout and stderr captured, and an error it ends with said in one line
// as the binary says it. Not for a usage error (the binary adds where the usage is) or a process-wide
// setting: HOME, the working folder and the environment are the test's own.
import { COMMANDS, exitCodeOf, saidInOneLine } from '../../packages/cli/src/commands'

export interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** `flatmcp NAME ARGS…` in this process: the exit code the binary would end with, and what it wrote. */
export async function runInProcess([name, ...args]: string[]): Promise<Ran> {
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : undefined
  if (!command)
    throw new Error(`no command "${name}" to run in process`)
  const ran: Ran = { code: null, stdout: '', stderr: '' }
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write }
  const capture = (into: 'stdout' | 'stderr') => ((chunk: string | Uint8Array) => {
    ran[into] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
    return true
  }) as typeof process.stdout.write
  process.stdout.write = capture('stdout')
  process.stderr.write = capture('stderr')
  try {
    ran.code = await command.run(args)
  }
  catch (error) {
    if (!(await saidInOneLine(error)))
      throw error
    ran.stderr += `flatmcp: ${(error as Error).message}\n`
    ran.code = exitCodeOf(error)
  }
  finally {
    Object.assign(process.stdout, { write: writes.stdout })
    Object.assign(process.stderr, { write: writes.stderr })
  }
  return ran
}
