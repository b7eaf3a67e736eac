// Installs the workspace with the pnpm version pinned in package.json, so a machine with only
// Node and npm can run every script. pnpm is fetched through npx and cached by npm. What pnpm
// prints is shown only when the install fails: the demo and the tests start with their own output.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const root = new URL('..', import.meta.url)
const { packageManager } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const args = ['--yes', packageManager, 'install', '--frozen-lockfile', '--reporter=append-only']
if (process.argv.includes('--update'))
  args.splice(args.indexOf('--frozen-lockfile'), 1)

console.error(`› installing the workspace with ${packageManager} (a minute or two the first time)`)
const started = Date.now()
const install = spawnSync(npx, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
if (install.status !== 0) {
  process.stderr.write(`${install.stdout ?? ''}${install.stderr ?? ''}`)
  console.error(`› the install failed (${install.error?.message ?? `exit ${install.status}`})`)
  process.exit(install.status || 1)
}
console.error(`› installed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
