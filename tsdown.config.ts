import { defineConfig } from 'tsdown'

const bundlers = ['vite', 'rollup', 'rolldown', 'esbuild', 'webpack', 'rspack']

/** Each package builds its own dist; its dependencies stay imports (tsdown reads its package.json). */
export default defineConfig([
  { cwd: 'packages/core', entry: { index: 'src/index.ts' } },
  { cwd: 'packages/runtime', entry: { index: 'src/index.ts' } },
  { cwd: 'packages/unplugin', entry: Object.fromEntries([['index', 'src/index.ts'], ...bundlers.map(b => [b, `src/${b}.ts`])]) },
  { cwd: 'packages/cli', entry: { index: 'src/index.ts', cli: 'src/cli.ts' } },
].map(config => ({ ...config, format: 'esm' as const, platform: 'node' as const, target: 'node20', dts: false, clean: true, logLevel: 'warn' as const })))
