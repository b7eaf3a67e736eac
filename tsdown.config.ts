import { defineConfig } from 'tsdown'
import { packageEntries } from './scripts/entries'

/** A package's entries as its package.json exports them, and the files besides them it loads by path. */
function entry(folder: string, besides: Record<string, string> = {}): Record<string, string> {
  return { ...Object.fromEntries(packageEntries(folder).map(({ name, source }) => [name, source])), ...besides }
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
  { cwd: 'packages/cli', entry: entry('cli', { cli: 'src/cli.ts' }) },
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
