// The real Python MCP stack for the tests that need it: a virtual environment in the cache folder,
// made once per requirements file from the machine's own package index. Where python3 is missing the
// tests skip and say so; under CI (FLATMCP_REQUIRE_PYTHON=1) a missing stack is a failure instead.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './client'

export const PYTHON_DIR = join(ROOT, 'test', 'python')
const REQUIRED = process.env.FLATMCP_REQUIRE_PYTHON === '1'

/** The venv's interpreter, or why there is none. */
export type PythonStack = { python: string } | { skipped: string }

function run(command: string, args: string[]): { ok: boolean, output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 600_000 })
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}` }
}

let cached: PythonStack | undefined

/**
 * The interpreter of a venv holding `test/python/requirements.txt`, made on first use (about 20 s)
 * and kept under `node_modules/.cache/flatmcp-python`, keyed by the requirements' hash.
 */
export function pythonStack(): PythonStack {
  if (cached)
    return cached
  const requirements = join(PYTHON_DIR, 'requirements.txt')
  const key = createHash('sha256').update(readFileSync(requirements)).digest('hex').slice(0, 12)
  const dir = join(ROOT, 'node_modules', '.cache', 'flatmcp-python', key)
  const python = join(dir, 'bin', 'python')
  const ready = join(dir, '.ready')
  if (existsSync(ready))
    return cached = { python }
  const system = run('python3', ['--version'])
  if (!system.ok)
    return cached = fail('no python3')
  // Test files run two at a time: one makes the venv, the others wait for it (a lock left by a run
  // that was killed is taken over once it is older than the longest install).
  const lock = `${dir}.lock`
  mkdirSync(join(dir, '..'), { recursive: true })
  if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS)
    rmSync(lock, { recursive: true, force: true })
  try {
    mkdirSync(lock)
  }
  catch {
    const until = Date.now() + LOCK_STALE_MS
    while (!existsSync(ready) && existsSync(lock) && Date.now() < until)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500)
    return cached = existsSync(ready) ? { python } : fail('another test worker could not make the venv (see its failure)')
  }
  try {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const venv = run('python3', ['-m', 'venv', dir])
    if (!venv.ok)
      return cached = fail(`python3 -m venv failed: ${venv.output.trim().slice(-400)}`)
    // --retries 0: the machine's pip has a local index; the default one may be unreachable.
    const pip = run(python, ['-m', 'pip', 'install', '--retries', '0', '--disable-pip-version-check', '-q', '-r', requirements])
    if (!pip.ok)
      return cached = fail(`pip could not install ${requirements}: ${pip.output.trim().slice(-600)}`)
    writeFileSync(ready, 'installed\n')
    return cached = { python }
  }
  finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** How long one worker may take to make the venv before another takes its lock over. */
const LOCK_STALE_MS = 900_000

function fail(reason: string): PythonStack {
  if (REQUIRED)
    throw new Error(`the Python MCP stack is required here (FLATMCP_REQUIRE_PYTHON=1): ${reason}`)
  console.warn(`skipped: ${reason} (the tests that serve tools with the real Python MCP SDKs need it)`)
  return { skipped: reason }
}
