// Packs the four packages into tarballs a project can install before they are in the registry:
// `npm run pack [-- <folder>]` (default: packed/). pnpm writes each workspace dependency as the
// version it links to; `npm pack` would leave `workspace:^` in, which npm cannot install.
//
// It also writes packed/standalone/flatmcp-<version>.tgz: the flatmcp command with the other three
// packages bundled inside it, which an operator installs alone (`npm i -g <it>`, or
// `npx --package <it> flatmcp proxy …`);
// its other dependencies come from the registry as any package's do.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const { packageManager } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const out = path.resolve(process.argv[2] ?? path.join(root, 'packed'))
const standalone = path.join(out, 'standalone')
const PACKAGES = ['core', 'runtime', 'unplugin', 'cli']

mkdirSync(standalone, { recursive: true })
for (const dir of [out, standalone]) {
  for (const file of readdirSync(dir).filter(file => file.endsWith('.tgz')))
    rmSync(path.join(dir, file))
}
// One pnpm process packs the four (a start of npx and pnpm each is seconds on a busy machine).
execFileSync(npx, ['--yes', packageManager, '--recursive', ...PACKAGES.flatMap(name => ['--filter', `./packages/${name}`]), 'pack', '--pack-destination', out], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
const tarballs = readdirSync(out).filter(file => file.endsWith('.tgz')).sort().map(file => path.join(out, file))
/** A package's tarball, by the name pack gives it (`flatmcp-core-0.1.0.tgz`: its name, a dash, its version). */
const tarballOf = name => tarballs.find(file => new RegExp(`^${name}-\\d`).test(path.basename(file)))

/** The command tarball with the other three inside it (`bundleDependencies`), and their dependencies as its own. */
function packStandalone() {
  const work = mkdtempSync(path.join(tmpdir(), 'flatmcp-standalone-'))
  try {
    const unpack = (tarball) => {
      const dir = mkdtempSync(path.join(work, 'unpacked-'))
      execFileSync('tar', ['-xzf', tarball, '-C', dir])
      return path.join(dir, 'package')
    }
    const cli = unpack(tarballOf('flatmcp'))
    const manifest = JSON.parse(readFileSync(path.join(cli, 'package.json'), 'utf8'))
    const bundled = []
    for (const name of ['flatmcp-core', 'flatmcp-runtime', 'unplugin-flatmcp']) {
      const dir = unpack(tarballOf(name))
      const inner = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
      bundled.push(inner.name)
      // What a bundled package needs from the registry, the command installs for it: npm takes a
      // bundled package's own dependencies to be bundled too (a global install then runs esbuild's
      // script before esbuild is there), so the bundled copy lists none.
      for (const [dependency, range] of Object.entries(inner.dependencies ?? {})) {
        if (!['@flatmcp/core', '@flatmcp/runtime', 'unplugin-flatmcp'].includes(dependency))
          manifest.dependencies[dependency] ??= range
      }
      delete inner.dependencies
      delete inner.peerDependencies
      delete inner.peerDependenciesMeta
      writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(inner, null, 2)}\n`)
      cpSync(dir, path.join(cli, 'node_modules', inner.name), { recursive: true })
    }
    for (const name of bundled)
      manifest.dependencies[name] = JSON.parse(readFileSync(path.join(cli, 'node_modules', name, 'package.json'), 'utf8')).version
    manifest.bundleDependencies = bundled
    manifest.dependencies = Object.fromEntries(Object.entries(manifest.dependencies).sort(([a], [b]) => a.localeCompare(b)))
    writeFileSync(path.join(cli, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
    execFileSync(npm, ['pack', '--pack-destination', standalone, '--loglevel=error'], { cwd: cli, stdio: ['ignore', 'ignore', 'inherit'] })
  }
  finally {
    rmSync(work, { recursive: true, force: true })
  }
  return path.join(standalone, readdirSync(standalone).find(file => file.endsWith('.tgz')))
}

const command = packStandalone()
const shown = file => path.relative(process.cwd(), file) || file
// The README's two install lines, the flatmcp packages' names replaced by their tarballs.
const runtime = tarballs.filter(file => /flatmcp-runtime-/.test(path.basename(file)))
const tools = tarballs.filter(file => !runtime.includes(file))
console.log([
  `packed ${tarballs.length} packages into ${shown(out)}:`,
  ...tarballs.map(file => `  ${shown(file)}`),
  '',
  'in your project (the Quick start\'s two lines):',
  `  npm i ${runtime.join(' ')} @modelcontextprotocol/server zod`,
  `  npm i -D ${tools.join(' ')} vite typescript`,
  '',
  `the flatmcp command alone, for an operator (proxy, snapshot, probe): ${shown(command)}`,
  `  npm i -g ${command}`,
  `  npx --package ${command} flatmcp proxy -- <your server's command>`,
].join('\n'))
