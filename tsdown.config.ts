import { defineConfig } from 'tsdown'

const bundlers = ['vite', 'rollup', 'rolldown', 'esbuild', 'webpack', 'rspack']

/**
 * Each package builds its own dist; its dependencies stay imports (tsdown reads its package.json).
 * `npm run build` builds the compiler first: the runtime's declarations take the compiler types they
 * name from its built declarations.
 */
export default defineConfig([
  { cwd: 'packages/core', entry: { index: 'src/index.ts' } },
  // The compiler is an optional peer of the runtime: its declarations carry the compiler types they
  // name (its code only imports the compiler lazily, by a variable specifier).
  { cwd: 'packages/runtime', entry: { index: 'src/index.ts', coerce: 'src/coerce.ts', artifact: 'src/artifact.ts', sdk: 'src/sdk.ts', server: 'src/server.ts', proxy: 'src/proxy.ts', 'proxy-spawn': 'src/proxy-spawn.ts', 'proxy-fetch': 'src/proxy-fetch.ts', 'proxy-compile-worker': 'src/proxy/compile/compile-worker.ts' }, deps: { neverBundle: [/^(?!@flatmcp\/core)[^./]/], alwaysBundle: ['@flatmcp/core'] }, dts: { eager: true } },
  { cwd: 'packages/unplugin', entry: Object.fromEntries([['index', 'src/index.ts'], ...bundlers.map(b => [b, `src/${b}.ts`]), ['internal', 'src/internal.ts']]) },
  { cwd: 'packages/cli', entry: { index: 'src/index.ts', cli: 'src/cli.ts' } },
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
