// The flatmcp command run two ways: as a process from its built dist (what a user runs: the exit code
// the process ends with, what reaches its pipes), and in process through the same command line
// (command-line.ts), its output captured: for checks of what a command says, without a Node start-up,
// module loading and an esbuild service per run.
import { execFile } from 'node:child_process'
import path from 'node:path'
import { format, promisify } from 'node:util'
import { vi } from 'vitest'
import { runCommandLine } from '../../packages/cli/src/command-line'
import { ROOT } from './client'

export const CLI = path.join(ROOT, 'packages/cli/dist/cli.mjs')

export interface Run { code: number, stdout: string, stderr: string }

/** The built command as a process, in `cwd`, colours off. */
export async function flatmcp(args: string[], cwd: string): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } })
    return { code: 0, stdout, stderr }
  }
  catch (error) {
    const e = error as { code: number, stdout: string, stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/**
 * The same command line run in this process, in `cwd`, colours off: what it prints to stdout and
 * stderr, and the exit code it would end with. Runs one at a time (it changes the working folder).
 */
export async function flatmcpInProcess(args: string[], cwd: string): Promise<Run> {
  const stdout: string[] = []
  const stderr: string[] = []
  const into = (lines: string[]) => (...data: unknown[]): void => {
    lines.push(`${format(...data)}\n`)
  }
  const written = (lines: string[]) => (chunk: string | Uint8Array): boolean => {
    lines.push(String(chunk))
    return true
  }
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(into(stdout)),
    vi.spyOn(console, 'info').mockImplementation(into(stdout)),
    vi.spyOn(console, 'error').mockImplementation(into(stderr)),
    vi.spyOn(console, 'warn').mockImplementation(into(stderr)),
    vi.spyOn(process.stdout, 'write').mockImplementation(written(stdout) as typeof process.stdout.write),
    vi.spyOn(process.stderr, 'write').mockImplementation(written(stderr) as typeof process.stderr.write),
  ]
  const was = process.cwd()
  vi.stubEnv('NO_COLOR', '1')
  try {
    process.chdir(cwd)
    const code = await runCommandLine(args)
    return { code, stdout: stdout.join(''), stderr: stderr.join('') }
  }
  finally {
    process.chdir(was)
    vi.unstubAllEnvs()
    for (const spy of spies)
      spy.mockRestore()
  }
}
