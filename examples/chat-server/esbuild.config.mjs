import { build } from 'esbuild'
import flatmcp from 'unplugin-flatmcp/esbuild'

// esbuild has no plugins on its command line: this script is its build command.
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
