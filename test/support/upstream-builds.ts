// The TypeScript upstreams the proxy tests start as processes, bundled once per run by esbuild (the
// e2e lane's globalSetup, vitest.config.ts) and found by every file through vitest's provide/inject:
// a start is then node reading one file, where tsx compiled the SDK's sources at each start (about
// a second of CPU, and a file starts dozens). Outside vitest (the benches) they run from source.
import type { TestProject } from 'vitest/node'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { ROOT, TS_NODE } from './client'

/** Each upstream run from a build, by its source. */
export const UPSTREAM_SOURCES = {
  upstreamV2: 'test/support/upstream-v2.ts',
  upstreamOutputs: 'test/support/upstream-outputs.ts',
} as const

type Upstream = keyof typeof UPSTREAM_SOURCES

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each upstream's bundle, by its name in UPSTREAM_SOURCES. */
    upstreamBuilds: Record<Upstream, string>
  }
}

// The SDK 1.x and its validator are CommonJS: in an ES module bundle their `require` of node's own
// modules needs one.
const REQUIRE = 'import { createRequire } from \'node:module\'; const require = createRequire(import.meta.url);'

/** vitest's globalSetup: bundles every upstream into a folder of its own, removed after the run. */
export default async function buildUpstreams(project: TestProject): Promise<() => void> {
  const { build } = await import('esbuild')
  const folder = mkdtempSync(join(tmpdir(), 'flatmcp-upstreams-'))
  const built = Object.fromEntries(Object.entries(UPSTREAM_SOURCES)
    .map(([name, source]) => [name, join(folder, basename(source).replace(/\.ts$/, '.mjs'))])) as Record<Upstream, string>
  await Promise.all((Object.keys(UPSTREAM_SOURCES) as Upstream[]).map(name => build({
    entryPoints: [join(ROOT, UPSTREAM_SOURCES[name])],
    outfile: built[name],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: REQUIRE },
    logLevel: 'warning',
  })))
  project.provide('upstreamBuilds', built)
  return () => rmSync(folder, { recursive: true, force: true })
}

/** The command that starts an upstream: its bundle under vitest, else its source through tsx. */
export async function upstreamCommand(name: Upstream): Promise<string[]> {
  const built = process.env.VITEST === undefined ? undefined : (await import('vitest')).inject('upstreamBuilds')?.[name]
  return built === undefined ? [...TS_NODE, join(ROOT, UPSTREAM_SOURCES[name])] : [process.execPath, built]
}
