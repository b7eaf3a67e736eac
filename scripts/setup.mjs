// Installs the workspace with the pnpm version pinned in package.json, so a machine with only
// Node and npm can run every script. pnpm is fetched through npx and cached by npm.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const root = new URL('..', import.meta.url)
const { packageManager } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const args = ['--yes', packageManager, 'install', '--frozen-lockfile', '--reporter=append-only']
if (process.argv.includes('--update'))
  args.splice(args.indexOf('--frozen-lockfile'), 1)

execFileSync(npx, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] })
