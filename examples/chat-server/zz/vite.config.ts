import flatmcp from 'unplugin-flatmcp/vite'
import { defineConfig } from 'vite'
export default defineConfig({ plugins: [flatmcp()], build: { ssr: 'bad.tools.ts', outDir: 'out' } })
