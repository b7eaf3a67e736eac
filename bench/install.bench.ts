// What a user installs: the plugin and the runtime, packed as publishing packs them and installed with
// npm into a fresh project, next to unplugin-auto-import (a plugin people already install); and the
// standalone coercer bundled from the installed package as a user would import it.
import { execFileSync } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

export interface Footprint { bytes: number, packages: number }
export interface InstallResults { flatmcp: Footprint, flatmcpAlone: Footprint, autoImport: Footprint, coercer: { min: number, gzip: number } }

/** Bytes on disk (file sizes, hard links once) and packages (folders with a package.json directly in a node_modules). */
function footprint(nodeModules: string): Footprint {
  let bytes = 0
  let packages = 0
  const seen = new Set<string>()
  const walk = (dir: string, inNodeModules: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isSymbolicLink())
        continue
      if (entry.isDirectory()) {
        const isPackage = inNodeModules && !entry.name.startsWith('@') && !entry.name.startsWith('.')
        if (isPackage)
          packages++
        walk(full, entry.name === 'node_modules' || (inNodeModules && entry.name.startsWith('@')))
      }
      else {
        // A file hard-linked twice (esbuild's binary) takes its space once.
        const stat = lstatSync(full)
        const inode = `${stat.dev}:${stat.ino}`
        if (!seen.has(inode)) {
          seen.add(inode)
          bytes += stat.size
        }
      }
    }
  }
  walk(nodeModules, true)
  return { bytes, packages }
}

/** npm installs the dependencies and, unless `peers` is false, their required peers (as npm 7+ does). */
function install(dir: string, dependencies: Record<string, string>, peers = true): Footprint {
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'footprint', private: true, type: 'module', dependencies }))
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', ...peers ? [] : ['--legacy-peer-deps']], { cwd: dir, stdio: 'ignore' })
  return footprint(path.join(dir, 'node_modules'))
}

export async function runInstall(log: (line: string) => void): Promise<InstallResults> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'flatmcp-footprint-'))
  try {
    log('install footprint: packing')
    const tarballs = path.join(work, 'tarballs')
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/pack.mjs'), tarballs], { stdio: 'ignore' })
    const tarball = (prefix: string): string => `file:${path.join(tarballs, readdirSync(tarballs).find(f => f.startsWith(prefix))!)}`
    log('install footprint: npm install')
    const ours = path.join(work, 'flatmcp')
    const packages = { '@flatmcp/core': tarball('flatmcp-core-'), '@flatmcp/runtime': tarball('flatmcp-runtime-'), 'unplugin-flatmcp': tarball('unplugin-flatmcp-') }
    const flatmcp = install(ours, packages)
    const flatmcpAlone = install(path.join(work, 'flatmcp-alone'), packages, false)
    const autoImport = install(path.join(work, 'auto-import'), { 'unplugin-auto-import': 'latest' })
    writeFileSync(path.join(ours, 'coerce-only.mjs'), `export { coerceArgs } from '@flatmcp/runtime/coerce'\n`)
    const bundled = await build({ absWorkingDir: ours, entryPoints: ['coerce-only.mjs'], bundle: true, minify: true, platform: 'neutral', format: 'esm', write: false, logLevel: 'silent' })
    const code = bundled.outputFiles[0]!.contents
    return { flatmcp, flatmcpAlone, autoImport, coercer: { min: code.length, gzip: gzipSync(code, { level: 9 }).length } }
  }
  finally {
    rmSync(work, { recursive: true, force: true })
  }
}
