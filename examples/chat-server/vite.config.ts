import flatmcp from 'unplugin-flatmcp/vite'
import { defineConfig } from 'vite'

// `vite build`: the stdio server as one Node module in dist/vite, packages left as imports.
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
