// Packs the four packages into tarballs a project can install before they are in the registry:
// `npm run pack [-- <folder>]` (default: packed/). pnpm writes each workspace dependency as the
// version it links to; `npm pack` would leave `workspace:^` in, which npm cannot install.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const { packageManager } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const out = path.resolve(process.argv[2] ?? path.join(root, 'packed'))
const PACKAGES = ['core', 'runtime', 'unplugin', 'cli']

mkdirSync(out, { recursive: true })
for (const file of readdirSync(out).filter(file => file.endsWith('.tgz')))
  rmSync(path.join(out, file))
for (const name of PACKAGES)
  execFileSync(npx, ['--yes', packageManager, 'pack', '--pack-destination', out], { cwd: path.join(root, 'packages', name), stdio: ['ignore', 'ignore', 'inherit'] })

const tarballs = readdirSync(out).filter(file => file.endsWith('.tgz')).sort().map(file => path.join(out, file))
const shown = tarballs.map(file => path.relative(process.cwd(), file) || file)
console.log(`packed ${tarballs.length} packages into ${path.relative(process.cwd(), out) || '.'}:\n${shown.map(file => `  ${file}`).join('\n')}\n\nin your project:\n  npm i ${shown.filter(file => /flatmcp-runtime-/.test(file)).map(file => path.resolve(file)).join(' ')} zod\n  npm i -D ${shown.filter(file => !/flatmcp-runtime-/.test(file)).map(file => path.resolve(file)).join(' ')}`)
