import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { packageEntries, PACKAGES } from './scripts/entries'

const source = (file: string): string => fileURLToPath(new URL(file, import.meta.url))

export default defineConfig({
  // Tests run the workspace packages from their sources, each entry its package.json exports. Aliases
  // (not export conditions) do it, so code the plugin evaluates natively at build time still gets the
  // packages' built dist.
  resolve: {
    alias: PACKAGES.flatMap(folder => packageEntries(folder).map(({ specifier, source: file }) => ({
      find: new RegExp(`^${specifier.replaceAll('/', '\\/')}$`),
      replacement: source(`packages/${folder}/${file}`),
    }))),
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
