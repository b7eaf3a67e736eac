// Build cost of the plugin: per tool module, cold (empty cache) and warm, and an incremental rebuild
// after an edit, for vite, rollup and esbuild, each against the same build without the plugin.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { build as esbuild, context } from 'esbuild'
import { rollup } from 'rollup'
import esbuildPlugin from 'rollup-plugin-esbuild'
import flatmcpEsbuild from 'unplugin-flatmcp/esbuild'
import flatmcpRollup from 'unplugin-flatmcp/rollup'
import flatmcpVite from 'unplugin-flatmcp/vite'
import { build as vite } from 'vite'
import { median } from './measure'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const DIR = path.join(HERE, '.work/build')
export const MODULES = 10
const TOOLS_PER_MODULE = 10
const RUNS = 3

export type Bundler = 'vite' | 'rollup' | 'esbuild'
export const BUNDLERS: Bundler[] = ['vite', 'rollup', 'esbuild']
export interface BuildResults { [bundler: string]: { baseline: number, cold: number, warm: number, rebuild: number, rebuildBaseline: number } }

function writeProject(edit = 0): void {
  mkdirSync(path.join(DIR, 'src'), { recursive: true })
  const catalog = path.relative(path.join(DIR, 'src'), path.join(HERE, 'catalog')).split(path.sep).join('/')
  for (let m = 0; m < MODULES; m++) {
    const lines = [`import { toolAt } from '${catalog}'`, `// edit ${m === 0 ? edit : 0}`]
    for (let t = 0; t < TOOLS_PER_MODULE; t++)
      lines.push(`export const tool${t} = toolAt(${m * TOOLS_PER_MODULE + t})`)
    writeFileSync(path.join(DIR, `src/m${m}.tools.ts`), `${lines.join('\n')}\n`)
  }
  writeFileSync(path.join(DIR, 'src/server.ts'), `${Array.from({ length: MODULES }, (_, m) => `export * as m${m} from './m${m}.tools'`).join('\n')}\n`)
}

const external = (id: string): boolean => !id.startsWith('.') && !path.isAbsolute(id)
const clearCache = (): void => rmSync(path.join(DIR, 'node_modules/.cache'), { recursive: true, force: true })

const builders: Record<Bundler, (plugin: boolean) => Promise<void>> = {
  esbuild: async (plugin) => {
    await esbuild({ absWorkingDir: DIR, entryPoints: ['src/server.ts'], outdir: 'dist/esbuild', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: plugin ? [flatmcpEsbuild({ root: DIR })] : [] })
  },
  rollup: async (plugin) => {
    const bundle = await rollup({ input: path.join(DIR, 'src/server.ts'), external, plugins: [...(plugin ? [flatmcpRollup({ root: DIR })] : []), esbuildPlugin()] })
    await bundle.write({ dir: path.join(DIR, 'dist/rollup'), format: 'es' })
    await bundle.close()
  },
  vite: async (plugin) => {
    await vite({ root: DIR, configFile: false, logLevel: 'silent', plugins: plugin ? [flatmcpVite()] : [], ssr: { external: true }, build: { ssr: 'src/server.ts', outDir: 'dist/vite', emptyOutDir: true } })
  },
}

async function time(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now()
  await fn()
  return performance.now() - t0
}

async function timesOf(fn: () => Promise<void>, before?: () => void): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    before?.()
    samples.push(await time(fn))
  }
  return median(samples)
}

/** Time to rebuild after editing one tool module: esbuild's incremental context, rollup's cache, Vite's watcher. */
async function rebuild(bundler: Bundler, plugin: boolean): Promise<number> {
  let edit = 1
  const next = (): void => writeProject(edit++)
  if (bundler === 'esbuild') {
    const ctx = await context({ absWorkingDir: DIR, entryPoints: ['src/server.ts'], outdir: 'dist/esbuild', bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'silent', plugins: plugin ? [flatmcpEsbuild({ root: DIR })] : [] })
    await ctx.rebuild()
    const result = await timesOf(() => ctx.rebuild().then(() => {}), next)
    await ctx.dispose()
    return result
  }
  if (bundler === 'rollup') {
    const plugins = [...(plugin ? [flatmcpRollup({ root: DIR })] : []), esbuildPlugin()]
    let cache = (await rollup({ input: path.join(DIR, 'src/server.ts'), external, plugins })).cache
    return timesOf(async () => {
      const bundle = await rollup({ input: path.join(DIR, 'src/server.ts'), external, plugins, cache })
      cache = bundle.cache
      await bundle.write({ dir: path.join(DIR, 'dist/rollup'), format: 'es' })
      await bundle.close()
    }, next)
  }
  // Vite: its watcher reports how long each rebuild took; wait for the one our edit started.
  type WatchEvent = { code: string, duration?: number, result?: { close: () => void } }
  const watcher = await vite({ root: DIR, configFile: false, logLevel: 'silent', plugins: plugin ? [flatmcpVite()] : [], ssr: { external: true }, build: { ssr: 'src/server.ts', outDir: 'dist/vite', watch: {} } }) as unknown as { on: (event: string, fn: (e: WatchEvent) => void) => void, close: () => Promise<void> }
  let waiting: ((duration: number) => void) | undefined
  let started = false
  watcher.on('event', (e) => {
    if (e.code === 'BUNDLE_END')
      e.result?.close()
    if (e.code === 'START')
      started = true
    if (e.code === 'BUNDLE_END' && started && waiting) {
      waiting(e.duration ?? Number.NaN)
      waiting = undefined
    }
  })
  const rebuilt = (): Promise<number> => new Promise((resolve) => {
    started = false
    waiting = resolve
  })
  await rebuilt()
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const done = rebuilt()
    next()
    samples.push(await done)
  }
  await watcher.close()
  return median(samples)
}

export async function runBuild(log: (line: string) => void): Promise<BuildResults> {
  writeProject()
  const results: BuildResults = {}
  for (const bundler of BUNDLERS) {
    log(`build with ${bundler}`)
    const baseline = await timesOf(() => builders[bundler](false))
    const cold = await timesOf(() => builders[bundler](true), clearCache)
    const warm = await timesOf(() => builders[bundler](true))
    const rebuildBaseline = await rebuild(bundler, false)
    const rebuilt = await rebuild(bundler, true)
    results[bundler] = { baseline, cold, warm, rebuild: rebuilt, rebuildBaseline }
  }
  writeProject()
  return results
}
