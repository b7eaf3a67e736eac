import { defineConfig } from 'tsdown'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { packageEntries } from './scripts/entries'
import { bundledLicenses } from './scripts/bundled-licenses'
import { chunkContents } from './scripts/chunk-contents'

/** A package's entries as its package.json exports them, and the files besides them it loads by path. */
function entry(folder: string, besides: Record<string, string> = {}): Record<string, string> {
  return { ...Object.fromEntries(packageEntries(folder).map(({ name, source }) => [name, source])), ...besides }
}

/** What the proxy's chunk inlines: the runtime, the MCP SDK (client, server and their core, with what they import) and zod. */
const INLINED = /^(?:@flatmcp\/runtime|@modelcontextprotocol\/(?:client|server|core)|zod)(?:\/|$)/

/** The command's own dependencies, which the chunk imports as the installed package has them, less those it inlines. */
function importedByChunk(): (id: string) => boolean {
  const manifest = JSON.parse(readFileSync('packages/cli/package.json', 'utf8')) as Record<string, Record<string, string> | undefined>
  const names = ['dependencies', 'optionalDependencies', 'peerDependencies'].flatMap(field => Object.keys(manifest[field] ?? {}))
  const own = names.filter(name => !INLINED.test(name))
  return id => own.some(name => id === name || id.startsWith(`${name}/`))
}

/**
 * The proxy command's path as one chunk (packages/cli/dist/proxy, loaded by `#proxy/serve`), built
 * after the packages it inlines: one copy of the runtime, the SDK's ajv loaded on first use
 * (sdk-shims.ts), and the compiler's thread beside it, where the runtime looks for it. The compiler,
 * the build pipeline, parsers of files, ajv and OpenTelemetry stay imports. Beside the chunk: what
 * each file holds (contents.json) and the inlined packages' licences (THIRD-PARTY-LICENSES.md).
 */
const proxyChunk = {
  cwd: 'packages/cli',
  name: 'flatmcp proxy chunk',
  entry: {
    'start': 'src/proxy/chunk/start.ts',
    'serve': 'src/proxy/chunk/serve.ts',
    'proxy-compile-worker': '../runtime/src/proxy/compile/compile-worker.ts',
  },
  outDir: 'dist/proxy',
  dts: false,
  deps: { neverBundle: importedByChunk(), alwaysBundle: [/^[^./]/] },
  alias: Object.fromEntries(['client', 'server'].map(side => [`@modelcontextprotocol/${side}/_shims`, path.resolve('packages/cli/src/proxy/chunk/sdk-shims.ts')])),
  plugins: [chunkContents(), bundledLicenses()],
}

/**
 * Each package builds its own dist; its dependencies stay imports (tsdown reads its package.json).
 * `npm run build` builds the compiler first: the runtime's declarations take the compiler types they
 * name from its built declarations.
 */
export default defineConfig([
  { cwd: 'packages/core', entry: entry('core') },
  // The compiler is an optional peer of the runtime: its declarations carry the compiler types they
  // name (its code only imports the compiler lazily, by a variable specifier).
  { cwd: 'packages/runtime', entry: entry('runtime', { 'proxy-compile-worker': 'src/proxy/compile/compile-worker.ts' }), deps: { neverBundle: [/^(?!@flatmcp\/core)[^./]/], alwaysBundle: ['@flatmcp/core'] }, dts: { eager: true } },
  { cwd: 'packages/unplugin', entry: entry('unplugin') },
  // The command's bin (bin/flatmcp.mjs) loads dist/cli.mjs.
  { cwd: 'packages/cli', name: 'flatmcp', entry: entry('cli', { cli: 'src/cli.ts' }) },
  proxyChunk,
].map(config => ({
  format: 'esm' as const,
  platform: 'node' as const,
  target: 'node20',
  dts: true,
  // Every package import stays an import, in code and in declarations.
  deps: { neverBundle: [/^[^./]/] },
  clean: true,
  logLevel: 'warn' as const,
  inputOptions: { checks: { pluginTimings: false } },
  ...config,
})))
