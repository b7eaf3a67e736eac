// rolldown.config.mjs: `node rolldown.config.mjs`.
import { build } from 'rolldown'
import flatmcp from 'unplugin-flatmcp/rolldown'

await build({
  input: { 'server': 'src/stdio.ts', 'flat-v2': 'src/flat-v2.ts' },
  platform: 'node',
  external: /^[^./]/,
  plugins: [flatmcp({ profiles: ['portable', 'openai-strict', 'anthropic-strict', 'gemini'] })],
  output: { dir: 'dist/rolldown', entryFileNames: '[name].mjs', format: 'esm' },
})
