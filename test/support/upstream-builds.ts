// The TypeScript servers the end-to-end tests start as processes (the proxy's upstreams, the example
// servers), bundled once per run by esbuild (the e2e lane's globalSetup, vitest.config.ts) and found by
// every file through vitest's provide/inject:
// a start is then node reading one file, where tsx compiled the SDK's sources at each start (about
// a second of CPU, and a file starts dozens). Outside vitest (the benches) they run from source.
import type { TestProject } from 'vitest/node'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { basename, join } from 'node:path'
import { ROOT, TS_NODE } from './client'

/** Each server run from a build, by its source (the bundles are named for their sources, so no two may share a file name). */
export const UPSTREAM_SOURCES = {
  upstreamV2: 'test/support/upstream-v2.ts',
  upstreamOutputs: 'test/support/upstream-outputs.ts',
  rounds: 'test/support/rounds-upstream.ts',
  exampleStdio: 'examples/chat-server/src/stdio.ts',
  exampleStdioV2: 'examples/chat-server/src/stdio-v2.ts',
  exampleHttp: 'examples/chat-server/src/http.ts',
  exampleHttpV2: 'examples/chat-server/src/http-v2.ts',
  exampleFlatV2: 'examples/chat-server/src/flat-v2.ts',
  exampleFlatHttpV2: 'examples/chat-server/src/flat-http-v2.ts',
  exampleFlatTmcp: 'examples/chat-server/src/flat-tmcp.ts',
  exampleFlatFastmcp: 'examples/chat-server/src/flat-fastmcp.ts',
  exampleFlatMcpHandler: 'examples/chat-server/src/flat-mcp-handler.ts',
} as const

export type Upstream = keyof typeof UPSTREAM_SOURCES

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each upstream's bundle, by its name in UPSTREAM_SOURCES. */
    upstreamBuilds: Record<Upstream, string>
  }
}

// The SDK 1.x and its validator are CommonJS: in an ES module bundle their `require` of node's own
// modules needs one (under a name no bundled module imports: fastmcp's own code imports createRequire).
const REQUIRE = 'import { createRequire as bundleRequire } from \'node:module\'; const require = bundleRequire(import.meta.url);'

// Schema libraries fastmcp's converter (xsschema) imports only if installed: the workspace has not
// this one, so it stays an import that fails at run time and is caught, as it is from source.
const OPTIONAL = ['sury']

/** vitest's globalSetup: bundles every upstream into a folder of its own, removed after the run. */
export default async function buildUpstreams(project: TestProject): Promise<() => void> {
  const { build } = await import('esbuild')
  // Inside the workspace's node_modules: what a bundle imports at run time (the runtime's
  // `@flatmcp/core`, for a tool built without the plugin) resolves there as it does from source.
  const cache = join(ROOT, 'node_modules/.cache')
  mkdirSync(cache, { recursive: true })
  const folder = mkdtempSync(join(cache, 'flatmcp-upstreams-'))
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
    external: OPTIONAL,
    logLevel: 'warning',
  })))
  project.provide('upstreamBuilds', built)
  return () => rmSync(folder, { recursive: true, force: true })
}

/** The command that starts a server: its bundle under vitest, else its source through tsx. */
export async function upstreamCommand(name: Upstream): Promise<string[]> {
  const built = process.env.VITEST === undefined ? undefined : (await import('vitest')).inject('upstreamBuilds')?.[name]
  return built === undefined ? [...TS_NODE, join(ROOT, UPSTREAM_SOURCES[name])] : [process.execPath, built]
}
