// An upstream command as a child process: started with the proxy's whole environment less its own
// credentials and the operator's additions over it, its stderr passed on within a budget, and ended
// with everything it started, however the proxy ends (`@flatmcp/runtime/proxy/spawn`).
import type { ChildProcess } from 'node:child_process'
import type { UpstreamTarget } from './upstream'
import { spawn } from 'node:child_process'
import { escapeControl } from '../../util/control-chars'
import { commandName } from './command-name'
import { expandVariables, upstreamEnvironment } from './environment'
import { ProxySetupError } from './setup-error'
import { STDERR_CUT, stderrBudget } from './stderr-budget'

/** An upstream command: what it runs, with what, where, and where its stderr goes. */
export type CommandTarget = Extract<UpstreamTarget, { command: string[] }>

/** The longest stderr line passed on whole: past it, the rest of the line is left out. */
const MAX_STDERR_LINE = 4096

/** A stream's lines, each handed to `line` as it ends (a long one cut at `MAX_STDERR_LINE` characters). */
function readLines(stream: NodeJS.ReadableStream, line: (text: string) => void): void {
  let pending = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n')
    pending = lines.pop()!.slice(0, MAX_STDERR_LINE)
    for (const each of lines)
      line(each.replace(/\r$/, '').slice(0, MAX_STDERR_LINE))
  })
  stream.on('end', () => pending === '' || line(pending))
}

/** A command's stderr lines on the proxy's, their control characters escaped (none can rewrite the operator's screen), within `stderrBudget`. */
const passedOn = (): ((line: string) => void) => {
  const write = (line: string): void => void process.stderr.write(`${line}\n`)
  return stderrBudget(line => write(escapeControl(line)), () => write(`[the upstream] ${STDERR_CUT}`))
}

/** A command started, and what a log line may say of it. */
export interface StartedCommand {
  child: ChildProcess
  /** The command's first word. */
  where: string
  /** Resolves once the process has started; a command that cannot start rejects it with a `ProxySetupError`. */
  spawned: Promise<void>
  /** Resolves when the process has ended, with how: its exit code, or the signal that ended it. */
  exited: Promise<string>
}

/**
 * Starts an upstream command now: its first word run with the rest as arguments, with the proxy's
 * whole environment less its own credentials (`withheld`, and `PROXY_VARIABLES`) and `env` over it
 * (`${NAME}` in a value read from the environment; one not set is a `ProxySetupError`), its stderr
 * on the proxy's.
 */
export function startCommand(target: CommandTarget): StartedCommand {
  const [command, ...args] = target.command
  if (command === undefined)
    throw new ProxySetupError('the upstream needs a command to run (command: [\'node\', \'server.js\']) or a URL')
  const added = Object.fromEntries(Object.entries(target.env ?? {}).map(([name, value]) => [name, expandVariables(value, `the upstream's variable ${JSON.stringify(name)}`)]))
  // A shell on Windows resolves `npx` to `npx.cmd`, as a client that starts the server does. Elsewhere
  // the command leads a process group of its own, so what it starts (npx's server) ends with it.
  const windows = process.platform === 'win32'
  const child = spawn(command, args, { env: upstreamEnvironment(added, undefined, target.withheld, target.othersVariables), stdio: ['pipe', 'pipe', 'pipe'], shell: windows, windowsHide: true, detached: !windows, ...(target.cwd === undefined ? {} : { cwd: target.cwd }) })
  endsWithProcess(child)
  readLines(child.stderr!, target.stderr ?? passedOn())
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve())
    child.once('error', error => reject(new ProxySetupError(error.message, { cause: error })))
  })
  spawned.catch(() => {}) // the connection hears of it
  const exited = new Promise<string>(resolve => child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)))
  return { child, where: commandName(target.command), spawned, exited }
}

/** Whether the command (its process) is still running. */
export const running = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null

/** A signal to the command and everything it started (its process group, where it leads one, even once the command itself has exited). */
export function signalCommand(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined)
    return
  if (process.platform !== 'win32') {
    try {
      process.kill(-child.pid, signal)
      return
    }
    catch {
      // No group left: the command alone, if it runs.
    }
  }
  if (running(child))
    child.kill(signal)
}

/** The commands not yet closed: however the proxy ends (a fatal error, an exit), none outlives it. */
const commands = new Set<ChildProcess>()
let watching = false
/** The signals a proxy handles itself (a drain ends its commands once its calls in flight are answered). */
const kept = new Set<NodeJS.Signals>()

/** `signals` are no longer passed on to the commands at once: the proxy ends them itself (`proxy.close()`), as a drain does. */
export function keepCommandsOnSignals(signals: readonly NodeJS.Signals[]): void {
  for (const signal of signals)
    kept.add(signal)
}

/** The command and what it left in its group killed, and no longer watched: the proxy closed it. */
export function endCommand(child: ChildProcess): void {
  signalCommand(child, 'SIGKILL')
  commands.delete(child)
}

function endsWithProcess(child: ChildProcess): void {
  if (!watching) {
    process.once('exit', () => commands.forEach(command => signalCommand(command, 'SIGKILL')))
    // A command in a group of its own no longer hears the terminal's Ctrl-C: it is passed on, and
    // where nothing else listens for the signal, the process then ends by it as it would have.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        if (kept.has(signal))
          return
        commands.forEach(command => signalCommand(command, signal))
        if (process.listenerCount(signal) === 0)
          process.kill(process.pid, signal)
      })
    }
  }
  watching = true
  commands.add(child)
}
