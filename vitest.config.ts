import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import { packageEntries, PACKAGES } from './scripts/entries'

const source = (file: string): string => fileURLToPath(new URL(file, import.meta.url))

// The lanes, by where a file is and its name: a package's tests start no process and listen on no port,
// unless named *.e2e.test.ts; of those, the unit lane (`npm run test:unit`, under a minute) runs the
// hand-written cases and the property lane (*.property.test.ts) the generated ones judged by every
// validator; test/ holds the end-to-end tests (real bundlers, servers, the CLI as a subprocess,
// installs). `npm test` runs all three.
const UNIT = ['packages/*/test/**/*.test.ts']
const PROPERTY = ['packages/*/test/**/*.property.test.ts']
const E2E = ['packages/*/test/**/*.e2e.test.ts', 'test/**/*.test.ts']

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
    // A bound on hangs, not on speed (test/support/timeouts.ts): a busy machine must not fail the suite.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    // Three files at once, whatever the cores: most of the end-to-end files wait on processes they
    // start (servers, bundlers, installs); two at a time kept 2 cores 75% busy (1,854 s of CPU in a
    // 1,228 s run), vitest's default there is one (cores - 1). The suite's time is measured once, in
    // README.md.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          exclude: [...configDefaults.exclude, ...E2E, ...PROPERTY],
          // Starting a process or listening on a port throws there, naming the test.
          setupFiles: ['test/support/no-processes.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'property',
          include: PROPERTY,
          exclude: [...configDefaults.exclude, ...E2E],
          setupFiles: ['test/support/no-processes.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          // The TypeScript upstreams the proxy tests start, bundled once for every file (inject).
          globalSetup: ['test/support/upstream-builds.ts'],
          // Tests marked concurrent (the npm servers', each waiting on processes it starts) go three at a time.
          maxConcurrency: 3,
          // The type tests run tsc over the workspace, a process of its own, so they are in this lane.
          typecheck: { enabled: true, include: ['packages/*/test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
    ],
  },
})
