// The opt-in real-client suite (`npm run test:clients`): not part of `npm test`, since it installs
// the clients from the npm registry (into a cache folder, once) and runs each one for real.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/clients/*.client.ts'],
    testTimeout: 300_000,
    hookTimeout: 1_800_000,
  },
})
