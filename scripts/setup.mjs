// Installs the workspace with the pnpm version pinned in package.json, so a machine with only
// Node and npm can run every script. pnpm is fetched through npx and cached by npm. What pnpm
// prints is shown only when the install fails: the demo and the tests start with their own output.
// An install that already matches the lockfile, the pinned pnpm and every workspace package.json
// (a stamp in node_modules says which) is not run again; `--force` runs it anyway.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'

const root = new URL('..', import.meta.url)
const { packageManager } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const update = process.argv.includes('--update')
const args = ['--yes', packageManager, 'install', '--frozen-lockfile', '--reporter=append-only']
if (update)
  args.splice(args.indexOf('--frozen-lockfile'), 1)

const stamp = new URL('node_modules/.flatmcp-installed', root)
const wanted = installStamp()
if (!update && !process.argv.includes('--force') && existsSync(new URL('node_modules/.modules.yaml', root)) && readOrEmpty(stamp) === wanted) {
  console.error('› the workspace is installed as its lockfile says (node scripts/setup.mjs --force installs again)')
  process.exit(0)
}

console.error(`› installing the workspace with ${packageManager} (a minute or two the first time)`)
const started = Date.now()
const install = spawnSync(npx, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
if (install.status !== 0) {
  process.stderr.write(`${install.stdout ?? ''}${install.stderr ?? ''}`)
  console.error(`› the install failed (${install.error?.message ?? `exit ${install.status}`})`)
  process.exit(install.status || 1)
}
writeFileSync(stamp, installStamp())
console.error(`› installed in ${((Date.now() - started) / 1000).toFixed(1)} s`)

/** A file's text, or '' where there is none. */
function readOrEmpty(file) {
  return existsSync(file) ? readFileSync(file, 'utf8') : ''
}

/** What the install depends on: the pinned pnpm, its settings, the lockfile and the package.json of each folder it names. */
function installStamp() {
  const lock = readOrEmpty(new URL('pnpm-lock.yaml', root))
  const importers = /^importers:\n((?: {2}.*\n|\n)*)/m.exec(lock)?.[1] ?? ''
  const folders = [...importers.matchAll(/^ {2}(\S[^:]*):$/gm)].map(match => match[1])
  const hash = createHash('sha256').update(`${packageManager}\n`).update(lock)
  for (const file of ['pnpm-workspace.yaml', '.npmrc'])
    hash.update(`\n${file}\n`).update(readOrEmpty(new URL(file, root)))
  for (const folder of folders.length > 0 ? folders : ['.'])
    hash.update(`\n${folder}\n`).update(readOrEmpty(new URL(`${folder}/package.json`, root)))
  return `${hash.digest('hex')}\n`
}
