// scripts/setup.mjs installs the workspace with the pinned pnpm through npx, and not again while the
// install matches what it was made from. Run on a copy of the script in a scratch workspace, with an
// npx on PATH that logs what it was asked and writes what pnpm would.
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from './support/client'

const SCRIPT = path.join(ROOT, 'scripts/setup.mjs')
const scratch = mkdtempSync(path.join(tmpdir(), 'flatmcp-setup-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const LOCK = 'lockfileVersion: \'9.0\'\n\nimporters:\n\n  .:\n    devDependencies: {}\n\n  packages/a:\n    dependencies: {}\n\npackages: {}\n'

/** The test's workspace; its npx writes what pnpm would (a JSON .modules.yaml saying what it included, the current lockfile), and with FAKE_EXIT fails after changing node_modules. */
function workspace(name: string, lock = LOCK) {
  const dir = path.join(scratch, name)
  const bin = path.join(dir, 'bin')
  mkdirSync(path.join(dir, 'scripts'), { recursive: true })
  mkdirSync(path.join(dir, 'packages/a'), { recursive: true })
  mkdirSync(bin)
  copyFileSync(SCRIPT, path.join(dir, 'scripts/setup.mjs'))
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'w', packageManager: 'pnpm@10.0.0' }))
  writeFileSync(path.join(dir, 'packages/a/package.json'), JSON.stringify({ name: 'a', version: '1.0.0' }))
  writeFileSync(path.join(dir, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n')
  writeFileSync(path.join(dir, 'pnpm-lock.yaml'), lock)
  const log = path.join(dir, 'npx.log')
  writeFileSync(path.join(bin, 'npx'), `#!/bin/sh
echo "$*" >> "${log}"
mkdir -p node_modules/.pnpm && cp pnpm-lock.yaml node_modules/.pnpm/lock.yaml
[ -n "$FAKE_EXIT" ] && exit "$FAKE_EXIT"
dev=true; [ "$NODE_ENV" = production ] && dev=false
printf '{"included":{"dependencies":true,"devDependencies":%s,"optionalDependencies":true}}' $dev > node_modules/.modules.yaml
`)
  chmodSync(path.join(bin, 'npx'), 0o755)
  const env = (extra: Record<string, string> = {}) => ({ ...process.env, PATH: `${bin}:${process.env.PATH}`, ...extra })
  const installs = (): number => existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0
  const asked = (): string[] => existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []
  const run = (...args: string[]): number => {
    execFileSync(process.execPath, ['scripts/setup.mjs', ...args], { cwd: dir, env: env(), stdio: 'pipe' })
    return installs()
  }
  const runWith = (extra: Record<string, string>) => spawnSync(process.execPath, ['scripts/setup.mjs'], { cwd: dir, env: env(extra), stdio: 'pipe' })
  const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text)
  return { dir, run, runWith, write, asked }
}

describe('scripts/setup.mjs', () => {
  it('installs once, then not again until the lockfile, a package.json or the pinned pnpm changes; --force and --update install anyway', () => {
    const w = workspace('again')
    expect(w.run()).toBe(1)
    expect(w.asked()).toEqual(['--yes pnpm@10.0.0 install --frozen-lockfile --reporter=append-only'])
    expect(w.run()).toBe(1)
    w.write('packages/a/package.json', JSON.stringify({ name: 'a', version: '1.0.1' }))
    expect(w.run()).toBe(2)
    expect(w.run()).toBe(2)
    w.write('pnpm-lock.yaml', `${LOCK}\n`)
    expect(w.run()).toBe(3)
    w.write('package.json', JSON.stringify({ name: 'w', packageManager: 'pnpm@10.0.1' }))
    expect(w.run()).toBe(4)
    expect(w.asked().at(-1)).toBe('--yes pnpm@10.0.1 install --frozen-lockfile --reporter=append-only')
    expect(w.run()).toBe(4)
    expect(w.run('--force')).toBe(5)
    expect(w.run('--update')).toBe(6)
    expect(w.asked().at(-1)).toBe('--yes pnpm@10.0.1 install --reporter=append-only')
  })

  it('installs again where node_modules was removed, and a failed install says so and is not stamped', () => {
    const w = workspace('removed')
    w.run()
    rmSync(path.join(w.dir, 'node_modules'), { recursive: true })
    expect(w.run()).toBe(2)
    w.write('packages/a/package.json', JSON.stringify({ name: 'a', version: '1.0.1' }))
    const failed = w.runWith({ FAKE_EXIT: '1' })
    expect(failed.status).toBe(1)
    expect(String(failed.stderr)).toMatch(/the install failed \(exit 1\)/)
    expect(existsSync(path.join(w.dir, 'node_modules/.flatmcp-installed'))).toBe(false)
    expect(w.run()).toBe(4)
  })
})

describe('scripts/setup.mjs skips only an install that matches', () => {
  it('installs again after an install that failed or was interrupted, even once the files are back as they were', () => {
    const w = workspace('interrupted')
    expect(w.run()).toBe(1)
    w.write('pnpm-lock.yaml', LOCK.replace('dependencies: {}', 'dependencies: {x: 1}'))
    expect(w.runWith({ FAKE_EXIT: '130' }).status).not.toBe(0)
    w.write('pnpm-lock.yaml', LOCK)
    expect(w.run()).toBe(3)
  })

  it('sees a workspace package.json change whatever the lockfile\'s line endings, or its env document', () => {
    const locks: [string, string][] = [['crlf', LOCK.replaceAll('\n', '\r\n')], ['two-documents', `---\nlockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    packageManagerDependencies: {}\n\n---\n${LOCK}`]]
    for (const [name, lock] of locks) {
      const w = workspace(name, lock)
      expect(w.run()).toBe(1)
      w.write('packages/a/package.json', JSON.stringify({ name: 'a', version: '1.0.0', bin: 'a.js' }))
      expect(w.run(), name).toBe(2)
    }
  })

  it('installs for a workspace folder the lockfile does not name yet', () => {
    const w = workspace('new-folder')
    expect(w.run()).toBe(1)
    mkdirSync(path.join(w.dir, 'packages/b'))
    w.write('packages/b/package.json', JSON.stringify({ name: 'b', dependencies: { zod: '4' } }))
    expect(w.run()).toBe(2)
  })

  it('installs again where the last install left out devDependencies (NODE_ENV=production, or pnpm --prod by hand)', () => {
    const w = workspace('production')
    expect(w.runWith({ NODE_ENV: 'production' }).status).toBe(0)
    expect(w.run()).toBe(2)
    w.write('node_modules/.modules.yaml', '{"included":{"dependencies":true,"devDependencies":false,"optionalDependencies":true}}')
    expect(w.run()).toBe(3)
  })

  it('does not fail an install that succeeded when it cannot write its stamp', () => {
    const w = workspace('unwritable')
    mkdirSync(path.join(w.dir, 'node_modules/.flatmcp-installed'), { recursive: true })
    expect(w.runWith({}).status).toBe(0)
  })
})
