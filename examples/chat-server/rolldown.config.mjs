// rolldown.config.mjs: `node rolldown.config.mjs`.
import { build } from 'rolldown'
import flatmcp from 'unplugin-flatmcp/rolldown'

await build({
  input: 'src/stdio.ts',
  platform: 'node',
  external: /^[^./]/,
  plugins: [flatmcp()],
  output: { file: 'dist/rolldown/server.mjs', format: 'esm' },
})
