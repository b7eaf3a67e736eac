// esbuild.config.mjs: `node esbuild.config.mjs` (esbuild takes no plugins on its command line).
import { build } from 'esbuild'
import flatmcp from 'unplugin-flatmcp/esbuild'

await build({
  entryPoints: { 'server': 'src/stdio.ts', 'flat-v2': 'src/flat-v2.ts' },
  outdir: 'dist/esbuild',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [flatmcp({ profiles: ['portable', 'openai-strict', 'anthropic-strict', 'gemini'] })],
})
