// vite.config.ts: `vite build` makes each server one Node module in dist/vite, packages left as imports.
import flatmcp from 'unplugin-flatmcp/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [flatmcp({ profiles: ['portable', 'openai-strict', 'anthropic-strict', 'gemini'] })],
  ssr: { external: true },
  build: {
    ssr: true,
    outDir: 'dist/vite',
    emptyOutDir: true,
    rolldownOptions: {
      // The tools on the MCP SDK 1.x and 2.x, and an SDK 2.x McpServer with a flat() schema.
      input: { 'server': 'src/stdio.ts', 'server-v2': 'src/stdio-v2.ts', 'flat-v2': 'src/flat-v2.ts' },
      output: { entryFileNames: '[name].mjs' },
    },
  },
})
