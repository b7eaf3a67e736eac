// scripts/setup.mjs installs the workspace with the pinned pnpm through npx, and not again while the
// install matches what it was made from. Run on a copy of the script in a scratch workspace, with an
// npx on PATH that records what it was asked and makes what pnpm would.
import { execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'

const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-setup-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const LOCK = 'lockfileVersion: \'9.0\'\n\nimporters:\n\n  .:\n    devDependencies: {}\n\n  packages/a:\n    dependencies: {}\n\npackages: {}\n'

/** A workspace of two folders, the script copied in, and a fake npx that logs its arguments. */
function workspace(name: string, exit = 0): { dir: string, run: (...args: string[]) => { asked: string[] } } {
  const dir = path.join(scratch, name)
  const bin = path.join(dir, 'bin')
  mkdirSync(path.join(dir, 'scripts'), { recursive: true })
  mkdirSync(path.join(dir, 'packages/a'), { recursive: true })
  mkdirSync(bin)
  copyFileSync(path.join(ROOT, 'scripts/setup.mjs'), path.join(dir, 'scripts/setup.mjs'))
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'w', packageManager: 'pnpm@10.0.0' }))
  writeFileSync(path.join(dir, 'packages/a/package.json'), JSON.stringify({ name: 'a', version: '1.0.0' }))
  writeFileSync(path.join(dir, 'pnpm-lock.yaml'), LOCK)
  const log = path.join(dir, 'npx.log')
  writeFileSync(path.join(bin, 'npx'), `#!/bin/sh\necho "$*" >> "${log}"\nmkdir -p node_modules && touch node_modules/.modules.yaml\nexit ${exit}\n`)
  chmodSync(path.join(bin, 'npx'), 0o755)
  // What npx was asked, one line per run of it (a failed run of the script throws, saying why).
  const run = (...args: string[]): { asked: string[] } => {
    execFileSync(process.execPath, ['scripts/setup.mjs', ...args], { cwd: dir, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, stdio: ['ignore', 'pipe', 'pipe'] })
    return { asked: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [] }
  }
  return { dir, run }
}

describe('scripts/setup.mjs', () => {
  it('installs once, then not again until the lockfile, a package.json or the pinned pnpm changes; --force and --update install anyway', () => {
    const { dir, run } = workspace('again')
    expect(run().asked).toEqual(['--yes pnpm@10.0.0 install --frozen-lockfile --reporter=append-only'])
    expect(run().asked).toHaveLength(1)
    writeFileSync(path.join(dir, 'packages/a/package.json'), JSON.stringify({ name: 'a', version: '1.0.1' }))
    expect(run().asked).toHaveLength(2)
    expect(run().asked).toHaveLength(2)
    writeFileSync(path.join(dir, 'pnpm-lock.yaml'), `${LOCK}\n`)
    expect(run().asked).toHaveLength(3)
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'w', packageManager: 'pnpm@10.0.1' }))
    expect(run().asked.at(-1)).toBe('--yes pnpm@10.0.1 install --frozen-lockfile --reporter=append-only')
    expect(run().asked).toHaveLength(4)
    expect(run('--force').asked).toHaveLength(5)
    expect(run('--update').asked.at(-1)).toBe('--yes pnpm@10.0.1 install --reporter=append-only')
  })

  it('installs again where node_modules was removed, and writes no stamp for a failed install', () => {
    const { dir, run } = workspace('removed')
    run()
    rmSync(path.join(dir, 'node_modules'), { recursive: true })
    expect(run().asked).toHaveLength(2)
    const failing = workspace('failing', 1)
    expect(() => failing.run()).toThrow(/the install failed \(exit 1\)/)
    expect(existsSync(path.join(failing.dir, 'node_modules/.flatmcp-installed'))).toBe(false)
    expect(() => failing.run()).toThrow(/the install failed/)
    expect(readFileSync(path.join(failing.dir, 'npx.log'), 'utf8').trim().split('\n')).toHaveLength(2)
  })
})
