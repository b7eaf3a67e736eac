// vite.config.ts: `vite build` makes the stdio server one Node module in dist/vite, packages left as imports.
import flatmcp from 'unplugin-flatmcp/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [flatmcp()],
  ssr: { external: true },
  build: {
    ssr: 'src/stdio.ts',
    outDir: 'dist/vite',
    emptyOutDir: true,
    rolldownOptions: { output: { entryFileNames: 'server.mjs' } },
  },
})
