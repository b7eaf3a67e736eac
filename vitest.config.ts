import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const source = (file: string): string => fileURLToPath(new URL(file, import.meta.url))
const bundlers = ['vite', 'rollup', 'rolldown', 'esbuild', 'webpack', 'rspack']

export default defineConfig({
  // Tests run the workspace packages from their sources. Aliases (not export conditions) do it, so
  // code the plugin evaluates natively at build time still gets the packages' built dist.
  resolve: {
    alias: [
      { find: /^@flatmcp\/core$/, replacement: source('packages/core/src/index.ts') },
      { find: /^@flatmcp\/runtime$/, replacement: source('packages/runtime/src/index.ts') },
      { find: /^@flatmcp\/runtime\/(sdk|server|coerce|artifact|proxy)$/, replacement: source('packages/runtime/src/$1.ts') },
      { find: /^@flatmcp\/runtime\/proxy\/fetch$/, replacement: source('packages/runtime/src/proxy-fetch.ts') },
      { find: /^@flatmcp\/runtime\/proxy\/spawn$/, replacement: source('packages/runtime/src/proxy-spawn.ts') },
      { find: /^unplugin-flatmcp$/, replacement: source('packages/unplugin/src/index.ts') },
      { find: /^flatmcp$/, replacement: source('packages/cli/src/index.ts') },
      ...bundlers.map(b => ({ find: new RegExp(`^unplugin-flatmcp/${b}$`), replacement: source(`packages/unplugin/src/${b}.ts`) })),
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['packages/*/test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // A bound on hangs, not on speed (test/support/timeouts.ts): a busy machine must not fail the suite.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // Two files at once, whatever the cores: most of the end-to-end files wait on processes they start
    // (servers, bundlers, installs), so on 2 cores the suite takes about 7 minutes this way against
    // about 13 one file at a time (vitest's default there is cores - 1).
    maxWorkers: 2,
  },
})
