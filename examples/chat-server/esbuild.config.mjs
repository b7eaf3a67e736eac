// esbuild.config.mjs: `node esbuild.config.mjs` (esbuild takes no plugins on its command line).
import { build } from 'esbuild'
import flatmcp from 'unplugin-flatmcp/esbuild'

await build({
  entryPoints: ['src/stdio.ts'],
  outfile: 'dist/esbuild/server.mjs',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [flatmcp()],
})
