/**
 * One line for the operator: on stderr, since stdout may be the stdio transport; on the console
 * where there is no `process` (a Worker, a browser), so a fetch-handler server needs no Node built-in.
 */
export function logLine(text: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write?: (chunk: string) => unknown } } }).process?.stderr
  if (typeof stderr?.write === 'function')
    stderr.write(`${text}\n`)
  else
    console.error(text)
}
