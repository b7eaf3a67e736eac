// Installs the workspace with the pnpm version pinned in package.json, so a machine with only
// Node and npm can run every script. pnpm is fetched through npx and cached by npm. What pnpm
// prints is shown only when the install fails: the demo and the tests start with their own output.
// An install that already matches what it was made from (the pinned pnpm, the platform, the
// lockfile, the workspace's settings and each workspace folder's package.json, and pnpm's own record
// of a whole install: a stamp in node_modules says which) is not run again; `--force` runs it anyway.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const at = (...parts) => path.join(root, ...parts)
const { packageManager } = JSON.parse(readFileSync(at('package.json'), 'utf8'))
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const update = process.argv.includes('--update')
const args = ['--yes', packageManager, 'install', '--frozen-lockfile', '--reporter=append-only']
if (update)
  args.splice(args.indexOf('--frozen-lockfile'), 1)

const stamp = at('node_modules', '.flatmcp-installed')
const wanted = installStamp()
if (!update && !process.argv.includes('--force') && wanted !== null && readOrEmpty(stamp) === `${wanted}${installed()}`) {
  console.error('› the workspace is installed as its lockfile says (node scripts/setup.mjs --force installs again)')
  process.exit(0)
}

console.error(`› installing the workspace with ${packageManager} (a minute or two the first time)`)
// An install that is interrupted or fails leaves node_modules part old, part new: no stamp may vouch for it.
try {
  rmSync(stamp, { force: true })
}
catch {
  // A stamp that cannot be removed (a folder in its place) is not one the check reads as a match.
}
const started = Date.now()
// Node 20.12.2+ runs a .cmd only through a shell (the arguments here are fixed words, nothing to quote).
const install = spawnSync(npx, args, { shell: process.platform === 'win32', cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
if (install.status !== 0) {
  process.stderr.write(`${install.stdout ?? ''}${install.stderr ?? ''}`)
  console.error(`› the install failed (${install.error?.message ?? `exit ${install.status}`})`)
  process.exit(install.status || 1)
}
// What the install began from (a file changed while it ran makes the next run install again); --update rewrote the lockfile.
const made = update ? installStamp() : wanted
if (made !== null && installed() !== '') {
  try {
    writeFileSync(`${stamp}.${process.pid}`, `${made}${installed()}`)
    renameSync(`${stamp}.${process.pid}`, stamp)
  }
  catch (error) {
    rmSync(`${stamp}.${process.pid}`, { force: true })
    console.error(`› the install is not recorded (${error.message}): the next run installs again`)
  }
}
console.error(`› installed in ${((Date.now() - started) / 1000).toFixed(1)} s`)

/** A file's text, or '' where there is none (or it is no file). */
function readOrEmpty(file) {
  try {
    return statSync(file).isFile() ? readFileSync(file, 'utf8') : ''
  }
  catch {
    return ''
  }
}

/** pnpm's own record of the install it made (rewritten by any later pnpm run), or '' where it shows an install that is not the whole workspace. */
function installed() {
  const modules = readOrEmpty(at('node_modules', '.modules.yaml'))
  let included
  try {
    included = JSON.parse(modules).included
  }
  catch {
    return ''
  }
  if (!included?.dependencies || !included.devDependencies || !included.optionalDependencies)
    return ''
  return createHash('sha256').update(modules).update(readOrEmpty(at('node_modules', '.pnpm', 'lock.yaml'))).digest('hex')
}

/** A YAML scalar without its quotes. */
function unquote(text) {
  return /^'(.*)'$/.exec(text)?.[1].replaceAll('\'\'', '\'') ?? /^"(.*)"$/.exec(text)?.[1] ?? text
}

/** The workspace folders: each the lockfile names (in every YAML document of it), and each the workspace's globs match now; null where a glob is one this does not expand. */
function workspaceFolders(lock) {
  const folders = new Set(['.'])
  for (const [, block] of lock.matchAll(/^importers:\n((?: {2}.*\n|\n)*)/gm)) {
    for (const [, key] of block.matchAll(/^ {2}(\S.*):$/gm))
      folders.add(unquote(key))
  }
  const workspace = readOrEmpty(at('pnpm-workspace.yaml')).replace(/\r\n?/g, '\n')
  const list = /^packages:\n((?:[ \t]+-.*\n|[ \t]*#.*\n|\n)*)/m.exec(workspace)?.[1] ?? ''
  for (const [, item] of list.matchAll(/^[ \t]+-[ \t]*(.*?)[ \t]*$/gm)) {
    const pattern = unquote(item).replace(/\/$/, '')
    if (pattern.startsWith('!'))
      continue
    const parent = /^([^*?[{!]+)\/\*$/.exec(pattern)?.[1]
    if (parent !== undefined) {
      let entries = []
      try {
        entries = readdirSync(at(parent))
      }
      catch {
        // No such folder: no workspace folder under it.
      }
      for (const name of entries) {
        if (existsSync(at(parent, name, 'package.json')))
          folders.add(`${parent}/${name}`)
      }
    }
    else if (/[*?[{]/.test(pattern)) {
      return null
    }
    else {
      folders.add(pattern)
    }
  }
  return [...folders].sort()
}

/** What the install depends on: the pinned pnpm, the platform, its settings, the lockfile and the package.json of each workspace folder; null where that cannot be told. */
function installStamp() {
  const lock = readOrEmpty(at('pnpm-lock.yaml'))
  const folders = workspaceFolders(lock.replace(/\r\n?/g, '\n'))
  if (folders === null)
    return null
  const glibc = process.report?.getReport().header.glibcVersionRuntime ?? ''
  const hash = createHash('sha256').update(`${packageManager} ${process.platform} ${process.arch} ${glibc} ${process.versions.modules}\n`).update(lock)
  for (const file of ['pnpm-workspace.yaml', '.npmrc', '.pnpmfile.cjs'])
    hash.update(`\n${file}\n`).update(readOrEmpty(at(file)))
  for (const folder of folders)
    hash.update(`\n${folder}\n`).update(readOrEmpty(at(folder, 'package.json')))
  return hash.digest('hex')
}
