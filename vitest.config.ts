import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Workspace packages resolve to their sources in tests; built servers use their dist.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['packages/*/test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
})
