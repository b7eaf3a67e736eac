#!/usr/bin/env node
// The flatmcp command: Node's compile cache first (where the running Node has it), then its command
// line (command-line.ts finds the command named; commands/: each its usage, options and run), imported
// after the cache so every module the command loads is cached, and ends with its exit code: 0 clean,
// 1 findings (the probe's; a build's diagnostic at --fail-on), 2 usage or load errors. Each command
// loads what it needs when it runs: the proxy starts without the build pipeline.
import { startCompileCache } from './compile-cache'

startCompileCache()
// A proxy's kept first answers are given while the rest of the command loads (proxy/early-answers.ts).
if (process.argv[2] === 'proxy')
  (await import('./proxy/early-answers')).startEarlyAnswers(process.argv.slice(2))
const { runCommandLine } = await import('./command-line')

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

void runCommandLine(process.argv.slice(2)).then(exitWhenWritten)
